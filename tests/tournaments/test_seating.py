"""Seating engine: table sizes, bounds, the four methods, seat order, manual checks.

Plain Python: no database. Timing belongs to ``bench/bench_seating.py``.
"""

from __future__ import annotations

import ast
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from scoring.errors import UserError
from tournaments import seating
from tournaments.seating import (
    METHODS,
    RoundPlan,
    pair_counts,
    plan_check,
    repeat_lower_bound,
    round_seat,
    schedule_balanced,
    schedule_quality,
    start_order,
    table_sizes,
)

Round = Sequence[Sequence[int]]


def repeats_of(rounds: Sequence[Round]) -> int:
    return sum(c - 1 for c in pair_counts(rounds).values())


def assert_partition(plan: RoundPlan, players: Sequence[int]) -> None:
    seated = [p for t in plan.tables for p in t]
    assert sorted(seated + list(plan.byes)) == sorted(players)


# --------------------------------------------------------------------------
# table_sizes
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "max_size", "sizes", "byes"),
    [
        (0, 4, (), 0),
        (1, 4, (), 1),
        (2, 4, (2,), 0),
        (3, 4, (3,), 0),
        (4, 4, (4,), 0),
        (5, 4, (3, 2), 0),
        (6, 4, (3, 3), 0),
        (7, 4, (4, 3), 0),
        (8, 4, (4, 4), 0),
        (9, 4, (3, 3, 3), 0),
        (10, 4, (4, 3, 3), 0),
        (11, 4, (4, 4, 3), 0),
        (12, 4, (4, 4, 4), 0),
        (13, 4, (4, 3, 3, 3), 0),
        (1000, 4, (4,) * 250, 0),
        (1001, 4, (4,) * 248 + (3,) * 3, 0),
        (1, 3, (), 1),
        (2, 3, (2,), 0),
        (3, 3, (3,), 0),
        (4, 3, (2, 2), 0),
        (5, 3, (3, 2), 0),
        (6, 3, (3, 3), 0),
        (7, 3, (3, 2, 2), 0),
        (8, 3, (3, 3, 2), 0),
        (13, 3, (3, 3, 3, 2, 2), 0),
        (1000, 3, (3,) * 332 + (2, 2), 0),
        (5, 2, (2, 2), 1),
        (6, 2, (2, 2, 2), 0),
    ],
)
def test_table_sizes(players: int, max_size: int, sizes: tuple[int, ...], byes: int) -> None:
    assert table_sizes(players=players, max_size=max_size) == (sizes, byes)


def test_table_sizes_prefers_tables_of_three_and_four() -> None:
    for n in range(6, 200):
        sizes, byes = table_sizes(players=n)
        assert byes == 0 and sum(sizes) == n
        assert set(sizes) <= {3, 4}
        # as many tables of 4 as possible: fewer than 4 tables of 3 (4 of 3 = 3 of 4)
        assert sizes.count(3) < 4


def test_table_sizes_refuses_a_cap_below_two() -> None:
    with pytest.raises(ValueError):
        table_sizes(players=5, max_size=1)


# --------------------------------------------------------------------------
# repeat_lower_bound
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "max_size", "bound"),
    [
        (16, 5, 4, 0),
        (16, 6, 4, 24),  # each player meets 18 opponents of 15
        (20, 4, 4, 0),
        (32, 9, 4, 0),
        (32, 10, 4, 0),
        (32, 11, 4, 32),
        (4, 2, 4, 6),  # one table, all six pairs again
        (8, 2, 4, 4),  # a table of 4 drawn from two tables of 4
        (5, 2, 4, 1),
        (9, 4, 4, 0),  # Kirkman: 9 players, 4 rounds of 3+3+3
        (9, 5, 4, 9),
        (1000, 1, 4, 0),
    ],
)
def test_repeat_lower_bound(players: int, rounds: int, max_size: int, bound: int) -> None:
    assert repeat_lower_bound(players=players, rounds=rounds, max_size=max_size) == bound


def partitions(
    players: Sequence[int], sizes: Sequence[int]
) -> Iterator[tuple[frozenset[int], ...]]:
    """Every way to seat ``players`` at tables of ``sizes`` (tables unordered)."""
    if not sizes:
        yield ()
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        table = frozenset((first, *others))
        left = [p for p in rest if p not in table]
        for tail in partitions(left, sizes[1:]):
            yield (table, *tail)


@pytest.mark.parametrize(
    ("players", "rounds", "max_size"),
    [(4, 3, 3), (5, 3, 4), (6, 3, 4), (7, 2, 4), (7, 2, 3), (8, 2, 4), (5, 3, 2)],
)
def test_repeat_lower_bound_is_valid_by_exhaustion(
    players: int, rounds: int, max_size: int
) -> None:
    sizes, byes = table_sizes(players=players, max_size=max_size)
    people = list(range(players))
    rounds_possible = [
        part
        for seated in itertools.combinations(people, players - byes)
        for part in partitions(list(seated), sizes)
    ]
    best = min(
        repeats_of(schedule) for schedule in itertools.product(rounds_possible, repeat=rounds)
    )
    bound = repeat_lower_bound(players=players, rounds=rounds, max_size=max_size)
    assert bound <= best


# --------------------------------------------------------------------------
# balanced
# --------------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# swiss
# --------------------------------------------------------------------------


def play(tables: Sequence[Sequence[int]], standings: dict[int, float], rnd: random.Random) -> None:
    """Random game scores summing to zero at every table."""
    for table in tables:
        losses = [rnd.randint(0, 80) for _ in table]
        winner = rnd.randrange(len(table))
        for i, player in enumerate(table):
            standings[player] += sum(losses) - losses[i] if i == winner else -losses[i]


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


# --------------------------------------------------------------------------
# random, manual, general behaviour
# --------------------------------------------------------------------------


def test_a_lone_player_gets_the_bye() -> None:
    plan = round_seat(players=[42], method="random")
    assert plan == RoundPlan(tables=(), byes=(42,), repeats=0)


def test_nobody_to_seat() -> None:
    for method in METHODS:
        assert round_seat(players=[], method=method) == RoundPlan((), (), 0)


def test_manual_starts_from_the_random_plan() -> None:
    ids = list(range(10))
    history = [round_seat(players=ids, method="random", seed=1).tables]
    assert round_seat(players=ids, method="manual", history=history, seed=4) == round_seat(
        players=ids, method="random", history=history, seed=4
    )


@pytest.mark.parametrize("method", METHODS)
def test_same_seed_same_plan_and_player_order_does_not_matter(method: str) -> None:
    ids = list(range(3, 26))
    standings = {p: float(p % 5) for p in ids}
    history = [round_seat(players=ids, method="random", seed=9).tables]

    def seat(players: list[int]) -> RoundPlan:
        return round_seat(
            players=players, method=method, history=history, standings=standings, seed=5
        )

    assert seat(ids) == seat(list(reversed(ids)))


def test_random_rounds_differ_with_one_seed() -> None:
    ids = list(range(16))
    first = round_seat(players=ids, method="random", seed=2)
    second = round_seat(players=ids, method="random", seed=2, history=[first.tables])
    assert {frozenset(t) for t in first.tables} != {frozenset(t) for t in second.tables}


def test_repeats_are_counted_against_the_history() -> None:
    history = [[[1, 2, 3], [4, 5]]]
    plan = round_seat(players=[1, 2, 3, 4, 5], method="random", history=history, seed=0)
    expected = sum(
        1 for t in plan.tables for a, b in itertools.combinations(t, 2) if {a, b} <= {1, 2, 3}
    ) + sum(1 for t in plan.tables if {4, 5} <= set(t))
    assert plan.repeats == expected


def test_unknown_method_and_duplicate_players_are_programming_errors() -> None:
    with pytest.raises(ValueError):
        round_seat(players=[1, 2], method="alphabetical")
    with pytest.raises(ValueError):
        round_seat(players=[1, 1, 2], method="random")


# --------------------------------------------------------------------------
# seat order
# --------------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# plan_check
# --------------------------------------------------------------------------


def test_plan_check_accepts_a_valid_seating() -> None:
    plan_check(players=range(1, 10), tables=[[1, 2, 3, 4], [5, 6], [7, 8]], byes=[9])


@pytest.mark.parametrize(
    ("tables", "byes", "message", "params"),
    [
        ([[1, 2, 3], [4, 5, 99]], (), "Player 99 at table 2 is not", {"player": 99, "table": 2}),
        ([[1, 2, 3], [4, 5, 1]], (), "seated twice: at tables 1 and 2", {"player": 1}),
        ([[1, 2, 3, 4, 5]], (), "Table 1 has 5 players", {"table": 1, "size": 5}),
        ([[1, 2, 3, 4], [5]], (), "Table 2 has 1 players", {"table": 2, "size": 1}),
        ([[1, 2, 3, 4], []], (5,), "Table 2 has 0 players", {"table": 2}),
        ([[1, 2, 3, 4]], (), "Player 5 has no seat", {"player": 5}),
        ([[1, 2, 3], [4, 5]], (5,), "bye and is also seated at table 2", {"player": 5}),
        ([[1, 2, 3, 4]], (5, 5), "Player 5 has two byes", {"player": 5}),
        ([[1, 2, 3, 4]], (6,), "Player 6 has a bye but is not", {"player": 6}),
    ],
)
def test_plan_check_refuses(
    tables: list[list[int]], byes: tuple[int, ...], message: str, params: dict[str, int]
) -> None:
    with pytest.raises(UserError) as caught:
        plan_check(players=[1, 2, 3, 4, 5], tables=tables, byes=byes)
    assert caught.value.field == "tables"
    assert message in str(caught.value)
    assert params.items() <= caught.value.params.items()


def test_plan_check_respects_the_cap() -> None:
    with pytest.raises(UserError, match="Table 1 has 4 players; a table seats 2 to 3"):
        plan_check(players=range(6), tables=[[0, 1, 2, 3], [4, 5]], max_size=3)


def test_the_module_stays_plain_python() -> None:
    with open(seating.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert {m.split(".")[0] for m in imported} <= {
        "__future__",
        "itertools",
        "math",
        "random",
        "time",
        "collections",
        "dataclasses",
        "scoring",
    }
    assert "scoring.errors" in imported


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
