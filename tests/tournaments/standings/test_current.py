"""The current ranking as plain data: which order a tournament shows at each
moment, and when a final played to N wins is decided (no database)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.current import (
    FINAL,
    QUALIFYING,
    SEMIFINAL,
    STAGES,
    FinalTable,
    StagePlayed,
    final_played_out,
    final_winner,
    placings,
    ranking_current_of,
)
from tournaments.standings.ranking import StandingRow, category_rows, ranks_shift


def rows(*ids: int, ranks: tuple[int, ...] | None = None) -> list[StandingRow]:
    """Rows for players ``ids`` in that order, ranked 1, 2, 3 … (or ``ranks``)."""
    made = [
        StandingRow(player_id=pid, name=f"P{pid}", club="", game_score=Decimal(-i))
        for i, pid in enumerate(ids)
    ]
    for row, rank in zip(made, ranks or range(1, len(ids) + 1), strict=True):
        row.rank = rank
    return made


QUALIFYING_ORDER = rows(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
# Semi-finals of 1..8 ranked by the stage: 5 and 2 won their tables.
SEMIS = StagePlayed(stage=SEMIFINAL, rows=rows(5, 2, 1, 6, 3, 7, 4, 8))
# The final of 5, 2, 1, 6: 6 won it.
FINAL_TABLE = StagePlayed(stage=FINAL, rows=rows(6, 5, 1, 2))


@pytest.mark.parametrize(
    ("stages", "final_over", "finished", "asked", "stage", "decided", "label", "order"),
    [
        # Before any stage is seated: the qualifying standings.
        ([], False, False, None, QUALIFYING, False, "Qualifying", list(range(1, 11))),
        # A finished club night without stages: its standings are its final placings.
        ([], False, True, None, QUALIFYING, True, "Final placings", list(range(1, 11))),
        # Semi-finals seated: the semi-finalists by the semi-finals, then the rest.
        (
            [SEMIS],
            False,
            False,
            None,
            SEMIFINAL,
            False,
            "Semi-finals",
            [5, 2, 1, 6, 3, 7, 4, 8, 9, 10],
        ),
        # The final in play: finalists, then the other semi-finalists, then the rest.
        (
            [SEMIS, FINAL_TABLE],
            False,
            False,
            None,
            FINAL,
            False,
            "Final",
            [6, 5, 1, 2, 3, 7, 4, 8, 9, 10],
        ),
        # The final played out: the same order, now the final placings.
        (
            [SEMIS, FINAL_TABLE],
            True,
            False,
            None,
            FINAL,
            True,
            "Final placings",
            [6, 5, 1, 2, 3, 7, 4, 8, 9, 10],
        ),
        # Finished after the semi-finals: they decide.
        (
            [SEMIS],
            False,
            True,
            None,
            SEMIFINAL,
            True,
            "Final placings",
            [5, 2, 1, 6, 3, 7, 4, 8, 9, 10],
        ),
        # A final without semi-finals (the qualifying top four).
        (
            [StagePlayed(stage=FINAL, rows=rows(3, 1, 4, 2))],
            True,
            False,
            None,
            FINAL,
            True,
            "Final placings",
            [3, 1, 4, 2, 5, 6, 7, 8, 9, 10],
        ),
        # Asked for the qualifying table: always the qualifying standings.
        (
            [SEMIS, FINAL_TABLE],
            True,
            True,
            QUALIFYING,
            QUALIFYING,
            False,
            "Qualifying",
            list(range(1, 11)),
        ),
        # A stage seated with nobody at it changes nothing.
        (
            [StagePlayed(stage=SEMIFINAL, rows=[])],
            False,
            False,
            None,
            QUALIFYING,
            False,
            "Qualifying",
            list(range(1, 11)),
        ),
    ],
)
def test_the_current_ranking_at_each_moment(
    stages, final_over, finished, asked, stage, decided, label, order
) -> None:
    ranking = ranking_current_of(
        qualifying=QUALIFYING_ORDER,
        stages=stages,
        final_over=final_over,
        finished=finished,
        asked=asked,
    )
    assert (ranking.stage, ranking.decided, ranking.label) == (stage, decided, label)
    assert [r.player_id for r in ranking.rows] == order
    assert [r.rank for r in ranking.rows] == list(range(1, 11))
    assert ranking.staged == any(s.rows for s in stages)


def test_each_row_says_which_stage_placed_it_and_the_callers_rows_keep_their_ranks() -> None:
    ranking = ranking_current_of(
        qualifying=QUALIFYING_ORDER, stages=[SEMIS, FINAL_TABLE], final_over=True, finished=False
    )
    assert [r.stage for r in ranking.rows] == [FINAL] * 4 + [SEMIFINAL] * 4 + [QUALIFYING] * 2
    # Copies: the semi-final's own rows still rank as the semi-final did.
    assert [r.rank for r in SEMIS.rows] == list(range(1, 9))


def test_qualifying_ties_stay_shared_after_the_placed_players() -> None:
    qualifying = rows(1, 2, 3, 4, 5, 6, ranks=(1, 2, 3, 3, 5, 5))
    semis = StagePlayed(stage=SEMIFINAL, rows=rows(2, 1))
    places = placings(qualifying=qualifying, stages=[semis])
    assert [(r.player_id, r.rank) for r in places] == [
        (2, 1),
        (1, 2),
        (3, 3),
        (4, 3),
        (5, 5),
        (6, 5),
    ]


def test_a_category_of_the_placings_is_ranked_afresh_in_the_same_order() -> None:
    ranking = ranking_current_of(
        qualifying=QUALIFYING_ORDER, stages=[SEMIS, FINAL_TABLE], final_over=True, finished=False
    )
    for row in ranking.rows:
        row.category = "U14" if row.player_id % 2 else ""
    young = category_rows(ranking.rows, category="U14")
    assert [r.player_id for r in young] == [5, 1, 3, 7, 9]
    assert [r.rank for r in young] == [1, 2, 3, 4, 5]


# ----------------------------------------------------------------------------- final decided


@pytest.mark.parametrize(
    ("wins", "first_to", "winner"),
    [
        ({1: 3, 2: 1}, 0, None),  # not played to a number of wins
        ({1: 3, 2: 1}, 4, None),
        ({1: 4, 2: 1}, 4, (1, 4)),
        ({1: 2, 2: 5}, 4, (2, 5)),
        ({7: 4, 3: 4}, 4, (3, 4)),  # cannot happen at a table; the lower id, as ever
        ({}, 1, None),
    ],
)
def test_a_final_is_decided_once_a_player_has_the_wins(wins, first_to, winner) -> None:
    assert final_winner(wins=wins, first_to=first_to) == winner


@pytest.mark.parametrize(
    ("tables", "first_to", "over"),
    [
        ([], 0, False),
        ([FinalTable(games=3, planned=4)], 0, False),
        ([FinalTable(games=4, planned=4)], 0, True),
        ([FinalTable(games=5, planned=30, wins={1: 3, 2: 2})], 4, False),
        ([FinalTable(games=6, planned=30, wins={1: 4, 2: 2})], 4, True),
        ([FinalTable(games=4, planned=4), FinalTable(games=1, planned=4)], 0, False),
    ],
)
def test_a_final_is_played_out_when_every_table_is(tables, first_to, over) -> None:
    assert final_played_out(tables=tables, first_to=first_to) is over


# ----------------------------------------------------------------------------- properties


@st.composite
def staged_fields(draw: st.DrawFn) -> tuple[list[StandingRow], list[StagePlayed]]:
    """A qualifying order, semi-finalists drawn from it and finalists from those."""
    count = draw(st.integers(min_value=0, max_value=16))
    ids = draw(st.permutations(list(range(1, count + 1))))
    ranks = sorted(draw(st.lists(st.integers(1, 3), min_size=count, max_size=count)))
    qualifying = rows(*ids, ranks=tuple(ranks))
    ranks_shift(qualifying, offset=0)
    semis = draw(st.lists(st.sampled_from(ids), unique=True, max_size=8)) if ids else []
    finals = draw(st.lists(st.sampled_from(semis), unique=True, max_size=4)) if semis else []
    stages = [StagePlayed(stage=SEMIFINAL, rows=rows(*semis))]
    if finals:
        stages.append(StagePlayed(stage=FINAL, rows=rows(*finals)))
    return qualifying, stages


@given(staged_fields(), st.booleans(), st.booleans())
def test_the_placings_list_everyone_once_the_latest_stage_first(
    field, final_over, finished
) -> None:
    qualifying, stages = field
    ranking = ranking_current_of(
        qualifying=qualifying, stages=stages, final_over=final_over, finished=finished
    )
    placed = [r.player_id for r in ranking.rows]
    assert sorted(placed) == sorted(r.player_id for r in qualifying)
    latest = [s for s in stages if s.rows][-1:] or []
    if latest:
        assert placed[: len(latest[0].rows)] == [r.player_id for r in latest[0].rows]
        assert ranking.stage == latest[0].stage
    else:
        assert placed == [r.player_id for r in qualifying]
    # Places go up one by one, repeating only where the qualifying standings tie.
    ranks = [r.rank for r in ranking.rows]
    assert ranks == sorted(ranks)
    assert all(rank == i + 1 or rank == ranks[i - 1] for i, rank in enumerate(ranks))


@given(staged_fields())
def test_the_qualifying_table_ignores_every_stage(field) -> None:
    qualifying, stages = field
    ranking = ranking_current_of(
        qualifying=qualifying, stages=stages, final_over=True, finished=True, asked=QUALIFYING
    )
    assert [(r.player_id, r.rank) for r in ranking.rows] == [
        (r.player_id, r.rank) for r in qualifying
    ]
    assert not ranking.decided and ranking.label == "Qualifying"


def test_the_stages_are_the_rounds_stages() -> None:
    from tournaments.models import Round

    assert tuple(Round.Stage.values) == STAGES
