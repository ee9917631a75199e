"""The round clock's calls for the audit walk: a round ready for each, and the call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.models import Round, Tournament
from tournaments.services import clock, rounds


def clock_ready(t: Tournament, *, running: bool = False) -> Round:
    """A seated round of the tournament, given a round time limit (its clock running)."""
    Tournament.objects.filter(pk=t.pk).update(round_minutes=30)
    round_ = rounds.round_seat_next(tournament=Tournament.objects.get(pk=t.pk))
    if running:
        clock.round_clock_start(round_=round_)
    return round_


def clock_running(t: Tournament) -> Round:
    return clock_ready(t, running=True)


def clock_call(action: str) -> Callable[[Tournament, Any, Round], Round]:
    service = getattr(clock, f"round_clock_{action}")
    return lambda t, u, r: service(round_=r, user=u)
