"""The pure core: the modules that take plain data and return plain data.

Vocabulary: a *pure* module imports no Django (not even through the project's
modules it imports), so it runs, and is tested, without settings or a
database; the rulebook (``scoring``) goes further and imports nothing outside
the standard library. ``PURE_CORE`` is the one list of them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

PURE_CORE = (
    # The rulebook: standard library only.
    "scoring.errors",
    "scoring.racks",
    "scoring.rules",
    "scoring.table_points",
    "scoring.tie_breaks",
    "scoring.tiles",
    "scoring.variants",
    # The seating algorithms, the ranking, the desk's next step, the round clock.
    "tournaments.seating",
    "tournaments.seating.balanced",
    "tournaments.seating.designs",
    "tournaments.seating.manual",
    "tournaments.seating.order",
    "tournaments.seating.sizes",
    "tournaments.seating.swiss",
    "tournaments.standings.ranking",
    "tournaments.standings.current",
    "tournaments.progress",
    "tournaments.round_clock",
    "tournaments.names",
    "tournaments.search_names",
    # Seating by rating, a season's counting, the rating maths, a player's figures.
    "tournaments.seating.ratings",
    "tournaments.standings.season",
    "tournaments.ratings",
    "tournaments.ratings.engine",
    "tournaments.ratings.replay",
    "tournaments.player_stats",
    "tournaments.rating_chart",
    # The sheet layout of the PDF engine.
    "printing.data",
    "printing.layout",
    "printing.table_layout",
    "printing.drawn",
)


def _imported(module: str) -> set[str]:
    """The modules ``module``'s own source imports (at any depth of its code)."""
    path = ROOT.joinpath(*module.split("."))
    source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", [m for m in PURE_CORE if m.startswith("scoring.")])
def test_the_rulebook_imports_only_the_standard_library(module: str) -> None:
    foreign = {
        name
        for name in _imported(module)
        if name.split(".")[0] not in sys.stdlib_module_names
        and name != "__future__"
        and not name.startswith("scoring.")
    }
    assert not foreign


def _first_loading_django(modules: tuple[str, ...]) -> str:
    """The first of ``modules`` that loads Django, imported in order by a fresh
    interpreter (this one has Django loaded already); "" when none does."""
    probe = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "    if any(m == 'django' or m.startswith('django.') for m in sys.modules):\n"
        "        print(name)\n"
        "        break\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return run.stdout.strip()


def test_the_pure_core_loads_no_django() -> None:
    assert _first_loading_django(PURE_CORE) == ""


def test_the_probe_names_a_module_that_loads_django() -> None:
    assert _first_loading_django(("scoring.rules", "config.health")) == "config.health"
