"""The rating chart's geometry as plain data (no database)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.rating_chart import (
    HEIGHT,
    LABEL_GAP,
    LABEL_WIDTH,
    LABEL_WIDTH_NARROW,
    POINTS_MAX,
    WIDTH,
    DateTick,
    RatingChart,
    label_span,
    rating_chart,
)

DAY = dt.date(2026, 3, 1)


def _history(*ratings: int, days: int = 1) -> list[tuple[dt.date, int]]:
    return [(DAY + dt.timedelta(days=i * days), r) for i, r in enumerate(ratings)]


def test_no_games_no_chart() -> None:
    assert rating_chart([]) is None


@pytest.mark.parametrize(
    ("ratings", "ticks"),
    [
        # A flat line of one value gets a step on either side.
        ((1500,), [1490, 1500, 1510]),
        ((1480, 1520), [1480, 1490, 1500, 1510, 1520]),
        ((1420, 1530), [1400, 1450, 1500, 1550]),
        ((1210, 1950), [1200, 1400, 1600, 1800, 2000]),
    ],
)
def test_rating_ticks_are_round_and_cover_the_line(
    ratings: tuple[int, ...], ticks: list[int]
) -> None:
    chart = rating_chart(_history(*ratings))
    assert chart is not None
    assert [t.rating for t in chart.rating_ticks] == ticks


def test_the_line_rises_with_the_rating_and_runs_left_to_right() -> None:
    chart = rating_chart(_history(1500, 1540, 1520))
    assert chart is not None
    a, b, c = chart.points
    assert a.x == chart.left and c.x == chart.right
    assert b.y < c.y < a.y  # higher ratings are drawn higher (smaller y)
    assert chart.polyline == " ".join(f"{p.x:.1f},{p.y:.1f}" for p in chart.points)
    assert (chart.last.rating, chart.lowest, chart.highest) == (1520, 1500, 1540)


def test_a_single_game_is_drawn_in_the_middle() -> None:
    chart = rating_chart(_history(1512))
    assert chart is not None
    assert chart.points[0].x == (chart.left + chart.right) / 2
    assert [(t.date, t.anchor) for t in chart.date_ticks] == [(DAY, "middle")]


def test_date_ticks_name_the_first_and_last_game_and_one_label_a_day() -> None:
    # Twelve games on three club nights a week apart: 0-3, 4-7, 8-11.
    history = [(DAY + dt.timedelta(days=7 * (i // 4)), 1500 + i) for i in range(12)]
    chart = rating_chart(history)
    assert chart is not None
    dates = [t.date for t in chart.date_ticks]
    assert dates[0] == DAY and dates[-1] == DAY + dt.timedelta(days=14)
    assert len(dates) == len(set(dates))
    assert chart.date_ticks[0].anchor == "start" and chart.date_ticks[-1].anchor == "end"


def test_a_long_history_is_drawn_with_at_most_points_max() -> None:
    history = _history(*[1500 + (i % 97) for i in range(5000)], days=0)
    chart = rating_chart(history)
    assert chart is not None
    assert len(chart.points) == POINTS_MAX
    assert chart.points[0].rating == history[0][1]
    assert chart.last.rating == history[-1][1]


@given(st.lists(st.integers(0, 3000), min_size=1, max_size=300))
def test_every_point_is_inside_the_plot_and_the_ticks_cover_it(ratings: list[int]) -> None:
    chart = rating_chart(_history(*ratings))
    assert chart is not None
    assert 0 < chart.left < chart.right < WIDTH and 0 < chart.top < chart.bottom < HEIGHT
    for p in chart.points:
        assert chart.left <= p.x <= chart.right
        assert chart.top - 1e-9 <= p.y <= chart.bottom + 1e-9
    ticks = [t.rating for t in chart.rating_ticks]
    assert ticks[0] <= min(ratings) and ticks[-1] >= max(ratings)
    assert 2 <= len(ticks) <= 6
    xs = [p.x for p in chart.points]
    assert xs == sorted(xs)


def _spans_apart(chart_ticks: Sequence[DateTick], width: float) -> bool:
    spans = [label_span(t, width) for t in chart_ticks]
    assert all(abs(b - a - width) < 1e-9 for a, b in spans)
    return all(a[1] + LABEL_GAP <= b[0] for a, b in pairwise(spans))


def _label_sets(chart: RatingChart) -> list[tuple[tuple[DateTick, ...], float]]:
    return [(chart.date_ticks, LABEL_WIDTH), (chart.date_ticks_narrow, LABEL_WIDTH_NARROW)]


def test_close_days_never_print_their_dates_over_each_other() -> None:
    # Twenty games on three nights, the first two a day apart: six, seven, seven.
    nights = [DAY] * 6 + [DAY + dt.timedelta(days=1)] * 7 + [DAY + dt.timedelta(days=3)] * 7
    chart = rating_chart([(d, 1500 + i) for i, d in enumerate(nights)])
    assert chart is not None
    for ticks, width in _label_sets(chart):
        assert _spans_apart(ticks, width)
        dates = [t.date for t in ticks]
        assert dates[0] == DAY and dates[-1] == nights[-1]
        assert ticks[-1].anchor == "end"
    # A wide screen's smaller labels name the middle night too; a phone's do not fit it.
    assert len(chart.date_ticks) == 3 and len(chart.date_ticks_narrow) == 2


@given(st.lists(st.integers(0, 3), min_size=1, max_size=120))
def test_date_labels_keep_apart_and_name_the_first_and_last_day(gaps: list[int]) -> None:
    days, day = [], DAY
    for gap in gaps:
        day += dt.timedelta(days=gap)
        days.append(day)
    chart = rating_chart([(d, 1500) for d in days])
    assert chart is not None
    for ticks, width in _label_sets(chart):
        assert _spans_apart(ticks, width)
        dates = [t.date for t in ticks]
        assert dates[0] == days[0]
        assert len(dates) == len(set(dates))
        if days[-1] != days[0]:
            assert dates[-1] == days[-1]
        for t in ticks:
            left, right = label_span(t, width)
            assert left >= 0 and right <= WIDTH
