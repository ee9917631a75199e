"""The first round seated by rating: swiss puts similar ratings together,
balanced spreads them over the tables; later rounds ignore them (no database)."""

from __future__ import annotations

from statistics import mean

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.seating.support import assert_partition, repeats_of
from tournaments.seating import round_seat
from tournaments.seating.ratings import RATING_NEW, snake

IDS = list(range(1, 17))
# Player 16 is the strongest, 1 the weakest.
RATINGS = {p: 1300.0 + 25 * p for p in IDS}


@pytest.mark.parametrize(
    ("count", "sizes", "expected"),
    [
        # Dealt forward and back: 8 7 | 6 5 | 4 3 | 2 1.
        (8, [4, 4], [[8, 5, 4, 1], [7, 6, 3, 2]]),
        # Tables of 4, 4 and 3: 11 10 9 | 8 7 6 | 5 4 3 | then the full third table
        # is skipped: 2 and 1.
        (11, [4, 4, 3], [[11, 6, 5, 1], [10, 7, 4, 2], [9, 8, 3]]),
        (6, [3, 3], [[6, 3, 2], [5, 4, 1]]),
    ],
)
def test_snake(count: int, sizes: list[int], expected: list[list[int]]) -> None:
    players = list(range(1, count + 1))
    assert snake(players, sizes, {p: float(p) for p in players}) == expected


def test_players_without_a_rating_count_as_new() -> None:
    tables = snake([1, 2, 3, 4], [2, 2], {1: 1600.0, 4: 1400.0})
    # 1 (1600), then 2 and 3 (new: 1500, lower id first), then 4 (1400).
    assert tables == [[1, 4], [2, 3]]
    assert RATING_NEW == 1500.0


def test_swiss_first_round_seats_similar_ratings_together() -> None:
    plan = round_seat(players=IDS, method="swiss", ratings=RATINGS, seed=3)
    assert_partition(plan, IDS)
    assert [sorted(t) for t in plan.tables] == [
        [13, 14, 15, 16],
        [9, 10, 11, 12],
        [5, 6, 7, 8],
        [1, 2, 3, 4],
    ]


def test_swiss_without_ratings_draws_the_first_round() -> None:
    plan = round_seat(players=IDS, method="swiss", seed=3)
    assert [sorted(t) for t in plan.tables] != [
        [13, 14, 15, 16],
        [9, 10, 11, 12],
        [5, 6, 7, 8],
        [1, 2, 3, 4],
    ]


def test_balanced_first_round_spreads_the_ratings() -> None:
    spread = round_seat(players=IDS, method="balanced", ratings=RATINGS, seed=3, rounds_total=4)
    assert_partition(spread, IDS)
    averages = [mean(RATINGS[p] for p in t) for t in spread.tables]
    # The snake over 4 tables of 4: every table averages the same.
    assert max(averages) - min(averages) == 0
    assert sorted(max(t) for t in spread.tables) == [13, 14, 15, 16]


@pytest.mark.parametrize("method", ["swiss", "balanced", "random"])
def test_later_rounds_ignore_the_ratings(method: str) -> None:
    first = round_seat(players=IDS, method=method, seed=3, rounds_total=3)
    standings = {p: float(p % 3) for p in IDS}
    with_ratings = round_seat(
        players=IDS, method=method, history=[first.tables], standings=standings,
        ratings=RATINGS, seed=3, rounds_total=3,
    )  # fmt: skip
    without = round_seat(
        players=IDS, method=method, history=[first.tables], standings=standings,
        seed=3, rounds_total=3,
    )  # fmt: skip
    assert with_ratings == without


def test_a_spread_first_round_keeps_balanced_as_good() -> None:
    """The whole event seated round by round from a spread first round has as
    few repeats as from the usual first round (16 players at 4 tables: none)."""

    def event(ratings: dict[int, float] | None) -> list[tuple[tuple[int, ...], ...]]:
        rounds: list[tuple[tuple[int, ...], ...]] = []
        for _ in range(5):
            plan = round_seat(
                players=IDS, method="balanced", history=rounds, ratings=ratings, seed=7,
                rounds_total=5,
            )  # fmt: skip
            rounds.append(plan.tables)
        return rounds

    assert repeats_of(event(RATINGS)) == repeats_of(event(None)) == 0


@given(
    st.integers(2, 40),
    st.integers(2, 4),
    st.dictionaries(st.integers(1, 40), st.integers(800, 2400).map(float)),
    st.sampled_from(["swiss", "balanced"]),
)
def test_every_player_seated_once_whatever_the_ratings(
    count: int, max_size: int, ratings: dict[int, float], method: str
) -> None:
    players = list(range(1, count + 1))
    plan = round_seat(
        players=players, method=method, ratings=ratings, max_size=max_size, time_limit=0.5
    )
    assert_partition(plan, players)
    assert all(2 <= len(t) <= max_size for t in plan.tables)
