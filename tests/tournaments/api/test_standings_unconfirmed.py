"""The standings endpoint's ``unconfirmed_games``: each player's games awaiting
confirmation (in the ``?stage=`` asked for), counted by the standings or not,
declared in the schema, at a pinned number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import RoundFactory, match_seated
from tests.tournaments.web.support import play
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def played(setting: str) -> Tournament:
    match = match_seated(
        players=4, public=True, confirmation="organiser", standings_unconfirmed=setting
    )
    play(match, games=3)
    Game.objects.filter(match=match, number=2).update(state=Game.State.ENTERED)
    Game.objects.filter(match=match, number=3).update(state=Game.State.DISPUTED)
    return match.round.tournament


@pytest.mark.parametrize(("setting", "games"), [("include", 3), ("exclude", 1)])
def test_each_row_counts_its_unconfirmed_games(anon: APIClient, setting: str, games: int) -> None:
    t = played(setting)
    rows = anon.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    assert [row["unconfirmed_games"] for row in rows] == [2] * 4
    assert [row["games"] for row in rows] == [games] * 4


def test_a_stage_counts_only_its_own_unconfirmed_games(anon: APIClient) -> None:
    t = played("include")
    RoundFactory(tournament=t, number=2, stage="final")  # a final, nothing played in it
    url = f"/api/v1/tournaments/{t.pk}/standings/?stage=final"
    rows = anon.get(url).json()["results"]
    assert [row["unconfirmed_games"] for row in rows] == [0] * 4


def test_everything_confirmed_counts_zero(anon: APIClient) -> None:
    match = match_seated(players=4, public=True)
    play(match, games=2)
    t = match.round.tournament
    rows = anon.get(f"/api/v1/tournaments/{t.pk}/standings/").json()["results"]
    assert [row["unconfirmed_games"] for row in rows] == [0] * 4


def test_the_count_costs_one_query(anon: APIClient) -> None:
    t = played("exclude")
    with CaptureQueriesContext(connection) as queries:
        assert anon.get(f"/api/v1/tournaments/{t.pk}/standings/").status_code == 200
    # tournament, its version (the cache key), standings (3), the stages seated (the
    # current ranking asks whether semi-finals or a final decide the order), games
    # awaiting confirmation
    assert len(queries) == 7


def test_the_schema_declares_it(anon: APIClient) -> None:
    schema = anon.get("/api/v1/schema/?format=json").json()
    row = schema["components"]["schemas"]["Standing"]
    assert row["properties"]["unconfirmed_games"]["type"] == "integer"
    assert "unconfirmed_games" in row["required"]
