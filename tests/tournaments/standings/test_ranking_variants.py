"""Ranking by wins, the single-game tie-breaks and a category's own ranks, without a database."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.tie_breaks import tie_breaks_check
from tournaments.standings.ranking import (
    RANK_BY_WINS,
    RANKING_COLUMNS,
    TIE_BREAKS,
    StandingRow,
    categories_of,
    category_rows,
    primary_key,
    standings_rank,
)

BY_WINS = primary_key(ranking=RANK_BY_WINS, min_games=0)


def row(pid: int, *scores: int, **values: Any) -> StandingRow:
    return StandingRow(
        player_id=pid,
        name=f"P{pid}",
        club="",
        game_scores=tuple(sorted((Decimal(s) for s in scores), reverse=True)),
        **values,
    )


def ranked(rows: list[StandingRow], tie_breaks: list[str], primary: Any = BY_WINS) -> list[Any]:
    out = standings_rank(rows=rows, primary=primary, tie_breaks=tie_breaks)
    return [(r.player_id, r.rank) for r in out]


def test_ranking_by_wins_puts_most_games_won_first_then_the_tie_breaks():
    rows = [
        row(1, wins=2, game_score=Decimal(10)),
        row(2, wins=3, game_score=Decimal(-40)),
        row(3, wins=2, game_score=Decimal(30)),
        row(4, wins=0, game_score=Decimal(90)),
    ]
    assert ranked(rows, ["score"]) == [(2, 1), (3, 2), (1, 3), (4, 4)]
    assert RANKING_COLUMNS[RANK_BY_WINS] == "wins"


@pytest.mark.parametrize(
    ("a", "b", "tie_break", "expected"),
    [
        # best game: the single highest game score decides
        ((50, -10, -10), (40, 20, 20), "best_game", [(1, 1), (2, 2)]),
        ((40, 20), (40, -5), "best_game", [(1, 1), (2, 1)]),
        # countback: best, then second best, and so on
        ((40, 20), (40, -5), "countback", [(1, 1), (2, 2)]),
        ((40, 20, 1), (40, 20, 3), "countback", [(2, 1), (1, 2)]),
        ((40, 20), (40, 20), "countback", [(1, 1), (2, 1)]),
        # a list that runs out first ranks lower: no game is worse than any game
        ((40,), (40, -50), "countback", [(2, 1), (1, 2)]),
        ((), (-50,), "best_game", [(2, 1), (1, 2)]),
        ((), (), "best_game", [(1, 1), (2, 1)]),
    ],
)
def test_single_game_tie_breaks(a, b, tie_break, expected):
    rows = [row(1, *a), row(2, *b)]
    assert ranked(rows, [tie_break]) == expected


def test_single_game_tie_breaks_are_names_a_tournament_may_choose():
    assert tie_breaks_check(names=["best_game", "countback"]) == ["best_game", "countback"]


def test_a_category_is_ranked_afresh_from_one_in_the_overall_order():
    rows = [
        row(1, wins=5, category="U14"),
        row(2, wins=4, category="Senior"),
        row(3, wins=3, category="U14"),
        row(4, wins=3, category="U14"),
        row(5, wins=1),
    ]
    everyone = standings_rank(rows=rows, primary=BY_WINS, tie_breaks=[])
    u14 = category_rows(everyone, category="U14")
    assert [(r.player_id, r.rank) for r in u14] == [(1, 1), (3, 2), (4, 2)]
    # the shared rows keep their overall ranks
    assert [r.rank for r in everyone] == [1, 2, 3, 3, 5]
    assert category_rows(everyone, category="Nobody") == []
    assert categories_of(everyone) == ["Senior", "U14"]


games = st.lists(st.integers(-60, 60).map(Decimal), max_size=5).map(
    lambda v: tuple(sorted(v, reverse=True))
)


@given(a=games, b=games)
def test_countback_agrees_with_best_game_when_the_best_games_differ(a, b):
    ra, rb = row(1), row(2)
    ra.game_scores, rb.game_scores = a, b
    best, countback = TIE_BREAKS["best_game"], TIE_BREAKS["countback"]
    if best(ra) != best(rb):
        assert (best(ra) > best(rb)) == (countback(ra) > countback(rb))
    # countback ties only on equal lists; then best game ties too
    if countback(ra) == countback(rb):
        assert a == b and best(ra) == best(rb)


@given(rows=st.lists(st.tuples(st.integers(0, 3), games, st.sampled_from(["", "A", "B"]))))
def test_ranking_by_wins_is_a_permutation_and_categories_partition_it(rows):
    made = [row(i, wins=w, category=c) for i, (w, _g, c) in enumerate(rows, start=1)]
    for r, (_w, g, _c) in zip(made, rows, strict=True):
        r.game_scores = g
    out = standings_rank(rows=list(made), primary=BY_WINS, tie_breaks=["countback"])
    assert sorted(r.player_id for r in out) == [r.player_id for r in made]
    assert [r.wins for r in out] == sorted((r.wins for r in out), reverse=True)
    parts = [category_rows(out, category=c) for c in ["", "A", "B"]]
    assert sorted(r.player_id for p in parts for r in p) == [r.player_id for r in made]
    for part in parts:
        if part:
            assert part[0].rank == 1
        assert [r.rank for r in part] == sorted(r.rank for r in part)
