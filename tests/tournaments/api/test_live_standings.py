"""The standings endpoint is live: a strong ETag of the tournament's version, a
304 with no body to it in ``If-None-Match`` in a fixed number of queries, a
new ETag once a game is recorded, and nothing told to a stranger."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory, match_seated
from tests.tournaments.api.conftest import client_as
from tests.tournaments.web.support import play

pytestmark = pytest.mark.django_db

QUERIES = ["", "?stage=qualifying", "?category=open", "?stage=qualifying&category=open"]


@pytest.mark.parametrize("query", QUERIES)
def test_the_standings_answer_304_until_a_game_is_recorded(query: str) -> None:
    match = match_seated(players=4, games_per_round=3)
    url = f"/api/v1/tournaments/{match.round.tournament_id}/standings/{query}"
    client = client_as()
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and "no-cache" in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    # The tournament's head: its version, under the reader's right to see it.
    assert len(queries) == 1
    play(match, games=1)
    moved = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200
    assert "results" in moved.json()
    assert moved["ETag"] != etag


def test_each_query_has_its_own_etag() -> None:
    match = match_seated(players=4)
    url = f"/api/v1/tournaments/{match.round.tournament_id}/standings/"
    client = client_as()
    tags = {client.get(url + query)["ETag"] for query in QUERIES}
    assert len(tags) == len(QUERIES)


def test_a_refused_query_carries_no_etag() -> None:
    match = match_seated(players=4)
    url = f"/api/v1/tournaments/{match.round.tournament_id}/standings/?stage=nonsense"
    answer = client_as().get(url)
    assert answer.status_code == 400
    assert "ETag" not in answer


@pytest.mark.parametrize("stranger", ["anonymous", "other"])
def test_a_private_tournaments_etag_tells_a_stranger_nothing(stranger: str) -> None:
    match = match_seated(players=4, public=False)
    tournament = match.round.tournament
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    first = client_as(tournament.owner).get(url)
    assert first.status_code == 200
    assert "private" in first["Cache-Control"]
    client = client_as(None if stranger == "anonymous" else UserFactory())
    answer = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert answer.status_code == 404
    assert "ETag" not in answer


def test_the_schema_declares_the_304_and_its_headers() -> None:
    schema = client_as().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/tournaments/{tournament_id}/standings/"]["get"]
    assert "304" in operation["responses"]
    assert "ETag" in operation["responses"]["200"]["headers"]
    assert "If-None-Match" in {p["name"] for p in operation["parameters"]}
