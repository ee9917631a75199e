"""The ``balanced`` method: designs and tabu search (``seating.balanced``)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.tournaments.seating.support import Round, assert_partition, repeats_of
from tournaments.seating import repeat_lower_bound, round_seat, schedule_balanced, schedule_quality


@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (20, 4), (32, 9), (28, 7), (9, 4)])
def test_balanced_schedules_without_repeats(players: int, rounds: int) -> None:
    ids = list(range(101, 101 + players))
    plans = schedule_balanced(players=ids, rounds=rounds, seed=7)
    assert len(plans) == rounds
    for plan in plans:
        assert_partition(plan, ids)
        assert plan.repeats == 0
    quality = schedule_quality(rounds=[p.tables for p in plans])
    assert quality.repeats == 0 == quality.lower_bound
    assert quality.max_meetings == 1


def test_balanced_round_by_round_keeps_32_players_apart_for_9_rounds() -> None:
    # The service seats one round at a time, with a seed that may change each round.
    ids = list(range(1, 33))
    history: list[Round] = []
    for number in range(1, 10):
        plan = round_seat(
            players=ids, method="balanced", history=history, seed=1000 + number, rounds_total=9
        )
        assert_partition(plan, ids)
        assert plan.repeats == 0
        history.append(plan.tables)
    assert repeats_of(history) == 0


def test_balanced_continues_a_different_first_round() -> None:
    # Round 1 was seated by another method: the design is relabelled around it.
    ids = list(range(16))
    first = round_seat(players=ids, method="random", seed=3)
    plans = schedule_balanced(players=ids, rounds=4, history=[first.tables], seed=1)
    assert repeats_of([first.tables, *(p.tables for p in plans)]) == 0


def test_balanced_beyond_the_bound_reaches_it() -> None:
    plans = schedule_balanced(players=list(range(16)), rounds=6)
    assert repeats_of([p.tables for p in plans]) == repeat_lower_bound(players=16, rounds=6)


def test_balanced_with_history_avoids_it() -> None:
    ids = list(range(20))
    history = [round_seat(players=ids, method="random", seed=s).tables for s in range(2)]
    plans = schedule_balanced(players=ids, rounds=2, history=history, seed=5)
    for plan in plans:
        assert_partition(plan, ids)
    assert repeats_of([*history, *(p.tables for p in plans)]) == repeats_of(history)


def test_balanced_with_odd_pairs_gives_byes_in_turn() -> None:
    ids = list(range(7))
    plans = schedule_balanced(players=ids, rounds=7, max_size=2)
    byes = Counter(p for plan in plans for p in plan.byes)
    assert sorted(byes.values()) == [1] * 7
    assert repeats_of([p.tables for p in plans]) == 0  # a round robin
