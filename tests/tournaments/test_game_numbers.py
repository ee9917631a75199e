"""tournaments/game_numbers.py: the lowest free game number, the rule's one home."""

from __future__ import annotations

import pytest

from tournaments.game_numbers import game_number_next, game_numbers_free


@pytest.mark.parametrize(
    ("taken", "planned", "free", "next_"),
    [
        ([], 4, [1, 2, 3, 4], 1),
        ([1, 2], 4, [3, 4], 3),
        ([1, 3], 4, [2, 4], 2),  # a deleted game's gap is filled first
        ([2, 1, 4, 3], 4, [], None),
        ([1, 2, 5], 2, [], None),  # a number beyond the plan frees nothing
        ([], 1, [1], 1),
        ([1], 0, [], None),
    ],
)
def test_free_numbers_lowest_first_and_the_next(taken, planned, free, next_):
    assert game_numbers_free(taken=taken, planned=planned) == free
    assert game_number_next(taken=iter(taken), planned=planned) == next_
