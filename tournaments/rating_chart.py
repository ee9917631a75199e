"""Pure: the geometry of a player's rating chart, drawn by the page as SVG.

Vocabulary: the chart's *points* are the player's rating after each rated
game, oldest first, spaced evenly (one step per game: a club night of twelve
games is as wide as twelve games a month apart); the *plot* is the rectangle
they are drawn in, inside the chart's *view box* (``WIDTH`` × ``HEIGHT``
units, scaled to the page's width); the *rating ticks* are round ratings on
the vertical axis (steps of 10, 20, 25, 50, 100, ...; at most ``TICKS_MAX``
steps between the lowest and the highest), and the *date ticks* name the
day of a few games (the first, the last and some evenly between). A long
history is drawn with at most ``POINTS_MAX`` of its points, evenly picked.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 260
# Room for the labels at the size a narrow screen needs (static/css/player.css).
LEFT, RIGHT, TOP, BOTTOM = 60, 16, 14, 34
TICKS_MAX = 5
DATE_TICKS = 4
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
    if count == 1:
        indices = [0]
    else:
        wanted = min(DATE_TICKS, count)
        indices = sorted({round(i * (count - 1) / (wanted - 1)) for i in range(wanted)})
        # One label per day: a day's later games give way to its first.
        days: set[dt.date] = set()
        kept = []
        for i in indices:
            if history[i][0] not in days:
                days.add(history[i][0])
                kept.append(i)
        indices = kept
    last = count - 1
    date_ticks = tuple(
        DateTick(
            x=x_of(i),
            date=history[i][0],
            anchor="middle"
            if count == 1
            else "start"
            if i == 0
            else "end"
            if i == last
            else "middle",
        )
        for i in indices
    )
    return RatingChart(points=points, rating_ticks=rating_ticks, date_ticks=date_ticks)
