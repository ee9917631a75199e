"""Helpers shared by the seating tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.seating import RoundPlan, pair_counts

Round = Sequence[Sequence[int]]


def repeats_of(rounds: Sequence[Round]) -> int:
    return sum(c - 1 for c in pair_counts(rounds).values())


def assert_partition(plan: RoundPlan, players: Sequence[int]) -> None:
    seated = [p for t in plan.tables for p in t]
    assert sorted(seated + list(plan.byes)) == sorted(players)


def play(tables: Sequence[Sequence[int]], standings: dict[int, float], rnd: random.Random) -> None:
    """Random game scores summing to zero at every table (tests and the seating bench)."""
    for table in tables:
        losses = [rnd.randint(0, 80) for _ in table]
        winner = rnd.randrange(len(table))
        for i, player in enumerate(table):
            standings[player] += sum(losses) - losses[i] if i == winner else -losses[i]
