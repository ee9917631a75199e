"""Seating the first round by rating (the tournament's ``seed_by_rating``).

Vocabulary: the *ratings* are the players' shown ratings, handed in as data
(a player without one counts as a new player, ``RATING_NEW``). ``swiss``
seats its first round as it seats later ones by standings, with the ratings
as the standings: players of similar rating share a table. ``balanced``
*spreads* them: the first round's tables, as the schedule sized them, are
filled by a *snake* over the players from the highest rating down (table 1,
2, ..., n, then n, ..., 2, 1, ...), so that every table gets a fair share of
strong and weaker players; the seat order is then drawn as every method's
first round draws it. Only the first round changes: any relabelling of a
first round leaves the schedule's repeats as they were, and later rounds
follow the history as played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.seating.order import _order_tables, _rng
from tournaments.seating.sizes import RoundPlan

RATING_NEW = 1500.0


def rating_of(ratings: Mapping[int, float], player: int) -> float:
    return ratings.get(player, RATING_NEW)


def snake(
    players: Sequence[int], sizes: Sequence[int], ratings: Mapping[int, float]
) -> list[list[int]]:
    """``players`` dealt over tables of ``sizes`` by a snake from the highest
    rating (equal ratings: the lower id first)."""
    order = sorted(players, key=lambda p: (-rating_of(ratings, p), p))
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    while order:
        lane = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for t in lane:
            if order and len(tables[t]) < sizes[t]:
                tables[t].append(order.pop(0))
        forward = not forward
    return tables


def spread_first_round(plan: RoundPlan, ratings: Mapping[int, float], seed: int) -> RoundPlan:
    """The first round ``plan`` with the same table sizes and byes, its
    players spread by rating; the seat order drawn."""
    seated = [p for table in plan.tables for p in table]
    tables = snake(seated, [len(t) for t in plan.tables], ratings)
    ordered = _order_tables(tables, (), _rng("rating-spread", seed, 0))
    return RoundPlan(ordered, plan.byes, 0)
