"""The API's contract, answer by answer: every failure schemathesis found,
pinned by a plain request (each answered HTML, a silent default or an
undeclared shape before)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.http import HttpResponse, HttpResponseServerError
from django.test import RequestFactory
from rest_framework.test import APIClient

from apikit.middleware import ApiJsonErrorsMiddleware
from tests.factories import ClubFactory, EntryFactory, TournamentFactory, match_seated
from tournaments.models import Club

pytestmark = pytest.mark.django_db

BIGINT_MAX = 2**63 - 1


def _json_detail(response: Any, status: int) -> str:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    assert set(body) == {"detail"}
    return str(body["detail"])


@pytest.fixture(scope="module")
def document(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/v1/schema/", {"format": "json"})
    assert response.status_code == 200
    return dict(response.json())


def _operation(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    return dict(document["paths"][path][method])


def _parameter(operation: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in operation["parameters"] if p["name"] == name)


# ----------------------------------------------------------------------------- 404, 405, 500


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nothing-here/",
        "/api/v1/clubs/abc/",
        "/api/v1/clubs/-1/",
        f"/api/v1/clubs/{BIGINT_MAX + 1}/",
        f"/api/v1/tournaments/{10**19}/standings/",
    ],
)
def test_a_path_matching_nothing_is_a_json_404(anon, path):
    _json_detail(anon.get(path), 404)


def test_the_largest_id_is_a_json_404_not_an_overflow(anon):
    _json_detail(anon.get(f"/api/v1/clubs/{BIGINT_MAX}/"), 404)
    _json_detail(anon.get(f"/api/v1/tournaments/{BIGINT_MAX}/standings/"), 404)


def test_path_ids_declare_the_database_range(document):
    parameter = _parameter(_operation(document, "get", "/api/v1/clubs/{id}/"), "id")
    assert parameter["schema"] == {"type": "integer", "minimum": 1, "maximum": BIGINT_MAX}


def test_a_method_not_offered_is_a_json_405_even_with_a_used_key(as_user, owner):
    client = as_user(owner)
    first = client.post("/api/v1/clubs/", {"name": "Kings"}, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    # The same key with another method: a 405, not "key used for another request" (422).
    _json_detail(client.put("/api/v1/clubs/", {}, HTTP_IDEMPOTENCY_KEY="k1"), 405)


def test_options_on_the_import_is_refused_not_a_500(as_user, owner):
    _json_detail(as_user(owner).options("/api/v1/tournaments/import/"), 405)


def test_a_django_error_page_under_the_api_becomes_json():
    def html_500(request: Any) -> HttpResponse:
        response = HttpResponseServerError("<html>boom</html>")
        response["Retry-After"] = "5"
        return response

    middleware = ApiJsonErrorsMiddleware(html_500)
    response = middleware(RequestFactory().get("/api/v1/clubs/"))
    assert _json_detail(response, 500)
    assert response["Retry-After"] == "5"
    # Pages keep their HTML.
    page = middleware(RequestFactory().get("/tournaments/"))
    assert page["Content-Type"].startswith("text/html")


# ----------------------------------------------------------------------------- bodies


def test_a_json_body_over_the_limit_is_a_json_413(as_user, owner, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = as_user(owner).post(
        "/api/v1/clubs/", {"name": "x" * 2000}, format="json", HTTP_IDEMPOTENCY_KEY="big"
    )
    _json_detail(response, 413)

    assert not Club.objects.exists()


def test_a_form_body_over_the_limit_is_a_json_413(as_user, owner, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = as_user(owner).post("/api/v1/clubs/", {"name": "x" * 2000}, format="multipart")
    _json_detail(response, 413)


def test_a_body_that_is_no_json_is_a_declared_400(as_user, owner, document):
    response = as_user(owner).post("/api/v1/clubs/", "{not json", content_type="application/json")
    assert "JSON parse error" in _json_detail(response, 400)
    field_errors = document["components"]["schemas"]["FieldErrors"]
    assert field_errors["properties"] == {"detail": {"type": "string"}}


# ----------------------------------------------------------------------------- queries


@pytest.mark.parametrize("value", ["abc", "0", "-1", "501", "1.5", ""])
def test_a_bad_page_size_is_a_400_naming_it(anon, value):
    response = anon.get("/api/v1/clubs/", {"page_size": value})
    assert response.status_code == 400
    assert list(response.json()) == ["page_size"]


@pytest.mark.parametrize("value", ["abc", "0", "-3", "1000001"])
def test_a_bad_page_is_a_400_naming_it(anon, value):
    response = anon.get("/api/v1/clubs/", {"page": value})
    assert response.status_code == 400
    assert list(response.json()) == ["page"]


def test_page_and_page_size_at_their_limits(anon):
    ClubFactory()
    assert anon.get("/api/v1/clubs/", {"page_size": 500, "page": 1}).status_code == 200
    _json_detail(anon.get("/api/v1/clubs/", {"page": 1_000_000}), 404)  # past the end


def test_pages_declare_their_ranges_and_400(document):
    operation = _operation(document, "get", "/api/v1/tournaments/{tournament_id}/rounds/")
    assert _parameter(operation, "page_size")["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 500,
        "default": 50,
    }
    assert _parameter(operation, "page")["schema"]["maximum"] == 1_000_000
    assert "400" in operation["responses"]


def test_a_nul_in_search_is_a_400_naming_search(anon, document):
    response = anon.get("/api/v1/tournaments/", {"search": "a\x00b"})
    assert response.status_code == 400
    assert list(response.json()) == ["search"]
    response = anon.get("/api/v1/clubs/", {"name": "a\x00b"})
    assert response.status_code == 400
    assert list(response.json()) == ["name"]
    operation = _operation(document, "get", "/api/v1/clubs/")
    assert _parameter(operation, "search")["schema"]["pattern"] == r"^[^\x00]*$"
    assert _parameter(operation, "name")["schema"]["pattern"] == r"^[^\x00]*$"


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        ("/api/v1/tournaments/", {"public": "yes"}, "public"),
        ("/api/v1/tournaments/", {"status": ""}, "status"),
        ("/api/v1/players/", {"no_club": "null"}, "no_club"),
        ("/api/v1/games/", {"state": ""}, "state"),
        ("/api/v1/games/", {"match": ""}, "match"),
    ],
)
def test_a_filter_value_outside_its_declaration_is_a_400(anon, path, query, field):
    response = anon.get(path, query)
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_filters_still_filter(anon):
    TournamentFactory(public=True, name="Open")
    assert anon.get("/api/v1/tournaments/", {"public": "true"}).json()["count"] == 1
    assert anon.get("/api/v1/tournaments/", {"public": "false"}).json()["count"] == 0
    assert anon.get("/api/v1/clubs/", {"name": ""}).status_code == 200  # text: empty is "any"


def test_an_empty_stage_is_a_400(anon):
    tournament = TournamentFactory(public=True)
    response = anon.get(f"/api/v1/tournaments/{tournament.pk}/standings/", {"stage": ""})
    assert response.status_code == 400
    assert list(response.json()) == ["stage"]


# ----------------------------------------------------------------------------- shapes and auth


def test_entering_players_answers_the_list_its_document_declares(as_user, document):
    operation = _operation(document, "post", "/api/v1/tournaments/{tournament_id}/entries/")
    schema = operation["responses"]["201"]["content"]["application/json"]["schema"]
    assert schema["type"] == "array"
    assert "page" not in {p["name"] for p in operation.get("parameters", [])}
    match = match_seated(players=2)
    tournament = match.round.tournament
    response = as_user(tournament.owner).post(
        f"/api/v1/tournaments/{tournament.pk}/entries/", {"player": match.seats.first().player_id}
    )
    assert response.status_code == 201
    assert isinstance(response.json(), list)


def test_public_reads_declare_optional_credentials(document):
    reads = [
        ("get", "/api/v1/clubs/"),
        ("get", "/api/v1/tournaments/{id}/"),
        ("get", "/api/v1/tournaments/{tournament_id}/standings/"),
    ]
    for method, path in reads:
        assert {} in _operation(document, method, path)["security"], path
    for method, path in [
        ("post", "/api/v1/clubs/"),
        ("get", "/api/v1/tournaments/{tournament_id}/audit/"),
        ("get", "/api/v1/matches/by-token/"),
    ]:
        assert {} not in _operation(document, method, path)["security"], path


def test_an_entry_that_does_not_exist_is_a_404(as_user):
    tournament = TournamentFactory()
    client = as_user(tournament.owner)
    path = f"/api/v1/tournaments/{tournament.pk}/entries/{BIGINT_MAX}/"
    _json_detail(client.patch(path, {"status": "absent"}), 404)
    _json_detail(client.delete(path), 404)


def test_patching_an_entry_without_a_status_changes_nothing(as_user):
    entry = EntryFactory()
    client = as_user(entry.tournament.owner)
    path = f"/api/v1/tournaments/{entry.tournament_id}/entries/{entry.player_id}/"
    response = client.patch(path, {}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "active"


@pytest.mark.django_db
def test_the_api_answers_in_the_language_the_client_asks_for(client) -> None:
    body = {
        "ending": "rummikub",
        "racks": [{"player": "A", "tiles": ""}, {"player": "B", "tiles": "R14"}],
    }
    asked = client.post(
        "/api/v1/score/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="de"
    )
    plain = client.post("/api/v1/score/", body, content_type="application/json")
    assert asked.status_code == plain.status_code == 400
    assert asked["Content-Language"] == "de" and plain["Content-Language"] == "en"
    assert asked.json() != plain.json()  # the same refusal, in German
