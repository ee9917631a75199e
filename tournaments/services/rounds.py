"""Round services: seating qualifying rounds, re-seating, and tables set by hand.

Vocabulary: the *history* of a tournament is its earlier rounds as tables of
player ids in seat order; a *plan* (``seating.RoundPlan``) is the seating
engine's answer, turned here into a Round with its Matches and Seats. A round
is *complete* when every match has all its games; it is *untouched* while
none of its games is recorded. Only *active* entries are seated.

The rules the services keep:

* A new round (qualifying, semi-final or final) is seated only when the last
  round is complete, whatever the seating method: swiss needs the results,
  and for every method it is the moment to check players in and out. Results
  can still be corrected afterwards.
* Only the last round can be re-seated or seated by hand, and only while it is
  untouched; its matches (and their private tokens) are kept table by table.
* Qualifying rounds stop at ``tournament.rounds`` and once a stage has begun.
  The semi-finals and the final are seated by ``stages.stage_seat``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date as Date
from typing import Any

from django.db import transaction

from scoring.errors import ConflictError, UserError, _
from tournaments import seating
from tournaments.actors import ActingUser
from tournaments.models import Adjustment, AuditEvent, Entry, Game, Round, Seat, Tournament
from tournaments.selectors.ratings import ratings_current
from tournaments.selectors.rounds import seating_history
from tournaments.selectors.standings import standings_for
from tournaments.services.audit import audit_add
from tournaments.services.plans import (
    last_round_complete_check,
    round_fill,
    round_seating,
    round_store,
    tournament_locked,
)
from tournaments.services.stages import stage_seat, stage_tables
from tournaments.services.tournament_open import tournament_open_check
from tournaments.standings.current import QUALIFYING


def _active_ids(tournament: Tournament) -> list[int]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def _untouched_check(round_: Round) -> None:
    played = Game.objects.filter(match__round=round_).count()
    if played:
        raise ConflictError(
            _(
                "Round %(round)s already has %(count)s recorded games; delete them before "
                "changing its tables."
            ),
            round=round_.number,
            count=played,
        )
    later = Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number)
    if later.exists():
        raise ConflictError(
            _(
                "Only the last round can be re-seated or changed; round %(round)s has rounds "
                "after it."
            ),
            round=round_.number,
        )


def _qualifying_plan(tournament: Tournament, number: int) -> seating.RoundPlan:
    active = _active_ids(tournament)
    if len(active) < 2:
        raise ConflictError(
            _("A round needs at least 2 active players; this tournament has %(count)s."),
            count=len(active),
        )
    standings: dict[int, float] = {}
    if tournament.seating == Tournament.Seating.SWISS:
        # Higher is better; the rank (not the raw score) so that the tie-breaks
        # count and fully tied players are drawn.
        standings = {
            row.player_id: float(-row.rank)
            for row in standings_for(tournament=tournament, stage=QUALIFYING)
        }
    byes = list(
        Adjustment.objects.filter(tournament=tournament, kind=Adjustment.Kind.BYE).values_list(
            "player_id", flat=True
        )
    )
    return seating.round_seat(
        players=active,
        method=tournament.seating,
        history=seating_history(tournament=tournament),
        standings=standings,
        max_size=tournament.max_table_size,
        # One seed for the whole event: the seating engine mixes in the round
        # number itself, and ``balanced`` plans the event from the seed alone.
        seed=tournament.seed,
        rounds_total=max(tournament.rounds, number),
        bye_history=byes,
        ratings=_first_round_ratings(tournament, number, active),
    )


def _first_round_ratings(
    tournament: Tournament, number: int, active: list[int]
) -> dict[int, float] | None:
    """The players' shown ratings when the first round is seated by them."""
    if not tournament.seed_by_rating or number != 1:
        return None
    return {pid: float(r.rating) for pid, r in ratings_current(player_ids=active).items()}


@transaction.atomic
def round_seat_next(
    *,
    tournament: Tournament,
    stage: str = Round.Stage.QUALIFYING,
    date: Date | None = None,
    user: ActingUser = None,
) -> Round:
    """Seat the next round: a qualifying round with the tournament's seating
    method, or (``stage``) the semi-finals or the final (see ``stage_seat``)."""
    if stage != QUALIFYING:
        return stage_seat(tournament=tournament, stage=stage, date=date, user=user)
    tournament = tournament_locked(tournament)
    tournament_open_check(tournament)
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.stage != QUALIFYING:
        raise ConflictError(
            _("The %(stage)s has begun: no more qualifying rounds can be seated."),
            stage=last.get_stage_display(),
        )
    played = tournament.round_set.count()
    if played >= tournament.rounds:
        raise ConflictError(
            _(
                "All %(rounds)s planned rounds are seated; raise the number of rounds to "
                "seat another."
            ),
            rounds=tournament.rounds,
        )
    last_round_complete_check(last)
    number = last.number + 1 if last else 1
    plan = _qualifying_plan(tournament, number)
    return round_store(
        tournament=tournament, number=number, plan=plan, stage=QUALIFYING, date=date, user=user
    )


def _seating_audit(*, round_: Round, action: str, user: ActingUser, old: dict[str, Any]) -> None:
    audit_add(
        tournament=round_.tournament,
        action=action,
        user=user,
        object_id=round_.pk,
        round_number=round_.number,
        old={"round": round_.number, **old},
        new={"round": round_.number, **round_seating(round_)},
    )


@transaction.atomic
def round_reseat(*, round: Round, user: ActingUser = None) -> Round:
    """Seat the last round again (after check-ins or withdrawals), while it has no results.

    The seating is deterministic: with the same players it gives the same
    tables; change the tournament's seed for a new draw.
    """
    round_ = Round.objects.select_related("tournament").get(pk=round.pk)
    tournament = tournament_locked(round_.tournament)
    tournament_open_check(tournament)
    _untouched_check(round_)
    old = round_seating(round_)
    # Clear this round first so that the history and the bye history are those
    # of the rounds before it.
    Seat.objects.filter(round=round_).delete()
    Adjustment.objects.filter(round=round_, kind=Adjustment.Kind.BYE).delete()
    tables: Sequence[Sequence[int]]
    byes: Sequence[int] = ()
    if round_.stage == QUALIFYING:
        plan = _qualifying_plan(tournament, round_.number)
        tables, byes = plan.tables, plan.byes
    else:
        tables = stage_tables(tournament, round_.stage)
    round_fill(round_=round_, tournament=tournament, tables=tables, byes=byes)
    _seating_audit(round_=round_, action=AuditEvent.Action.ROUND_RESEATED, user=user, old=old)
    return round_


@transaction.atomic
def round_manual_set(
    *,
    round: Round,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int] = (),
    user: ActingUser = None,
) -> Round:
    """The organiser's own tables for the last round (seat order as given), while untouched.

    A qualifying round must seat every active player once (or give them a bye);
    a semi-final or final must seat the same players it seats now.
    """
    round_ = Round.objects.select_related("tournament").get(pk=round.pk)
    tournament = tournament_locked(round_.tournament)
    tournament_open_check(tournament)
    _untouched_check(round_)
    try:
        tables = [[int(p) for p in table] for table in tables]
        byes = [int(p) for p in byes]
    except (TypeError, ValueError) as exc:
        raise UserError(_("Tables must be lists of player ids."), field="tables") from exc
    if round_.stage == QUALIFYING:
        players: Iterable[int] = _active_ids(tournament)
    else:
        players = Seat.objects.filter(round=round_).values_list("player_id", flat=True)
        if byes:
            raise UserError(_("A semi-final or final has no byes."), field="byes")
    seating.plan_check(
        players=set(players), tables=tables, byes=byes, max_size=tournament.max_table_size
    )
    old = round_seating(round_)
    round_fill(round_=round_, tournament=tournament, tables=tables, byes=byes)
    _seating_audit(round_=round_, action=AuditEvent.Action.SEATS_CHANGED, user=user, old=old)
    return round_
