"""Table sizes and the lower bound on repeats (``seating.sizes``)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import pytest

from tests.tournaments.seating.support import repeats_of
from tournaments.seating import repeat_lower_bound, table_sizes

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
