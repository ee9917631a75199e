"""The pure ranking, without a database: tables of rows in, ranked rows out."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import UserError
from scoring.tie_breaks import TIE_BREAK_NAMES, tie_breaks_check
from tournaments.standings.ranking import (
    HEAD_TO_HEAD,
    RANK_BY_AVERAGE,
    RANK_BY_SCORE,
    RANK_BY_TABLE_POINTS,
    RANK_BY_WINS,
    TIE_BREAKS,
    Meetings,
    StandingRow,
    head_to_head,
    opponents_average_fill,
    primary_key,
    ranks_shift,
    seed_key,
    standings_rank,
)

BY_SCORE = primary_key(ranking=RANK_BY_SCORE, min_games=0)


def row(pid: int, name: str = "", **values: Any) -> StandingRow:
    return StandingRow(player_id=pid, name=name or f"P{pid}", club="", **values)


def ranked(
    rows: list[StandingRow],
    tie_breaks: list[Any] | None = None,
    primary: Callable[[StandingRow], Any] = BY_SCORE,
    meetings: Meetings | None = None,
) -> list[tuple[int, int]]:
    out = standings_rank(rows=rows, primary=primary, tie_breaks=tie_breaks or [], meetings=meetings)
    return [(r.player_id, r.rank) for r in out]


# ---------------------------------------------------------------- table-driven


def test_fully_tied_rows_share_a_rank_and_the_next_rank_skips():
    rows = [
        row(1, game_score=Decimal(5)),
        row(2, game_score=Decimal(9)),
        row(3, game_score=Decimal(5)),
    ]
    rows.append(row(4, game_score=Decimal(-1)))
    assert ranked(rows) == [(2, 1), (1, 2), (3, 2), (4, 4)]


def test_fully_tied_rows_are_listed_by_name_ignoring_case_then_id():
    rows = [row(3, "bea"), row(1, "Cy"), row(2, "Bea"), row(4, "al")]
    assert ranked(rows) == [(4, 1), (2, 1), (3, 1), (1, 1)]


def test_score_counts_adjustments():
    rows = [row(1, game_score=Decimal(10)), row(2, game_score=Decimal(12), adjustments=-3)]
    assert ranked(rows) == [(1, 1), (2, 2)]


@pytest.mark.parametrize(
    ("tie_break", "better", "worse"),
    [
        ("score", {"game_score": Decimal(2)}, {"game_score": Decimal(1)}),
        ("wins", {"wins": 2}, {"wins": 1}),
        ("table_points", {"table_points": Decimal(4)}, {"table_points": Decimal(2)}),
        ("rack_total", {"rack_total": 10}, {"rack_total": 30}),  # fewer is better
        ("games", {"games": 3}, {"games": 2}),
        ("average", {"game_score": Decimal(9), "games": 3}, {"game_score": Decimal(9), "games": 9}),
        (
            "opponents_average",
            {"tie_values": {"opponents_average": Decimal("1.5")}},
            {"tie_values": {"opponents_average": Decimal("-2")}},
        ),
    ],
)
def test_each_tie_break_orders_as_documented(tie_break, better, worse):
    # The worse row comes first by name, and ties on the ranking key (a constant).
    rows = [row(1, "A", **worse), row(2, "B", **better)]
    assert ranked(rows, [tie_break], primary=lambda r: 0) == [(2, 1), (1, 2)]


def test_tie_breaks_apply_in_order_and_only_to_rows_still_tied():
    rows = [
        row(1, game_score=Decimal(5), wins=1, rack_total=5),
        row(2, game_score=Decimal(5), wins=2, rack_total=50),
        row(3, game_score=Decimal(5), wins=1, rack_total=50),
        row(4, game_score=Decimal(6), wins=0, rack_total=99),
    ]
    assert ranked(rows, ["wins", "rack_total"]) == [(4, 1), (2, 2), (1, 3), (3, 4)]
    assert ranked(rows, ["rack_total", "wins"]) == [(4, 1), (1, 2), (2, 3), (3, 4)]


def test_table_points_ranking():
    rows = [row(1, table_points=Decimal(2), game_score=Decimal(9)), row(2, table_points=Decimal(4))]
    primary = primary_key(ranking=RANK_BY_TABLE_POINTS, min_games=0)
    assert ranked(rows, primary=primary) == [(2, 1), (1, 2)]


def test_players_short_of_the_minimum_games_rank_after_everyone_who_reached_it():
    rows = [
        row(1, game_score=Decimal(30), games=1),  # average 30, one game short
        row(2, game_score=Decimal(-4), games=2),  # average -2
        row(3, game_score=Decimal(2), games=2),  # average 1
        row(4, game_score=Decimal(5), games=0),
    ]
    primary = primary_key(ranking=RANK_BY_AVERAGE, min_games=2)
    assert ranked(rows, primary=primary) == [(3, 1), (2, 2), (1, 3), (4, 4)]
    # With no minimum the best average leads.
    primary = primary_key(ranking=RANK_BY_AVERAGE, min_games=0)
    assert ranked(rows, primary=primary) == [(1, 1), (3, 2), (4, 3), (2, 4)]


def test_average_is_per_game_to_the_cent_and_zero_without_games():
    assert row(1, game_score=Decimal(10), adjustments=Decimal(-3), games=3).average == Decimal(
        "2.33"
    )
    assert row(1, game_score=Decimal(10)).average == 0


def meetings(*tables: tuple[int, list[tuple[int, Any]]]) -> Meetings:
    m = Meetings()
    for match_id, seats in tables:
        m.by_match[match_id] = seats
        for pid, _value in seats:
            m.by_player.setdefault(pid, []).append(match_id)
    return m


def test_head_to_head_counts_only_the_tied_players_shared_tables():
    # 1 beat 2 at table 10; 3 beat 1 at table 11; 2 beat 3 twice (tables 12, 13).
    m = meetings(
        (10, [(1, 20), (2, 5), (9, 90)]),
        (11, [(1, -3), (3, 4)]),
        (12, [(2, 1), (3, 0)]),
        (13, [(2, 7), (3, 6.999)]),  # within half a cent: a draw
    )
    tied = [row(1), row(2), row(3)]
    assert head_to_head(tied, m) == {1: 0, 2: 0, 3: 0}
    assert head_to_head(tied[:2], m) == {1: 1, 2: -1}
    assert head_to_head(tied[1:], m) == {2: 1, 3: -1}
    assert head_to_head(tied, None) == {1: 0, 2: 0, 3: 0}


def test_head_to_head_reorders_a_tied_group_and_leaves_strangers_tied():
    rows = [row(1, "A"), row(2, "B"), row(3, "C"), row(4, "D")]
    m = meetings((10, [(1, 0), (2, 8)]), (11, [(3, 1), (4, 1)]))
    assert ranked(rows, [HEAD_TO_HEAD], meetings=m) == [(2, 1), (3, 2), (4, 2), (1, 4)]
    assert {r.player_id: r.tie_values[HEAD_TO_HEAD] for r in rows} == {1: -1, 2: 1, 3: 0, 4: 0}


def test_opponents_average_is_the_mean_of_the_opponents_averages():
    rows = {
        1: row(1, game_score=Decimal(6), games=2),  # average 3
        2: row(2, game_score=Decimal(-2), games=2),  # average -1
        3: row(3, game_score=Decimal(10), games=1),  # average 10
        4: row(4),  # no games: no average, no opponents
    }
    opponents_average_fill(
        rows=rows, meetings=meetings((10, [(1, 0), (2, 0)]), (11, [(1, 0), (3, 0)]))
    )
    values = {pid: r.tie_values["opponents_average"] for pid, r in rows.items()}
    assert values == {1: Decimal("4.50"), 2: Decimal(3), 3: Decimal(3), 4: Decimal(0)}


def test_seeds_settle_what_is_still_tied_and_the_unseeded_come_last():
    rows = [row(1), row(2), row(3), row(4)]
    assert ranked(rows, [seed_key({3: 0, 1: 1, 4: 2})]) == [(3, 1), (1, 2), (4, 3), (2, 4)]


def test_ranks_shift_keeps_shared_ranks_shared():
    rows = [row(1, rank=1), row(2, rank=1), row(3, rank=3), row(4, rank=4), row(5, rank=4)]
    ranks_shift(rows, offset=4)
    assert [r.rank for r in rows] == [5, 5, 7, 8, 8]


def test_every_named_tie_break_has_a_key_or_is_head_to_head():
    assert set(TIE_BREAK_NAMES) == {*TIE_BREAKS, HEAD_TO_HEAD}


def test_tie_breaks_check():
    assert tie_breaks_check(names=["wins", "head_to_head"]) == ["wins", "head_to_head"]
    with pytest.raises(UserError, match="Unknown tie-break luck"):
        tie_breaks_check(names=["wins", "luck"])
    with pytest.raises(UserError, match="listed twice"):
        tie_breaks_check(names=["wins", "wins"])


# ---------------------------------------------------------------- properties

KEYED = [name for name in TIE_BREAK_NAMES if name != HEAD_TO_HEAD]


@st.composite
def tables(draw: st.DrawFn) -> list[StandingRow]:
    """Rows with few distinct values, so that ties are common."""
    ids = draw(st.lists(st.integers(1, 500), unique=True, max_size=14))
    small = st.integers(-3, 3)
    return [
        row(
            pid,
            draw(st.sampled_from(["ann", "Ann", "bo", "Cy"])),
            game_score=Decimal(draw(small)),
            adjustments=Decimal(draw(st.sampled_from([0, 0, -1, "0.5"]))),
            games=draw(st.integers(0, 3)),
            wins=draw(st.integers(0, 2)),
            rack_total=draw(st.integers(0, 3)),
            table_points=Decimal(draw(st.integers(0, 4))),
            tie_values={"opponents_average": Decimal(draw(small))},
            game_scores=tuple(
                sorted((Decimal(v) for v in draw(st.lists(small, max_size=3))), reverse=True)
            ),
        )
        for pid in ids
    ]


rankings = st.sampled_from([RANK_BY_SCORE, RANK_BY_TABLE_POINTS, RANK_BY_AVERAGE, RANK_BY_WINS])
tie_break_lists = st.lists(st.sampled_from(KEYED), unique=True, max_size=4)


def full_key(
    r: StandingRow, primary: Callable[[StandingRow], Any], tie_breaks: list[str]
) -> tuple[Any, ...]:
    return (primary(r), *(TIE_BREAKS[t](r) for t in tie_breaks))


@given(rows=tables(), ranking=rankings, min_games=st.integers(0, 3), tie_breaks=tie_break_lists)
def test_ranks_follow_the_keys(rows, ranking, min_games, tie_breaks):
    primary = primary_key(ranking=ranking, min_games=min_games)
    out = standings_rank(rows=list(rows), primary=primary, tie_breaks=tie_breaks)
    assert sorted(r.player_id for r in out) == sorted(r.player_id for r in rows)
    keys = [full_key(r, primary, tie_breaks) for r in out]
    for i, (a, b) in enumerate(itertools.pairwise(out)):
        # ranks never go down the table; better keys come first
        assert a.rank <= b.rank
        assert keys[i] >= keys[i + 1]
        # fully tied rows share a rank and are listed by name; others do not share
        if keys[i] == keys[i + 1]:
            assert a.rank == b.rank
            assert (a.name.casefold(), a.player_id) < (b.name.casefold(), b.player_id)
        else:
            assert a.rank < b.rank
    # a rank is one more than the number of rows above it: the next rank skips
    for i, r in enumerate(out):
        assert r.rank == 1 + sum(1 for k in keys if k > keys[i])


@given(
    rows=tables(),
    ranking=rankings,
    tie_breaks=tie_break_lists,
    data=st.data(),
)
def test_the_order_does_not_depend_on_the_input_order(rows, ranking, tie_breaks, data):
    primary = primary_key(ranking=ranking, min_games=2)
    shuffled = data.draw(st.permutations(rows))
    first = standings_rank(rows=list(rows), primary=primary, tie_breaks=tie_breaks)
    order = [(r.player_id, r.rank) for r in first]
    second = standings_rank(rows=list(shuffled), primary=primary, tie_breaks=tie_breaks)
    assert [(r.player_id, r.rank) for r in second] == order


@given(rows=tables(), offset=st.integers(0, 20))
def test_ranks_shift_moves_every_rank_by_the_offset(rows, offset):
    out = standings_rank(rows=list(rows), primary=BY_SCORE, tie_breaks=["wins"])
    before = [r.rank for r in out]
    ranks_shift(out, offset=offset)
    assert [r.rank for r in out] == [rank + offset for rank in before]
