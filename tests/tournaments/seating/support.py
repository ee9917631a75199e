"""Helpers shared by the seating tests."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.seating import RoundPlan, pair_counts

Round = Sequence[Sequence[int]]


def repeats_of(rounds: Sequence[Round]) -> int:
    return sum(c - 1 for c in pair_counts(rounds).values())


def assert_partition(plan: RoundPlan, players: Sequence[int]) -> None:
    seated = [p for t in plan.tables for p in t]
    assert sorted(seated + list(plan.byes)) == sorted(players)
