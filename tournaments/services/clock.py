"""The round clock: starting, pausing and resetting the time of a round.

Vocabulary (the clock's own is in ``tournaments.round_clock``): *starting*
runs the clock of the tournament's current round (its last) from where it
stands, so starting a paused clock resumes it; *pausing* keeps the seconds
run so far; *resetting* gives the round its whole time back, stopped. The
clock needs the tournament's round time limit (``round_minutes`` above 0).
Each change is recorded in the audit trail as a change of the round's
settings (``settings.changed``, naming the round), with the clock's seconds
run and the moment it started, before and after; that event also moves the
tournament's version, which is how the hall's screen learns of it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.errors import ConflictError, UserError, _
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Round
from tournaments.round_clock import RUNNING, UP, clock_state
from tournaments.services.audit import audit_add
from tournaments.services.tournament_open import tournament_open_check


def _locked(round_: Round) -> Round:
    return (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    )


def _values(round_: Round) -> dict[str, Any]:
    return {"clock_elapsed": round_.clock_elapsed, "clock_started": round_.clock_started}


def _store(*, round_: Round, elapsed: int, started: dt.datetime | None, user: ActingUser) -> Round:
    old = _values(round_)
    round_.clock_elapsed = elapsed
    round_.clock_started = started
    round_.save(update_fields=["clock_elapsed", "clock_started"])
    audit_add(
        tournament=round_.tournament,
        action=AuditEvent.Action.SETTINGS_CHANGED,
        user=user,
        round_number=round_.number,
        object_id=round_.pk,
        old=old,
        new=_values(round_),
    )
    return round_


def _state(round_: Round, now: dt.datetime) -> str:
    return clock_state(
        minutes=round_.tournament.round_minutes,
        elapsed=round_.clock_elapsed,
        started=round_.clock_started,
        now=now,
    ).state


@transaction.atomic
def round_clock_start(
    *, round_: Round, user: ActingUser = None, now: dt.datetime | None = None
) -> Round:
    """Run the current round's clock (from the start, or on from a pause)."""
    tournament_open_check(round_.tournament)
    round_ = _locked(round_)
    now = now or timezone.now()
    if round_.tournament.round_minutes == 0:
        raise UserError(
            _("This tournament has no round time limit: set one in its settings first."),
            field="round_minutes",
        )
    last = (
        Round.objects.filter(tournament_id=round_.tournament_id)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    if round_.number != last:
        raise UserError(_("Only the current round's clock can be started."), field="round")
    state = _state(round_, now)
    if state == RUNNING:
        raise ConflictError(_("The round clock is running already."), field="clock")
    if state == UP:
        raise ConflictError(
            _("The round's time is up: reset the clock to run it again."), field="clock"
        )
    return _store(round_=round_, elapsed=round_.clock_elapsed, started=now, user=user)


@transaction.atomic
def round_clock_pause(
    *, round_: Round, user: ActingUser = None, now: dt.datetime | None = None
) -> Round:
    """Stop the round's clock, keeping the time it has run."""
    tournament_open_check(round_.tournament)
    round_ = _locked(round_)
    now = now or timezone.now()
    if round_.clock_started is None:
        raise ConflictError(_("The round clock is not running."), field="clock")
    clock = clock_state(
        minutes=round_.tournament.round_minutes,
        elapsed=round_.clock_elapsed,
        started=round_.clock_started,
        now=now,
    )
    # At least a second: a clock paused at once still reads as paused, not as never started.
    return _store(round_=round_, elapsed=max(clock.run, 1), started=None, user=user)


@transaction.atomic
def round_clock_reset(*, round_: Round, user: ActingUser = None) -> Round:
    """Give the round its whole time back, the clock stopped."""
    tournament_open_check(round_.tournament)
    round_ = _locked(round_)
    if round_.clock_started is None and round_.clock_elapsed == 0:
        raise ConflictError(_("The round clock has not started."), field="clock")
    return _store(round_=round_, elapsed=0, started=None, user=user)
