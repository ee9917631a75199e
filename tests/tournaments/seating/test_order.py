"""Seat order within a table: who starts and who sits last (``seating.order``)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.tournaments.seating.support import Round
from tournaments.seating import round_seat, start_order


def test_start_seat_rotates_at_a_fixed_table() -> None:
    history: list[Round] = []
    for _ in range(4):
        history.append([start_order(table=[1, 2, 3, 4], history=history)])
    # every player has every seat once: a Latin square
    for seat in range(4):
        assert sorted(r[0][seat] for r in history) == [1, 2, 3, 4]


@pytest.mark.parametrize("method", ["random", "swiss", "balanced"])
def test_start_seat_fairness_over_an_event(method: str) -> None:
    ids = list(range(1, 21))
    history: list[Round] = []
    for number in range(12):
        standings = {p: float((p * 7919 * (number + 1)) % 101) for p in ids}
        plan = round_seat(players=ids, method=method, history=history, standings=standings)
        history.append(plan.tables)
    first = Counter(t[0] for r in history for t in r)
    last = Counter(t[-1] for r in history for t in r)
    # 12 rounds at 5 tables of 4: 3 starts and 3 last seats each on average
    assert all(2 <= first[p] <= 4 for p in ids)
    assert all(2 <= last[p] <= 4 for p in ids)


def test_nobody_is_last_twice_running_when_it_can_be_avoided() -> None:
    history: list[Round] = [[[1, 2, 3, 4]]]
    order = start_order(table=[4, 5, 6, 7], history=history)
    assert order[-1] != 4
