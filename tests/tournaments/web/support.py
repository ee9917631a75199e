"""Helpers shared by the web page tests: games played, a tournament played,
a match page's form data."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TournamentFactory
from tournaments.demo import match_play, racks_scored
from tournaments.models import Entry, Match, Seat, Tournament


def play(match: Match, *, games: int, seed: int = 1) -> None:
    match_play(
        match=match,
        rng=random.Random(seed),
        games_played=games,
        deal=partial(racks_scored, most=40),
    )


def tournament_played(*, tables: int, rounds: int = 1, games: int = 2, **kwargs) -> Tournament:
    """``rounds`` rounds of ``tables`` four-player tables, ``games`` games played at each."""
    tournament = TournamentFactory(**kwargs)
    players = PlayerFactory.create_batch(tables * 4)
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    for number in range(1, rounds + 1):
        round_ = RoundFactory(tournament=tournament, number=number)
        order = random.Random(number).sample(players, len(players))
        for table in range(1, tables + 1):
            match = MatchFactory(round=round_, table=table)
            Seat.objects.bulk_create(
                Seat(match=match, round=round_, player=p, position=i)
                for i, p in enumerate(order[(table - 1) * 4 : table * 4], start=1)
            )
            play(match, games=games, seed=number * 100 + table)
    return tournament


def entry_post(
    match: Match,
    racks: dict[int, dict[str, str]],
    ending: str = "rummikub",
    number: int | str | None = None,
) -> dict[str, Any]:
    """A game form as a page posts it; ``number`` is the game the page shows
    (by default the lowest one not recorded yet)."""
    if number is None:
        taken = set(match.games.values_list("number", flat=True))
        number = next(n for n in range(1, len(taken) + 2) if n not in taken)
    data = {"ending": ending, "number": str(number)}
    positions = {s.player_id: s.position for s in match.seats.all()}
    for player, fields in racks.items():
        for name, value in fields.items():
            data[f"p{positions[player]}_{name}"] = value
    return data
