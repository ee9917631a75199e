"""The event variants of the rules engine: loss cap, winner and runner-up bonus,
the ``draw`` tie policy and the ``time_up`` ending (table-driven, then properties)."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.rules import ENDINGS, POOL_TIES, RackIn, Rules, game_score

moderate = settings(max_examples=200, deadline=None)


def points(*values: int) -> list[RackIn]:
    return [RackIn(player=chr(ord("A") + i), points=v) for i, v in enumerate(values)]


def lines(game: Any) -> list[tuple[D, D]]:
    return [(r.score, r.bonus) for r in game.racks]


def test_the_worked_example_of_a_bonus_league() -> None:
    league = Rules(loss_cap=25, winner_bonus=50, runner_up_bonus=5)
    game = game_score(ending="rummikub", racks=points(0, 31, 15, 10), rules=league)
    assert lines(game) == [(D(50), D(50)), (D(-25), D(0)), (D(-15), D(0)), (D(-10), D(5))]
    assert [r.score + r.bonus for r in game.racks] == [D(100), D(-25), D(-15), D(-5)]
    assert game.winners == ("A",)


@pytest.mark.parametrize(
    ("ending", "pool_tie", "racks", "rules", "expected", "winners"),
    [
        # Pool exhausted: minuses are the differences to the lowest rack, capped.
        (
            "pool_exhausted",
            "share",
            (5, 40, 12),
            {"loss_cap": 20},
            [(27, 0), (-20, 0), (-7, 0)],
            "A",
        ),
        ("time_up", "share", (5, 40, 12), {"loss_cap": 20}, [(27, 0), (-20, 0), (-7, 0)], "A"),
        # A cap above every minus changes nothing.
        ("rummikub", "share", (0, 30, 12), {"loss_cap": 1000}, [(42, 0), (-30, 0), (-12, 0)], "A"),
        # Joint winners share the plus and the bonus; the runner-up bonus goes above them.
        (
            "pool_exhausted",
            "share",
            (4, 4, 9, 20),
            {"winner_bonus": 5, "runner_up_bonus": 3},
            [(D("10.5"), D("2.5")), (D("10.5"), D("2.5")), (-5, 3), (-16, 0)],
            "AB",
        ),
        (
            "pool_exhausted",
            "fewest_tiles",
            (4, 4, 9),
            {"winner_bonus": 5},
            [(D("2.5"), D("2.5")), (D("2.5"), D("2.5")), (-5, 0)],
            "AB",  # points entry: no tile counts, so the tie stands
        ),
        # A draw: the plus is shared, nobody wins, no winner bonus; the runner-up bonus
        # goes to the lowest rack above the tied ones.
        (
            "pool_exhausted",
            "draw",
            (4, 4, 9, 20),
            {"winner_bonus": 5, "runner_up_bonus": 3},
            [(D("10.5"), 0), (D("10.5"), 0), (-5, 3), (-16, 0)],
            "",
        ),
        ("time_up", "draw", (7, 7), {"winner_bonus": 5}, [(0, 0), (0, 0)], ""),
        # Tied runners-up share their bonus.
        (
            "rummikub",
            "share",
            (0, 9, 9),
            {"runner_up_bonus": 5},
            [(18, 0), (-9, D("2.5")), (-9, D("2.5"))],
            "A",
        ),
    ],
)
def test_variants_on_every_ending_and_tie_policy(
    ending: str,
    pool_tie: str,
    racks: tuple[int, ...],
    rules: dict[str, int],
    expected: list[tuple[str, str]],
    winners: str,
) -> None:
    game = game_score(ending=ending, racks=points(*racks), rules=Rules(pool_tie=pool_tie, **rules))
    assert lines(game) == [(D(s), D(b)) for s, b in expected]
    assert "".join(str(w) for w in game.winners) == winners
    assert game.ending == ending
    assert sum(r.score for r in game.racks) == 0


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"loss_cap": 0}, "loss_cap"),
        ({"loss_cap": -3}, "loss_cap"),
        ({"loss_cap": 2.5}, "loss_cap"),
        ({"loss_cap": True}, "loss_cap"),
        ({"loss_cap": 10001}, "loss_cap"),
        ({"winner_bonus": -1}, "winner_bonus"),
        ({"winner_bonus": 1.5}, "winner_bonus"),
        ({"winner_bonus": 1001}, "winner_bonus"),
        ({"runner_up_bonus": -1}, "runner_up_bonus"),
        ({"runner_up_bonus": "5"}, "runner_up_bonus"),
        ({"pool_tie": "coin"}, "pool_tie"),
    ],
)
def test_bad_variant_settings_are_refused_naming_the_field(
    rules: dict[str, Any], field: str
) -> None:
    with pytest.raises(RuleError) as refused:
        Rules(**rules)
    assert refused.value.field == field


def test_time_up_is_validated_as_pool_exhausted() -> None:
    with pytest.raises(RuleError) as refused:
        game_score(ending="time_up", racks=points(0, 5))
    assert refused.value.field == "racks"


@st.composite
def variant_games(draw: st.DrawFn) -> tuple[str, list[RackIn], Rules]:
    ending = draw(st.sampled_from(ENDINGS))
    values = draw(st.lists(st.integers(1, 3) | st.integers(1, 150), min_size=2, max_size=4))
    if ending == "rummikub":
        values[draw(st.integers(0, len(values) - 1))] = 0
    rules = Rules(
        pool_tie=draw(st.sampled_from(POOL_TIES)),
        loss_cap=draw(st.none() | st.integers(1, 200)),
        winner_bonus=draw(st.integers(0, 100)),
        runner_up_bonus=draw(st.integers(0, 100)),
    )
    return ending, points(*values), rules


@moderate
@given(variant_games())
def test_scores_sum_to_zero_with_any_cap_and_bonus(
    game_in: tuple[str, list[RackIn], Rules],
) -> None:
    ending, racks, rules = game_in
    game = game_score(ending=ending, racks=racks, rules=rules)
    assert sum(r.score for r in game.racks) == 0
    assert all(r.bonus >= 0 for r in game.racks)
    if rules.loss_cap is not None:
        assert all(r.score >= -rules.loss_cap for r in game.racks)
    # The winners' plus is the sum of the (capped) minuses.
    plus = sum(r.score for r in game.racks if r.score > 0)
    assert plus == -sum(r.score for r in game.racks if r.score < 0)


@moderate
@given(variant_games())
def test_bonuses_never_change_the_score(game_in: tuple[str, list[RackIn], Rules]) -> None:
    ending, racks, rules = game_in
    plain = Rules(pool_tie=rules.pool_tie, loss_cap=rules.loss_cap)
    with_bonus = game_score(ending=ending, racks=racks, rules=rules)
    without = game_score(ending=ending, racks=racks, rules=plain)
    assert [r.score for r in with_bonus.racks] == [r.score for r in without.racks]
    assert all(r.bonus == 0 for r in without.racks)
    paid = sum(r.bonus for r in with_bonus.racks)
    assert paid <= rules.winner_bonus + rules.runner_up_bonus


@moderate
@given(variant_games())
def test_a_cap_at_or_above_every_rack_changes_nothing(
    game_in: tuple[str, list[RackIn], Rules],
) -> None:
    ending, racks, rules = game_in
    uncapped = Rules(pool_tie=rules.pool_tie)
    high = Rules(pool_tie=rules.pool_tie, loss_cap=max(150 * 1 + 60, 1000))
    assert [r.score for r in game_score(ending=ending, racks=racks, rules=high).racks] == [
        r.score for r in game_score(ending=ending, racks=racks, rules=uncapped).racks
    ]
