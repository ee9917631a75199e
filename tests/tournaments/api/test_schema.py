"""The OpenAPI document: valid, warning-free, and complete."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command

pytestmark = pytest.mark.django_db

DESIGN_PATHS = {
    ("post", "/api/v1/auth/token/"),
    ("post", "/api/v1/score/"),
    ("get", "/api/v1/clubs/"),
    ("post", "/api/v1/clubs/"),
    ("get", "/api/v1/players/"),
    ("post", "/api/v1/players/"),
    ("get", "/api/v1/tournaments/"),
    ("post", "/api/v1/tournaments/"),
    ("put", "/api/v1/tournaments/{id}/"),
    ("delete", "/api/v1/tournaments/{id}/"),
    ("get", "/api/v1/tournaments/{tournament_id}/entries/"),
    ("post", "/api/v1/tournaments/{tournament_id}/entries/"),
    ("delete", "/api/v1/tournaments/{tournament_id}/entries/{player_id}/"),
    ("post", "/api/v1/tournaments/{tournament_id}/rounds/"),
    ("get", "/api/v1/tournaments/{tournament_id}/standings/"),
    ("get", "/api/v1/tournaments/{tournament_id}/adjustments/"),
    ("post", "/api/v1/tournaments/{tournament_id}/adjustments/"),
    ("get", "/api/v1/rounds/{id}/"),
    ("post", "/api/v1/rounds/{id}/reseat/"),
    ("put", "/api/v1/rounds/{id}/seating/"),
    ("get", "/api/v1/matches/{match_id}/games/"),
    ("post", "/api/v1/matches/{match_id}/games/"),
    ("get", "/api/v1/games/{id}/"),
    ("put", "/api/v1/games/{id}/"),
    ("delete", "/api/v1/games/{id}/"),
}


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory, django_db_blocker) -> dict[str, Any]:
    path: Path = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    with django_db_blocker.unblock():
        # --fail-on-warn: every view, field and enum is typed, nothing guessed.
        call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    document: dict[str, Any] = yaml.safe_load(path.read_text())
    return document


def test_the_schema_validates_and_covers_the_design(schema):
    operations = {(m, p) for p, item in schema["paths"].items() for m in item}
    assert operations >= DESIGN_PATHS


def test_every_operation_documents_its_errors(schema):
    for path, item in schema["paths"].items():
        for method, op in item.items():
            codes = set(op["responses"])
            assert any(c.startswith("2") for c in codes), (method, path)
            if path != "/api/v1/score/" and path != "/api/v1/auth/token/":
                assert "401" in codes, (method, path)
            if method in ("post", "put", "patch"):
                assert "400" in codes or path.endswith("/reseat/"), (method, path)
            if method != "get" and path not in ("/api/v1/score/", "/api/v1/auth/token/"):
                assert "403" in codes, (method, path)
            if "{" in path:
                assert "404" in codes, (method, path)
    games = schema["paths"]["/api/v1/games/{id}/"]
    assert {"412", "428"} <= set(games["put"]["responses"]) & set(games["delete"]["responses"])
    assert "409" in schema["paths"]["/api/v1/matches/{match_id}/games/"]["post"]["responses"]
    assert any(p["name"] == "If-Match" for p in games["put"]["parameters"])
    assert "ETag" in games["get"]["responses"]["200"]["headers"]


def test_the_match_token_and_enums_are_described(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["matchToken"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-Match-Token",
        "description": schemes["matchToken"]["description"],
    }
    record = schema["paths"]["/api/v1/matches/{match_id}/games/"]["post"]
    assert {"matchToken": []} in record["security"]
    assert {"matchToken": []} not in schema["paths"]["/api/v1/tournaments/"]["post"]["security"]
    enums = schema["components"]["schemas"]
    assert enums["EndingEnum"]["enum"] == ["rummikub", "pool_exhausted", "time_up"]
    assert enums["SeatingEnum"]["enum"] == ["random", "swiss", "balanced", "manual"]
    assert set(enums["PoolTieEnum"]["enum"]) == {"share", "fewest_tiles", "draw"}
    assert enums["RankingEnum"]["enum"][:2] == ["score", "table_points"]
    score = enums["PlayerScore"]["properties"]["score"]
    assert score["type"] == "number"


def test_schema_and_docs_are_served(client):
    response = client.get("/api/v1/schema/")
    assert response.status_code == 200 and b"openapi: 3" in response.content
    assert client.get("/api/v1/schema/?format=json").json()["info"]["title"] == "Rackscore API"
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


TRUST_OPERATIONS = {
    ("post", "/api/v1/matches/{match_id}/games/"): {"200", "201", "400", "409"},
    ("post", "/api/v1/games/{game_id}/confirm/"): {"200", "400", "401", "403", "404", "409"},
    ("post", "/api/v1/games/{game_id}/restore/"): {"201", "401", "403", "404", "409"},
    ("post", "/api/v1/matches/{id}/token/"): {"200", "401", "403", "404", "409"},
    ("get", "/api/v1/tournaments/{tournament_id}/audit/"): {"200", "401", "403", "404"},
}


def test_trust_operations_declare_their_statuses(schema):
    for (method, path), codes in TRUST_OPERATIONS.items():
        assert codes <= set(schema["paths"][path][method]["responses"]), (method, path)
    record = schema["paths"]["/api/v1/matches/{match_id}/games/"]["post"]
    taken = record["responses"]["409"]["content"]["application/json"]["schema"]["$ref"]
    assert schema["components"]["schemas"][taken.rsplit("/", 1)[1]]["properties"]["game"]
    game = schema["components"]["schemas"]["Game"]["properties"]
    assert {"state", "second_entry"} <= set(game)
    audit = schema["paths"]["/api/v1/tournaments/{tournament_id}/audit/"]["get"]
    assert {"match", "action"} <= {p["name"] for p in audit["parameters"]}
    settings = schema["components"]["schemas"]["Tournament"]["properties"]
    assert {"confirmation", "standings_unconfirmed"} <= set(settings)
