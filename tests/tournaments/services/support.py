"""Helpers shared by the service tests: a round's tables, a forced standings
order, a match played with a chosen winner, a round with two players swapped."""

from __future__ import annotations

from scoring.rules import RackIn
from tests.factories import seated_ids
from tournaments.models import Match, Round, Tournament
from tournaments.services import adjustments
from tournaments.services.games import game_record


def seated(round_: Round) -> list[list[int]]:
    return [seated_ids(m) for m in round_.matches.order_by("table")]


def entry_ids(t: Tournament) -> list[int]:
    return list(t.entries.order_by("player_id").values_list("player_id", flat=True))


def force_order(t: Tournament, order: list[int]) -> None:
    """Make the qualifying standings follow ``order`` with big event bonuses."""
    for i, pid in enumerate(order):
        adjustments.adjustment_add(
            tournament=t,
            player_id=pid,
            points=10_000 * (len(order) - i),
            reason="seed",
            kind="bonus",
        )


def play_table(
    match: Match,
    winner: int,
    losers_points: dict[int, int] | None = None,
    games: int | None = None,
) -> None:
    """Record every game of a match with ``winner`` going out; others hold their points."""
    ids = seated_ids(match)
    for _ in range(games or match.round.games_per_match):
        game_record(
            match=match,
            ending="rummikub",
            racks=[
                RackIn(player=p, points=0 if p == winner else (losers_points or {}).get(p, 10))
                for p in ids
            ],
        )


def first_entered(t: Tournament) -> int:
    """The entered player with the lowest id."""
    return t.entries.order_by("player_id").values_list("player_id", flat=True)[0]


def tables_swapped(round_: Round) -> list[list[int]]:
    """The round's tables with the first players of tables 1 and 2 swapped."""
    tables = seated(round_)
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
    return tables
