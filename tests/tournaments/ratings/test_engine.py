"""The rating engine equals openskill 6.2.0's Plackett–Luce with its defaults."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tournaments.ratings.engine import MU, PROVISIONAL_GAMES, SIGMA, rate, shown
from tournaments.ratings.replay import Book, GameToRate

MODEL = PlackettLuce()
TOLERANCE = 1e-9


def openskill_rate(
    mus: list[float], sigmas: list[float], scores: list[float]
) -> tuple[list[float], list[float]]:
    teams = [[MODEL.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas, strict=True)]
    out = MODEL.rate(teams, scores=scores)
    return [t[0].mu for t in out], [t[0].sigma for t in out]


def close(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    "scores",
    [
        [10, -10],
        [0, 0],
        [30, -10, -20],
        [5, 5, -10],
        [-5, -5, 10],
        [7, 7, 7],
        [40, -10, -10, -20],
        [12, 12, -12, -12],
        [0, 0, 0, 0],
        [-30, 10, 10, 10],
        [1, 2, 3, 4],
    ],
)
def test_one_game_equals_openskill(scores):
    rng = random.Random(len(scores) * 100 + sum(scores))
    mus = [rng.uniform(15, 35) for _ in scores]
    sigmas = [rng.uniform(1, SIGMA) for _ in scores]
    mine = rate(mus, sigmas, [float(s) for s in scores])
    theirs = openskill_rate(mus, sigmas, [float(s) for s in scores])
    assert close(mine[0], theirs[0])
    assert close(mine[1], theirs[1])


@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=50),
            st.floats(min_value=0.05, max_value=12),
            st.integers(min_value=-200, max_value=200),
        ),
        min_size=2,
        max_size=4,
    )
)
def test_any_game_equals_openskill(players):
    mus = [p[0] for p in players]
    sigmas = [p[1] for p in players]
    scores = [float(p[2]) for p in players]
    mine = rate(mus, sigmas, scores)
    theirs = openskill_rate(mus, sigmas, scores)
    assert close(mine[0], theirs[0])
    assert close(mine[1], theirs[1])


@pytest.mark.parametrize("seed", range(5))
def test_random_tournaments_equal_openskill_game_by_game(seed):
    """Many games over a pool of players, ties included, 2-, 3- and 4-player
    tables: the book's ratings equal openskill's ``rate`` loop throughout."""
    rng = random.Random(seed)
    pool = list(range(1, 41))
    theirs = {p: MODEL.rating() for p in pool}
    book = Book()
    for number in range(600):
        seated = rng.sample(pool, rng.choice([2, 3, 4]))
        scores = tuple(float(rng.choice([-40, -15, -15, 0, 10, 25, 25, 60])) for _ in seated)
        steps = book.play(GameToRate(number, tuple(seated), scores))
        out = MODEL.rate([[theirs[p]] for p in seated], scores=list(scores))
        for p, team in zip(seated, out, strict=True):
            theirs[p] = team[0]
        for step in steps:
            assert abs(step.mu - theirs[step.player].mu) <= TOLERANCE
            assert abs(step.sigma - theirs[step.player].sigma) <= TOLERANCE
            assert step.rating == round(1500 + 24 * theirs[step.player].ordinal())


@pytest.mark.parametrize(
    ("mu", "sigma", "rating"),
    [
        (MU, SIGMA, 1500),  # every new player
        (30.0, 2.0, 1500 + 24 * 24),
        (20.0, 5.0, 1500 + 24 * 5),
        (1.0, 8.0, 1500 - 24 * 23),
        (3.0625, 1.0, 1502),  # 1501.5: Python's round, to the even neighbour
        (3.1875, 1.0, 1504),  # 1504.5 likewise
    ],
)
def test_the_shown_rating_is_openskills_ordinal_on_the_elo_scale(mu, sigma, rating):
    assert shown(mu, sigma) == rating
    assert shown(mu, sigma) == round(1500 + 24 * MODEL.rating(mu=mu, sigma=sigma).ordinal())
    assert PROVISIONAL_GAMES == 20


def test_equal_scores_share_a_rank_whatever_the_seat_order():
    mus, sigmas = [25.0, 25.0, 25.0], [SIGMA, SIGMA, SIGMA]
    a = rate(mus, sigmas, [10.0, 10.0, -20.0])
    b = rate(mus, sigmas, [-20.0, 10.0, 10.0])
    assert a[0][0] == pytest.approx(a[0][1])
    assert a[0][0] == pytest.approx(b[0][2])
    assert a[0][2] < MU < a[0][0]


def test_a_winner_of_every_game_rises_above_a_loser_of_every_game():
    book = Book()
    for number in range(30):
        book.play(GameToRate(number, (1, 2, 3, 4), (30.0, 0.0, -10.0, -20.0)))
    win, lose = book.standing(1), book.standing(4)
    assert win is not None and lose is not None
    assert win.rating > 1500 > lose.rating
    assert win.games == lose.games == 30


def test_the_rating_engine_imports_no_django():
    import ast
    from pathlib import Path

    folder = Path(__file__).parents[3] / "tournaments" / "ratings"
    imported: set[str] = set()
    for source in folder.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
    assert imported, "no imports read"
    assert not [m for m in imported if m.split(".")[0] in {"django", "rest_framework"}]
    assert {m for m in imported if m.startswith("tournaments")} <= {
        "tournaments.ratings.engine",
        "tournaments.ratings.replay",
    }
