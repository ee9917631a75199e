"""No N+1 queries: every list (and the standings) runs the same number of
queries for a few rows as for many, and no more than its pin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    AdjustmentFactory,
    ClubFactory,
    PlayerFactory,
    TournamentFactory,
    round_play,
    tournament_entered,
)
from tournaments.services.rounds import round_seat_next

pytestmark = pytest.mark.django_db


def queries(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(captured)


def tournament_with(players: int) -> Any:
    """A tournament with two played rounds, a third seated, and a penalty per player."""
    t = tournament_entered(players=players, rounds=3, games_per_round=2)
    for _ in range(2):
        round_play(round_seat_next(tournament=t))
    round_seat_next(tournament=t)
    for entry in t.entries.all()[:players]:
        AdjustmentFactory(tournament=t, player=entry.player, points=-1)
    return t


def made(url: str, *_rows: object) -> str:
    return url


# (name, pin for an anonymous request, make data of size n -> url)
LISTS: list[tuple[str, int, Callable[[int], str]]] = [
    (
        "clubs",
        3,  # the page, its count, and the co-organisers of all its rows
        lambda n: made("/api/v1/clubs/", ClubFactory.create_batch(n)),
    ),
    (
        "players",
        2,
        lambda n: made("/api/v1/players/", PlayerFactory.create_batch(n, club=ClubFactory())),
    ),
    (
        "tournaments",
        3,  # the page, its count, and the co-organisers of all its rows
        lambda n: made(
            "/api/v1/tournaments/", TournamentFactory.create_batch(n, club=ClubFactory())
        ),
    ),
    ("entries", 3, lambda n: f"/api/v1/tournaments/{tournament_with(n).pk}/entries/"),
    ("rounds", 6, lambda n: f"/api/v1/tournaments/{tournament_with(n).pk}/rounds/"),
    ("adjustments", 3, lambda n: f"/api/v1/tournaments/{tournament_with(n).pk}/adjustments/"),
    # + the tournament's version (the key of its cached standings)
    # + which stages are seated (the current ranking's stage)
    ("standings", 7, lambda n: f"/api/v1/tournaments/{tournament_with(n).pk}/standings/"),
    ("games", 3, lambda n: f"/api/v1/games/?tournament={tournament_with(n).pk}"),
    (
        "match games",
        4,
        lambda n: (
            f"/api/v1/matches/{tournament_with(n).round_set.first().matches.first().pk}/games/"
        ),
    ),
    ("round", 4, lambda n: f"/api/v1/rounds/{tournament_with(n).round_set.first().pk}/"),
    (
        "match",
        4,
        lambda n: f"/api/v1/matches/{tournament_with(n).round_set.first().matches.first().pk}/",
    ),
]


@pytest.mark.parametrize(("make", "pin"), [pytest.param(m, p, id=n) for n, p, m in LISTS])
def test_query_count_does_not_grow_with_rows(
    anon, as_user, owner, make, pin, django_assert_max_num_queries
):
    few = queries(anon, make(4))
    many_url = make(40)
    many = queries(anon, many_url)
    assert few == many <= pin, (few, many)
    # A logged-in request adds the token's user and, for a user who does not own
    # the tournament, whether they co-organise it: one query each, whatever the rows.
    client = as_user(owner)
    with django_assert_max_num_queries(pin + 2):
        assert client.get(many_url).status_code == 200


def test_the_biggest_list_page_is_pinned_too(anon, django_assert_max_num_queries):
    t = tournament_with(60)
    with django_assert_max_num_queries(3):
        body = anon.get(f"/api/v1/games/?tournament={t.pk}&page_size=500").json()
    assert body["count"] == len(body["results"]) == 2 * 2 * 15
