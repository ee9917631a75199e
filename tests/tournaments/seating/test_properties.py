"""Properties of every seating method, over generated fields, caps, seeds and histories."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.seating.support import Round
from tournaments.seating import (
    METHODS,
    RoundPlan,
    pair_counts,
    plan_check,
    repeat_lower_bound,
    round_seat,
    table_sizes,
)

fields = st.lists(st.integers(min_value=1, max_value=10_000), unique=True, max_size=26)
caps = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**32)


def event(
    players: list[int], method: str, max_size: int, seed: int, rounds: int
) -> tuple[list[Round], RoundPlan]:
    """Seat ``rounds`` rounds with one method (scores drawn from the seed) and the next one."""
    rnd = random.Random(seed)
    standings = dict.fromkeys(players, 0.0)
    history: list[Round] = []
    byes: list[int] = []
    while True:
        plan = round_seat(
            players=players,
            method=method,
            history=history,
            standings=standings,
            max_size=max_size,
            seed=seed,
            rounds_total=rounds + 1,
            bye_history=byes,
        )
        if len(history) == rounds:
            return history, plan
        history.append(plan.tables)
        byes.extend(plan.byes)
        for table in plan.tables:
            for p in table:
                standings[p] += rnd.randint(-50, 50)


@given(
    players=fields,
    method=st.sampled_from(METHODS),
    max_size=caps,
    seed=seeds,
    rounds=st.integers(min_value=0, max_value=3),
)
def test_every_round_is_a_valid_seating(
    players: list[int], method: str, max_size: int, seed: int, rounds: int
) -> None:
    history, plan = event(players, method, max_size, seed, rounds)

    # every active player is seated exactly once, or has the bye
    plan_check(players=players, tables=plan.tables, byes=plan.byes, max_size=max_size)

    # table sizes are the ones table_sizes gives: within 2..cap, 3+ wherever possible
    sizes, byes = table_sizes(players=len(players), max_size=max_size)
    assert sorted(map(len, plan.tables), reverse=True) == list(sizes)
    assert len(plan.byes) == byes
    assert all(2 <= len(t) <= max_size for t in plan.tables)
    if max_size == 4 and len(players) >= 6:
        assert min(map(len, plan.tables)) >= 3
    if max_size == 3 and len(players) % 3 == 0:
        assert set(map(len, plan.tables)) <= {3}

    # the repeat count is right and never beats the lower bound
    before = pair_counts(history)
    after = pair_counts([*history, plan.tables])
    assert plan.repeats == sum(after.values()) - sum(before.values()) - (len(after) - len(before))
    total = sum(c - 1 for c in after.values())
    assert total >= repeat_lower_bound(
        players=len(players), rounds=len(history) + 1, max_size=max_size
    )


@given(
    players=fields,
    method=st.sampled_from(METHODS),
    max_size=caps,
    seed=seeds,
    rounds=st.integers(min_value=0, max_value=2),
)
def test_same_seed_same_plan(
    players: list[int], method: str, max_size: int, seed: int, rounds: int
) -> None:
    first = event(players, method, max_size, seed, rounds)
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    assert event(shuffled, method, max_size, seed, rounds) == first


@given(players=fields, max_size=caps, seed=seeds)
def test_byes_go_round(players: list[int], max_size: int, seed: int) -> None:
    # Over as many rounds as there are players, nobody has a second bye before
    # everyone has had one.
    history: list[Round] = []
    byes: list[int] = []
    for _ in range(min(len(players), 8)):
        plan = round_seat(
            players=players,
            method="random",
            history=history,
            max_size=max_size,
            seed=seed,
            bye_history=byes,
        )
        history.append(plan.tables)
        byes.extend(plan.byes)
    assert len(byes) == len(set(byes))
