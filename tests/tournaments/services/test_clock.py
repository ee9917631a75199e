"""The round clock: start, pause, resume, reset, and every refusal (nothing stored)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from scoring.errors import ConflictError, UserError
from tests.factories import round_play, tournament_entered
from tournaments.caching import tournament_version
from tournaments.models import AuditEvent, Round, Tournament
from tournaments.round_clock import IDLE, PAUSED, RUNNING, UP, clock_state
from tournaments.selectors.hall import round_clock_of
from tournaments.services import clock, rounds
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 2, 14, 0, tzinfo=dt.UTC)


def _round(minutes: int = 30) -> Round:
    tournament = tournament_entered(players=8, round_minutes=minutes)
    return rounds.round_seat_next(tournament=tournament)


def _fresh(round_: Round) -> Round:
    return Round.objects.select_related("tournament").get(pk=round_.pk)


def _events(round_: Round) -> int:
    return AuditEvent.objects.filter(tournament=round_.tournament).count()


def _state(round_: Round, now: dt.datetime) -> tuple[str, int]:
    fresh = _fresh(round_)
    state = round_clock_of(tournament=fresh.tournament, round_=fresh, now=now)
    assert state is not None
    return state.state, state.remaining


@pytest.mark.parametrize(
    ("minutes", "elapsed", "started_ago", "state", "remaining", "text"),
    [
        (30, 0, None, IDLE, 1800, "30:00"),
        (30, 0, 0, RUNNING, 1800, "30:00"),
        (30, 60, 59.9, RUNNING, 1681, "28:01"),
        (30, 600, None, PAUSED, 1200, "20:00"),
        (30, 1700, 200, UP, 0, "00:00"),
        (30, 1800, None, UP, 0, "00:00"),
        (90, 0, None, IDLE, 5400, "90:00"),
    ],
)
def test_clock_state(minutes, elapsed, started_ago, state, remaining, text):
    started = None if started_ago is None else T0 - dt.timedelta(seconds=started_ago)
    clock_ = clock_state(minutes=minutes, elapsed=elapsed, started=started, now=T0)
    assert (clock_.state, clock_.remaining, clock_.text) == (state, remaining, text)
    assert clock_.shown == (state != IDLE)


def test_no_limit_shows_no_clock():
    assert not clock_state(minutes=0, elapsed=0, started=T0, now=T0).shown


def test_start_pause_resume_reset_keep_the_time_run_and_audit_each_change():
    round_ = _round(minutes=30)
    before = _events(round_)
    clock.round_clock_start(round_=round_, now=T0)
    assert _state(round_, T0 + dt.timedelta(minutes=5)) == (RUNNING, 25 * 60)
    clock.round_clock_pause(round_=round_, now=T0 + dt.timedelta(minutes=5))
    assert _state(round_, T0 + dt.timedelta(hours=1)) == (PAUSED, 25 * 60)
    clock.round_clock_start(round_=round_, now=T0 + dt.timedelta(hours=1))
    assert _state(round_, T0 + dt.timedelta(hours=1, minutes=10)) == (RUNNING, 15 * 60)
    assert _state(round_, T0 + dt.timedelta(hours=2)) == (UP, 0)
    clock.round_clock_reset(round_=round_)
    assert _state(round_, T0) == (IDLE, 30 * 60)
    events = list(AuditEvent.objects.filter(tournament=round_.tournament).order_by("id")[before:])
    assert [e.action for e in events] == [AuditEvent.Action.SETTINGS_CHANGED] * 4
    assert {e.round_number for e in events} == {round_.number}
    started: Any = events[0].new
    assert events[1].old == {"clock_elapsed": 0, "clock_started": started["clock_started"]}
    assert events[1].new == {"clock_elapsed": 300, "clock_started": None}
    assert events[3].new == {"clock_elapsed": 0, "clock_started": None}


def test_a_pause_after_the_time_is_up_keeps_only_the_limit():
    round_ = _round(minutes=1)
    clock.round_clock_start(round_=round_, now=T0)
    clock.round_clock_pause(round_=round_, now=T0 + dt.timedelta(minutes=5))
    assert _fresh(round_).clock_elapsed == 60
    with pytest.raises(ConflictError, match="time is up"):
        clock.round_clock_start(round_=round_, now=T0 + dt.timedelta(minutes=6))


def _running(round_: Round) -> None:
    clock.round_clock_start(round_=round_)


def _finished(round_: Round) -> None:
    round_play(round_)
    tournament_services.tournament_finish(tournament=round_.tournament)


def _next_round(round_: Round) -> None:
    round_play(round_)
    rounds.round_seat_next(tournament=round_.tournament)


@pytest.mark.parametrize(
    ("minutes", "prepare", "call", "error", "field", "message"),
    [
        (0, None, "start", UserError, "round_minutes", "no round time limit"),
        (30, _running, "start", ConflictError, "clock", "running already"),
        (30, None, "pause", ConflictError, "clock", "not running"),
        (30, None, "reset", ConflictError, "clock", "has not started"),
        (30, _next_round, "start", UserError, "round", "current round"),
        (30, _finished, "start", ConflictError, "__all__", "finished"),
        (30, _finished, "reset", ConflictError, "__all__", "finished"),
    ],
)
def test_refusals_store_nothing(minutes, prepare, call, error, field, message):
    round_ = _round(minutes=minutes)
    if prepare is not None:
        prepare(round_)
    round_ = _fresh(round_)
    stored = (round_.clock_elapsed, round_.clock_started, _events(round_))
    service: Callable[..., Round] = {
        "start": clock.round_clock_start,
        "pause": clock.round_clock_pause,
        "reset": clock.round_clock_reset,
    }[call]
    with pytest.raises(error, match=message) as refused:
        service(round_=round_)
    if field != "__all__":
        assert refused.value.field == field
    fresh = _fresh(round_)
    assert (fresh.clock_elapsed, fresh.clock_started, _events(fresh)) == stored


def test_a_started_clock_moves_the_tournament_version():
    round_ = _round()
    tournament: Tournament = round_.tournament
    before = tournament_version(tournament=tournament)
    clock.round_clock_start(round_=round_, now=timezone.now())
    assert tournament_version(tournament=tournament) > before


def test_a_clock_paused_at_once_reads_as_paused():
    round_ = _round()
    clock.round_clock_start(round_=round_, now=T0)
    clock.round_clock_pause(round_=round_, now=T0)
    assert _state(round_, T0) == (PAUSED, 30 * 60 - 1)
