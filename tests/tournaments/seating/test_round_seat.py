"""The entry point ``round_seat``: what every method shares.

Plain Python: no database. Timing belongs to ``bench/bench_seating.py``.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from tournaments import seating
from tournaments.seating import METHODS, RoundPlan, round_seat


def test_a_lone_player_gets_the_bye() -> None:
    plan = round_seat(players=[42], method="random")
    assert plan == RoundPlan(tables=(), byes=(42,), repeats=0)


def test_nobody_to_seat() -> None:
    for method in METHODS:
        assert round_seat(players=[], method=method) == RoundPlan((), (), 0)


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


def test_the_package_stays_plain_python() -> None:
    imported: set[str] = set()
    modules = sorted(Path(seating.__file__).parent.glob("*.py"))
    assert len(modules) > 1
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                # a relative import: only the package's own modules
                assert node.level == 1, path
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    imported.add(
                        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
                    )
    outside = {m for m in imported if not m.startswith("tournaments.seating")}
    assert {m.split(".")[0] for m in outside} <= {
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
