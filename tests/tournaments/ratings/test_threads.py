"""Games recorded at once never lose a rating update (PostgreSQL: rows lock;
on SQLite the write transaction already serialises every write)."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from scoring.rules import RackIn
from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.ratings.support import assert_ratings_are_openskills
from tournaments.models import Entry, Match, PlayerRating, RatingState, Round, Seat
from tournaments.services.games import game_record

TABLES = 6


@pytest.mark.django_db(transaction=True)
def test_the_same_players_recorded_at_once_in_several_tournaments_lose_nothing():
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL runs these writes side by side")
    RatingState.objects.get_or_create(pk=1)
    players = PlayerFactory.create_batch(4)
    matches: list[Match] = []
    for n in range(TABLES):
        # Dated in reverse, so that some games land before others already rated.
        t = TournamentFactory(owner__password=None, date=dt.date(2026, 1, TABLES - n))
        Entry.objects.bulk_create(Entry(tournament=t, player=p) for p in players)
        round_ = Round.objects.create(tournament=t, number=1, games_per_match=4)
        match = Match.objects.create(round=round_, table=1)
        Seat.objects.bulk_create(
            Seat(match=match, round=round_, player=p, position=i)
            for i, p in enumerate(players, start=1)
        )
        matches.append(match)
    start = threading.Barrier(TABLES)

    def record(n: int) -> int:
        try:
            start.wait()
            game = game_record(
                match=matches[n],
                ending="rummikub",
                racks=[
                    RackIn(player=p.pk, points=0 if i == n % 4 else 5 + n)
                    for i, p in enumerate(players)
                ],
            )
            return game.number
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=TABLES) as pool:
        numbers = list(pool.map(record, range(TABLES)))
    assert numbers == [1] * TABLES
    assert sorted(PlayerRating.objects.values_list("games", flat=True)) == [TABLES] * 4
    assert assert_ratings_are_openskills() == TABLES * 4
