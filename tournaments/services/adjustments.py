"""Adjustment services: an organiser's penalties and bonuses.

Vocabulary: an *adjustment* is points given or taken outside the games, with
a reason: a *penalty* (negative), a *bonus* (positive), or a *bye*'s score
(made and removed by the seating services, never here). Adjustments count in
the standings next to the game scores, kept apart from them.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction

from scoring.errors import ConflictError, UserError, _
from tournaments.access import user_or_none
from tournaments.actors import ActingUser
from tournaments.models import Adjustment, AuditEvent, Entry, Round, Tournament
from tournaments.services.audit import audit_add, audit_value
from tournaments.services.tournament_open import tournament_open_check

_POINTS_LIMIT = Decimal("999999.99")


def _audited(adjustment: Adjustment) -> dict[str, Any]:
    """The adjustment as the trail keeps it: its player by id and name, its round by number."""
    return {
        "player": adjustment.player_id,
        "name": adjustment.player.name,
        "kind": adjustment.kind,
        "points": audit_value(adjustment.points),
        "reason": adjustment.reason,
        "round": adjustment.round.number if adjustment.round is not None else None,
    }


@transaction.atomic
def adjustment_add(
    *,
    tournament: Tournament,
    player_id: int,
    points: Decimal | int | str,
    reason: str,
    user: ActingUser = None,
    kind: str = Adjustment.Kind.PENALTY,
    round: Round | None = None,
) -> Adjustment:
    """An organiser's penalty (negative points) or bonus (positive), with a reason.

    ``round`` ties it to a round (it then counts in that round's stage only);
    without one it counts in the qualifying standings and the totals.
    """
    tournament_open_check(tournament)
    if kind not in (Adjustment.Kind.PENALTY, Adjustment.Kind.BONUS):
        raise UserError(
            _("An adjustment is a penalty or a bonus, not %(kind)s."), field="kind", kind=kind
        )
    reason = (reason or "").strip()
    if not reason:
        raise UserError(_("Give a reason for the adjustment."), field="reason")
    if len(reason) > 200:
        raise UserError(_("The reason is longer than 200 characters."), field="reason")
    try:
        value = Decimal(str(points))
    except InvalidOperation as exc:
        raise UserError(
            _("Points must be a number, not %(points)s."), field="points", points=points
        ) from exc
    if (
        not value.is_finite()
        or abs(value) > _POINTS_LIMIT
        or value != value.quantize(Decimal("0.01"))
    ):
        raise UserError(
            _("Points must be a number with at most 2 decimals, up to %(limit)s."),
            field="points",
            limit=_POINTS_LIMIT,
        )
    if value == 0:
        raise UserError(_("An adjustment of 0 points changes nothing."), field="points")
    if kind == Adjustment.Kind.PENALTY and value > 0:
        raise UserError(
            _("A penalty takes points away: enter a negative number (e.g. -%(points)s)."),
            field="points",
            points=value,
        )
    if kind == Adjustment.Kind.BONUS and value < 0:
        raise UserError(
            _("A bonus adds points: enter a positive number, or make it a penalty."),
            field="points",
        )
    if not Entry.objects.filter(tournament=tournament, player_id=player_id).exists():
        raise UserError(
            _("Player %(player)s is not entered in %(tournament)s."),
            field="player",
            player=player_id,
            tournament=tournament.name,
        )
    if round is not None and round.tournament_id != tournament.pk:
        raise UserError(_("That round belongs to another tournament."), field="round")
    adjustment = Adjustment.objects.create(
        tournament=tournament,
        player_id=player_id,
        round=round,
        kind=kind,
        points=value,
        reason=reason,
        created_by=user_or_none(user),
    )
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.ADJUSTMENT_ADDED,
        user=user,
        object_id=adjustment.pk,
        new=_audited(adjustment),
    )
    return adjustment


@transaction.atomic
def adjustment_delete(*, adjustment: Adjustment, user: ActingUser = None) -> None:
    """Remove an organiser's adjustment (a bye's score goes with its round's seating)."""
    tournament_open_check(adjustment.tournament)
    if adjustment.kind == Adjustment.Kind.BYE:
        raise ConflictError(_("A bye's score is part of the seating; re-seat the round instead."))
    audit_add(
        tournament=adjustment.tournament,
        action=AuditEvent.Action.ADJUSTMENT_DELETED,
        user=user,
        object_id=adjustment.pk,
        old=_audited(adjustment),
    )
    adjustment.delete()
