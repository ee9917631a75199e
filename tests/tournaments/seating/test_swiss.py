"""The ``swiss`` method: standings order, repairs and kicks (``seating.swiss``)."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.seating.support import Round, assert_partition, play, repeats_of
from tournaments.seating import pair_counts, repeat_lower_bound, round_seat


def test_swiss_seats_1000_players_for_5_rounds_without_repeats() -> None:
    ids = list(range(1, 1001))
    standings = dict.fromkeys(ids, 0.0)
    rnd = random.Random(11)
    history: list[Round] = []
    for _ in range(5):
        plan = round_seat(players=ids, method="swiss", history=history, standings=standings)
        assert_partition(plan, ids)
        assert plan.repeats == 0
        if history:
            # Tables hold players of nearby standing. A place is shared by tied
            # players, so a table's spread runs from its best player's last
            # possible place to its worst player's first (4 in a row: at most 3).
            scores = sorted(standings.values(), reverse=True)
            top: dict[float, int] = {}  # the best place a score can have
            bottom: dict[float, int] = {}  # and the worst
            for place, score in enumerate(scores):
                top.setdefault(score, place)
                bottom[score] = place
            spreads = [
                max(0, max(top[standings[p]] for p in t) - min(bottom[standings[p]] for p in t))
                for t in plan.tables
            ]
            assert sum(spreads) / len(spreads) < 3
            assert max(spreads) <= 12
        history.append(plan.tables)
        play(plan.tables, standings, rnd)
    assert repeats_of(history) == 0


def test_swiss_groups_by_standing() -> None:
    ids = list(range(12))
    standings = {p: float(p) for p in ids}
    plan = round_seat(players=ids, method="swiss", standings=standings)
    assert [sorted(t) for t in plan.tables] == [[8, 9, 10, 11], [4, 5, 6, 7], [0, 1, 2, 3]]


def test_swiss_moves_a_repeat_to_the_next_table() -> None:
    ids = list(range(12))
    standings = {p: float(p) for p in ids}
    history = [[[11, 10]]]  # the two leaders met already
    plan = round_seat(players=ids, method="swiss", history=history, standings=standings)
    assert plan.repeats == 0
    tables = [set(t) for t in plan.tables]
    assert tables[2] == {0, 1, 2, 3}  # the repair stays with the neighbouring table
    assert {11, 10} & tables[0] and {11, 10} & tables[1]


def test_swiss_accepts_repeats_only_when_forced() -> None:
    ids = list(range(8))
    standings = {p: float(p) for p in ids}
    history = [[[7, 6, 0, 1], [5, 4, 3, 2]]]
    plan = round_seat(players=ids, method="swiss", history=history, standings=standings)
    assert plan.repeats == repeat_lower_bound(players=8, rounds=2)
    assert max(pair_counts([*history, plan.tables]).values()) == 2


def test_swiss_bye_goes_to_the_lowest_standing_without_a_bye() -> None:
    ids = list(range(1, 8))
    standings = {p: float(p) for p in ids}
    plan = round_seat(players=ids, method="swiss", standings=standings, max_size=2)
    assert plan.byes == (1,)
    plan = round_seat(players=ids, method="swiss", standings=standings, max_size=2, bye_history=[1])
    assert plan.byes == (2,)


@pytest.mark.parametrize("players", [16, 20, 24, 32])
def test_swiss_finds_a_repeat_free_third_round_in_club_fields(players: int) -> None:
    # A club field (4 tables or more: with 3, pigeonholes force repeats from
    # round 2), not just a 1,000-player one: single swaps alone can get
    # stuck with a repeat here while a repeat-free round exists.
    for seed in range(25):
        rng = random.Random(seed)
        ids = list(range(1, players + 1))
        history: list[list[list[int]]] = []
        for _round in range(3):
            standings = {p: float(rng.randint(-50, 50)) for p in ids}
            plan = round_seat(
                players=ids, method="swiss", history=history, standings=standings, seed=seed
            )
            assert plan.repeats == 0, (players, seed, len(history) + 1)
            history.append([list(t) for t in plan.tables])
