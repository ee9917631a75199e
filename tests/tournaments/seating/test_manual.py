"""Manual seating: the random plan to edit and ``plan_check`` (``seating.manual``)."""

from __future__ import annotations

import pytest

from scoring.errors import UserError
from tournaments.seating import plan_check, round_seat


def test_manual_starts_from_the_random_plan() -> None:
    ids = list(range(10))
    history = [round_seat(players=ids, method="random", seed=1).tables]
    assert round_seat(players=ids, method="manual", history=history, seed=4) == round_seat(
        players=ids, method="random", history=history, seed=4
    )


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
        ([[1, 2, 3, 4], [5]], (), "Table 2 has 1 player;", {"table": 2, "size": 1}),
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
