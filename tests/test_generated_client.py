"""A Python client generated from the OpenAPI document runs a small tournament.

Vocabulary: the *document* is the OpenAPI 3.1 document the live server serves
(``/api/v1/schema/``); the *client* is the package openapi-python-client (a
dev dependency, run from the venv on the document saved to a file: nothing is
downloaded) generates from it into a temporary folder, formatted by the venv's
ruff; an *operation* is one of the client's modules (``tournaments_create``),
named by the document's ``operationId``; an *exchange* is one request the client
made and the answer it got, captured by an httpx event hook; *strict
validation* checks each answer against the document: its status and media type
are declared for the operation, and its body validates against the declared
schema with JSON Schema 2020-12 (OpenAPI 3.1's dialect), formats included.

The client runs what a scorer's program would: a token, a tournament, players,
entries, a seated round, games with tiles and with points, a keyed retry
(``Idempotency-Key``), a correction with ``If-Match`` (and a stale one), the
standings, and a backup exported and imported again with identical standings.
Every answer it met is then validated strictly. openapi-typescript reads the
same document in the README's recipe; it needs Node packages this suite does
not install, so it is not run here.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from scoring import rules
from tests.factories import UserFactory

PACKAGE = "rackscore_client"
DOCUMENT_URI = "urn:rackscore:openapi"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"
PASSWORD = "secret-pass-123"  # UserFactory's


@dataclass(frozen=True)
class Exchange:
    """One request the client made and the answer it got."""

    method: str
    path: str
    status: int
    media_type: str
    body: bytes


# ----------------------------------------------------------------------------- the document


def operation_of(document: dict[str, Any], method: str, path: str) -> tuple[str, dict[str, Any]]:
    """The document's path template and operation that a request's path matches."""
    for template, item in document["paths"].items():
        parts, wanted = template.strip("/").split("/"), path.strip("/").split("/")
        matches = len(parts) == len(wanted) and all(
            p == w or (p.startswith("{") and p.endswith("}"))
            for p, w in zip(parts, wanted, strict=True)
        )
        if matches and method.lower() in item:
            return template, item[method.lower()]
    raise AssertionError(f"{method} {path} is no operation of the document")


def answer_problems(document: dict[str, Any], exchange: Exchange) -> list[str]:
    """What strict validation finds wrong with one answer (nothing: an empty list)."""
    template, operation = operation_of(document, exchange.method, exchange.path)
    said = f"{exchange.method} {exchange.path} → {exchange.status}"
    responses = operation["responses"]
    status = str(exchange.status) if str(exchange.status) in responses else "default"
    if status not in responses:
        return [f"{said}: status not declared"]
    content = responses[status].get("content", {})
    if not exchange.body:
        return [f"{said}: declares a body, answered none"] if content else []
    if exchange.media_type not in content:
        return [f"{said}: {exchange.media_type!r} not declared ({sorted(content)})"]
    pointer = "/".join(
        part.replace("~", "~0").replace("/", "~1")
        for part in ("", "paths", template, exchange.method.lower(), "responses", status)
    )
    media = exchange.media_type.replace("~", "~0").replace("/", "~1")
    reference = f"{DOCUMENT_URI}#{quote(pointer)}/content/{quote(media)}/schema"
    registry: Registry[Any] = Registry().with_resource(
        DOCUMENT_URI, DRAFT202012.create_resource(document)
    )
    validator = Draft202012Validator(
        {"$ref": reference}, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    body = json.loads(exchange.body)
    return [
        f"{said}: {'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(body)
    ]


@pytest.mark.parametrize(
    ("exchange", "problem"),
    [
        (Exchange("GET", "/api/v1/clubs/1/", 200, "application/json", b'{"id": 1}'), "name"),
        (Exchange("GET", "/api/v1/clubs/1/", 299, "application/json", b"{}"), "not declared"),
        (Exchange("GET", "/api/v1/clubs/1/", 200, "text/html", b"<p>"), "not declared"),
        (Exchange("GET", "/api/v1/clubs/1/", 200, "application/json", b""), "none"),
        (
            Exchange("GET", "/api/v1/games/1/", 200, "application/json", b'{"second_entry": 5}'),
            "second_entry",
        ),
    ],
)
def test_strict_validation_finds_what_the_document_does_not_declare(document, exchange, problem):
    problems = answer_problems(document, exchange)
    assert problems and any(problem in p for p in problems), problems


def test_the_carry_over_documented_is_the_carry_over_accepted(document):
    carry_over = document["components"]["schemas"]["TournamentRequest"]["properties"]["carry_over"]
    validator = Draft202012Validator(carry_over)
    documented = {v / 4 for v in range(-4, 9) if validator.is_valid(v / 4)}
    assert documented == {float(v) for v in rules.CARRY_OVER_CHOICES} == {0, 0.5, 1}
    assert not validator.is_valid("0.5")


# ----------------------------------------------------------------------------- the client


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory, django_db_blocker: Any) -> dict[str, Any]:
    from django.test import Client

    with django_db_blocker.unblock():
        answer = Client().get("/api/v1/schema/", {"format": "json"})
    assert answer.status_code == 200
    parsed: dict[str, Any] = answer.json()
    assert parsed["openapi"].startswith("3.1")
    return parsed


@pytest.fixture(scope="module")
def client_package(
    document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SimpleNamespace]:
    """The generated package: ``api`` names each operation's module, ``models`` its models."""
    folder = tmp_path_factory.mktemp("generated")
    source = folder / "openapi.json"
    source.write_text(json.dumps(document))
    # The generator's post hooks run `ruff` from PATH: the venv's.
    environment = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(
        [
            GENERATOR,
            "generate",
            "--path",
            source,
            "--meta",
            "none",
            "--output-path",
            folder / PACKAGE,
        ],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    # Anything the generator could not read is dropped with a warning: nothing may be.
    assert "Warning" not in said and "Unable to" not in said, said
    sys.path.insert(0, str(folder))
    try:
        operations = {
            path.stem: importlib.import_module(f"{PACKAGE}.api.{path.parent.name}.{path.stem}")
            for path in sorted((folder / PACKAGE / "api").glob("*/*.py"))
            if path.stem != "__init__"
        }
        package = importlib.import_module(PACKAGE)
        yield SimpleNamespace(
            api=SimpleNamespace(**operations),
            models=importlib.import_module(f"{PACKAGE}.models"),
            Client=package.Client,
            AuthenticatedClient=package.AuthenticatedClient,
        )
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def test_every_operation_of_the_document_is_generated(document, client_package):
    operation_ids = {
        operation["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    assert operation_ids == set(vars(client_package.api))


# ----------------------------------------------------------------------------- a tournament


def _recorder(exchanges: list[Exchange]) -> dict[str, Any]:
    def keep(response: httpx.Response) -> None:
        response.read()
        exchanges.append(
            Exchange(
                method=response.request.method,
                path=response.request.url.path,
                status=response.status_code,
                media_type=response.headers.get("content-type", "").split(";")[0].strip(),
                body=response.content,
            )
        )

    return {"event_hooks": {"response": [keep]}}


def _racks(models: ModuleType, seats: list[int], game: int) -> list[Any]:
    """A game's racks in seat order: game 1 as tiles, game 2 as points (with jokers)."""
    rack = models.GameRackInRequest
    if game == 1:
        tiles = ["", "R5 J", "K13 B2", "O7 O8"]
        return [rack(player=p, tiles=t) for p, t in zip(seats, tiles, strict=True)]
    return [rack(player=p, points=n, jokers=0) for p, n in zip(seats, [16, 4, 3, 22], strict=True)]


def _table(standings: Any) -> list[tuple[int, str, float, int]]:
    return sorted((row.rank, row.name, row.score, row.games) for row in standings.results)


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_runs_a_tournament_and_every_answer_is_as_documented(
    live_server, document, client_package
):
    api, models = client_package.api, client_package.models
    owner = UserFactory(username="organiser")
    exchanges: list[Exchange] = []
    hooks = _recorder(exchanges)

    anonymous = client_package.Client(
        base_url=live_server.url, raise_on_unexpected_status=True, httpx_args=hooks
    )
    login = api.auth_token_create.sync(
        client=anonymous,
        body=models.TokenLoginRequest(username=owner.username, password=PASSWORD),
    )
    client = client_package.AuthenticatedClient(
        base_url=live_server.url,
        token=login.token,
        prefix="Token",
        raise_on_unexpected_status=True,
        httpx_args=hooks,
    )

    created = api.tournaments_create.sync_detailed(
        client=client,
        body=models.TournamentRequest(
            name="Client Cup", rounds=1, games_per_round=2, carry_over=0.5, public=True
        ),
    )
    assert created.status_code == 201
    tournament = created.parsed
    assert (tournament.slug, tournament.carry_over) == ("client-cup", 0.5)

    names = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Greta", "Hugo"]
    players = [
        api.players_create.sync(client=client, body=models.PlayerRequest(name=name)).id
        for name in names
    ]
    entries = api.tournaments_entries_create.sync(
        tournament_id=tournament.id,
        client=client,
        body=models.SeveralPlayersInRequest(players=players),
    )
    assert sorted(e.player for e in entries) == sorted(players)

    round_ = api.tournaments_rounds_create.sync(
        tournament_id=tournament.id, client=client, body=models.RoundSeatInRequest()
    )
    assert sorted(len(m.players) for m in round_.matches) == [4, 4]

    for match in round_.matches:
        first = models.GameRecordInRequest(
            ending=models.EndingEnum.RUMMIKUB, racks=_racks(models, match.players, 1), number=1
        )
        key = f"match-{match.id}-game-1"
        stored = api.matches_games_create.sync_detailed(
            match_id=match.id, client=client, body=first, idempotency_key=key
        )
        # The connection dropped, say: the same request again, with the same key.
        replayed = api.matches_games_create.sync_detailed(
            match_id=match.id, client=client, body=first, idempotency_key=key
        )
        assert stored.status_code == replayed.status_code == 201
        assert replayed.headers["Idempotent-Replayed"] == "true"
        assert replayed.parsed.id == stored.parsed.id
        assert [s.score for s in stored.parsed.scores] == [65, -35, -15, -15]

        second = api.matches_games_create.sync_detailed(
            match_id=match.id,
            client=client,
            body=models.GameRecordInRequest(
                ending=models.EndingEnum.POOL_EXHAUSTED, racks=_racks(models, match.players, 2)
            ),
        )
        assert second.status_code == 201, second.content
        assert second.parsed.number == 2
        games = api.matches_games_list.sync(match_id=match.id, client=client)
        assert [g.number for g in games.results] == [1, 2]  # stored once, whatever the retry

    # A correction: read the game (its ETag), send it back changed with If-Match.
    game_id = stored.parsed.id
    read = api.games_retrieve.sync_detailed(id=game_id, client=client)
    etag = read.headers["ETag"]
    seats = match.players
    corrected = models.GameInRequest(
        ending=models.EndingEnum.RUMMIKUB,
        racks=[
            models.GameRackInRequest(player=p, points=n)
            for p, n in zip(seats, [0, 5, 5, 5], strict=True)
        ],
    )
    changed = api.games_update.sync_detailed(
        id=game_id, client=client, body=corrected, if_match=etag
    )
    assert changed.status_code == 200
    assert [s.score for s in changed.parsed.scores] == [15, -5, -5, -5]
    stale = api.games_update.sync_detailed(id=game_id, client=client, body=corrected, if_match=etag)
    assert stale.status_code == 412

    standings = api.tournaments_standings_retrieve.sync(tournament_id=tournament.id, client=client)
    assert sorted(row.player for row in standings.results) == sorted(players)
    assert sum(row.games for row in standings.results) == 2 * 8

    # A backup, restored under a new slug: the same standings.
    backup = api.tournaments_export_retrieve.sync(tournament_id=tournament.id, client=client)
    restored = api.tournaments_import_create.sync_detailed(
        client=client,
        body=models.TournamentsImportCreateBody.from_dict(backup.to_dict()),
        slug="client-cup-again",
    )
    assert restored.status_code == 201
    assert restored.parsed.slug == "client-cup-again"
    again = api.tournaments_standings_retrieve.sync(tournament_id=restored.parsed.id, client=client)
    assert _table(again) == _table(standings)

    problems = [p for exchange in exchanges for p in answer_problems(document, exchange)]
    assert not problems, "\n".join(problems)
    statuses = {e.status for e in exchanges}
    assert {200, 201, 412} <= statuses and len(exchanges) == 27
