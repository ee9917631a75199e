"""The round clock as plain data: how much of a round's time is left.

Vocabulary: a round's *limit* is the tournament's ``round_minutes`` in
seconds (0: the tournament sets no limit, so there is no clock). The clock
keeps the seconds it has *run* while stopped (``Round.clock_elapsed``) and,
while it *runs*, the moment it last *started* (``Round.clock_started``). It is
*idle* before it first starts (or after a *reset*), *running*, *paused*
(stopped with time run), or *up* (no time left; it stays up until a reset).
*Remaining* is the limit less the time run, never below zero.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

IDLE = "idle"
RUNNING = "running"
PAUSED = "paused"
UP = "up"


@dataclass(frozen=True)
class ClockState:
    """A round clock as a page shows it, at one moment."""

    limit: int
    run: int
    running: bool

    @property
    def remaining(self) -> int:
        return max(self.limit - self.run, 0)

    @property
    def state(self) -> str:
        if self.limit and self.remaining == 0:
            return UP
        if self.running:
            return RUNNING
        return PAUSED if self.run else IDLE

    @property
    def shown(self) -> bool:
        """Whether a screen shows it: once started, until reset."""
        return self.limit > 0 and self.state != IDLE

    @property
    def text(self) -> str:
        """The time left as ``mm:ss`` (minutes past 59 kept: ``90:00``)."""
        minutes, seconds = divmod(self.remaining, 60)
        return f"{minutes:02d}:{seconds:02d}"


def clock_run(*, elapsed: int, started: dt.datetime | None, now: dt.datetime) -> int:
    """Seconds the clock has run: what it kept plus the current run, whole seconds."""
    if started is None:
        return elapsed
    return elapsed + max(int((now - started).total_seconds()), 0)


def clock_state(
    *, minutes: int, elapsed: int, started: dt.datetime | None, now: dt.datetime
) -> ClockState:
    """The clock of a round whose tournament gives it ``minutes``."""
    limit = minutes * 60
    run = clock_run(elapsed=elapsed, started=started, now=now)
    # Past the limit it is simply up, whether or not anyone pressed pause.
    return ClockState(
        limit=limit, run=min(run, limit) if limit else run, running=started is not None
    )
