"""Pure: the geometry of a player's rating chart, drawn by the page as SVG.

Vocabulary: the chart's *points* are the player's rating after each rated
game, oldest first, spaced evenly (one step per game: a club night of twelve
games is as wide as twelve games a month apart); the *plot* is the rectangle
they are drawn in, inside the chart's *view box* (``WIDTH`` × ``HEIGHT``
units, scaled to the page's width); the *rating ticks* are round ratings on
the vertical axis (steps of 10, 20, 25, 50, 100, ...; at most ``TICKS_MAX``
steps between the lowest and the highest), and the *date ticks* name the
day of a few games (the first, the last and some evenly between; two sets,
spaced for a wide screen's labels and for a narrow screen's larger ones). A long
history is drawn with at most ``POINTS_MAX`` of its points, evenly picked.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 260
# Room for the labels at the size a narrow screen needs (static/css/player.css).
LEFT, RIGHT, TOP, BOTTOM = 60, 16, 14, 34
TICKS_MAX = 5
DATE_TICKS = 4
# A date label's width in view-box units (ten characters), as wide screens
# and print draw it (static/css/player.css: 13 units a letter's height) and as
# a narrow screen does (21 units: the chart is scaled down there), and the room
# kept between two labels: labels closer than that give way. The chart carries
# a set of labels for each; the page's style shows one.
LABEL_WIDTH = 80
LABEL_WIDTH_NARROW = 124
LABEL_GAP = 12
# More games than this are drawn as this many, evenly picked (the first and last kept).
POINTS_MAX = 400
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    rating: int
    date: dt.date


@dataclass(frozen=True)
class RatingTick:
    y: float
    rating: int


@dataclass(frozen=True)
class DateTick:
    x: float
    date: dt.date
    anchor: str  # SVG text-anchor: start, middle or end


@dataclass(frozen=True)
class RatingChart:
    points: tuple[ChartPoint, ...]
    rating_ticks: tuple[RatingTick, ...]
    date_ticks: tuple[DateTick, ...]
    date_ticks_narrow: tuple[DateTick, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def polyline(self) -> str:
        """The points as an SVG ``points`` attribute."""
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def last(self) -> ChartPoint:
        return self.points[-1]

    @property
    def lowest(self) -> int:
        return min(p.rating for p in self.points)

    @property
    def highest(self) -> int:
        return max(p.rating for p in self.points)


def _step(low: int, high: int) -> int:
    for step in STEPS:
        if math.ceil(high / step) - math.floor(low / step) <= TICKS_MAX:
            return step
    return STEPS[-1] * math.ceil((high - low) / (STEPS[-1] * TICKS_MAX) + 1)


def label_span(tick: DateTick, width: float) -> tuple[float, float]:
    """Where a date label ``width`` wide reaches, left and right, in view-box units."""
    if tick.anchor == "start":
        return tick.x, tick.x + width
    if tick.anchor == "end":
        return tick.x - width, tick.x
    return tick.x - width / 2, tick.x + width / 2


def _date_ticks(
    history: Sequence[tuple[dt.date, int]], x_of: Callable[[int], float], width: float
) -> tuple[DateTick, ...]:
    """The dated games: the first and the last (at the line's ends), and up to
    ``DATE_TICKS`` in all evenly between; a day named once (at its first
    game, the last day at the last game); no two labels closer than
    ``LABEL_GAP`` (one between gives way to the last's)."""
    count = len(history)
    if count == 1:
        return (DateTick(x=x_of(0), date=history[0][0], anchor="middle"),)
    # Each day's first game (the history is in date order); the last day's last.
    firsts = [i for i in range(count) if i == 0 or history[i][0] != history[i - 1][0]]
    if len(firsts) > 1:
        firsts[-1] = count - 1
    wanted = min(DATE_TICKS, len(firsts))
    picked = sorted(
        {firsts[round(k * (len(firsts) - 1) / (wanted - 1))] for k in range(wanted)}
        if wanted > 1
        else {0}
    )
    last = count - 1

    def tick(i: int) -> DateTick:
        x = x_of(i)
        anchor = "start" if i == 0 else "end" if i == last else "middle"
        if anchor == "middle" and x + width / 2 > WIDTH:
            anchor = "end"
        return DateTick(x=x, date=history[i][0], anchor=anchor)

    def apart(left: DateTick, right: DateTick) -> bool:
        return label_span(left, width)[1] + LABEL_GAP <= label_span(right, width)[0]

    kept: list[DateTick] = []
    for i in picked:
        candidate = tick(i)
        if i == picked[-1] and i != 0:
            # The last day's label stays: the labels before it that crowd it go.
            while len(kept) > 1 and not apart(kept[-1], candidate):
                kept.pop()
        if not kept or apart(kept[-1], candidate):
            kept.append(candidate)
    return tuple(kept)


def rating_chart(history: Sequence[tuple[dt.date, int]]) -> RatingChart | None:
    """The chart of ``history`` (each game's date and the rating after it,
    oldest first); ``None`` without games."""
    if not history:
        return None
    ratings = [rating for _date, rating in history]
    low, high = min(ratings), max(ratings)
    step = _step(low, high)
    floor, ceiling = math.floor(low / step) * step, math.ceil(high / step) * step
    if floor == ceiling:
        floor, ceiling = floor - step, ceiling + step
    plot_width, plot_height = WIDTH - RIGHT - LEFT, HEIGHT - BOTTOM - TOP

    def y_of(rating: float) -> float:
        return TOP + plot_height * (ceiling - rating) / (ceiling - floor)

    count = len(history)

    def x_of(index: int) -> float:
        return LEFT + (plot_width * index / (count - 1) if count > 1 else plot_width / 2)

    drawn = (
        range(count)
        if count <= POINTS_MAX
        else sorted({round(i * (count - 1) / (POINTS_MAX - 1)) for i in range(POINTS_MAX)})
    )
    points = tuple(
        ChartPoint(x=x_of(i), y=y_of(history[i][1]), rating=history[i][1], date=history[i][0])
        for i in drawn
    )
    rating_ticks = tuple(
        RatingTick(y=y_of(value), rating=value) for value in range(floor, ceiling + 1, step)
    )
    return RatingChart(
        points=points,
        rating_ticks=rating_ticks,
        date_ticks=_date_ticks(history, x_of, LABEL_WIDTH),
        date_ticks_narrow=_date_ticks(history, x_of, LABEL_WIDTH_NARROW),
    )
