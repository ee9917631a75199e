"""The audit trail: every service records what it changed, here.

Vocabulary: an *actor* is who made a change: a logged-in user; a *match
link* (no user, but a match: whoever holds that table's private token); or the
*system* (no user and no match: a command, an import). ``audit_add`` writes one
``AuditEvent`` inside the caller's transaction, so a refused change leaves no
event and a stored one never lacks its event. Values are stored as JSON:
``audit_values`` turns dates, decimals and model instances into plain values.

A *refusal* (``audit_refusal_add``) is the one event written for something
*not* done: an entry of a game that was refused (what was sent, and why), in
its own transaction after the refused one was rolled back. So that one phone
cannot grow the trail without bound, a match keeps at most
``REFUSALS_PER_MATCH_PER_MINUTE`` refusals in any minute (counted under a
lock on the match's row); further ones in that minute are answered as
refused and not recorded.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from tournaments.access import user_or_none
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Match, Tournament
from tournaments.services.statement_inserts import instance_insert

Action = AuditEvent.Action
# Refusals recorded per match in any minute (``audit_refusal_add``).
REFUSALS_PER_MATCH_PER_MINUTE = 6
REFUSAL_WINDOW = dt.timedelta(minutes=1)


def audit_value(value: Any) -> Any:
    """A value as the trail stores it (JSON)."""
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral() else str(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, Mapping):
        return {str(k): audit_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [audit_value(v) for v in value]
    return value


def audit_values(obj: models.Model, fields: list[str]) -> dict[str, Any]:
    """The named fields of an object, as the trail stores them (foreign keys by id)."""
    out = {}
    for name in fields:
        field = obj._meta.get_field(name)
        value = getattr(obj, field.attname) if isinstance(field, models.ForeignKey) else None
        if value is None and not isinstance(field, models.ForeignKey):
            value = getattr(obj, name)
        out[name] = audit_value(value)
    return out


def audit_changes(
    old: Mapping[str, Any], new: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Only what differs between two value maps."""
    keys = [k for k in new if old.get(k) != new.get(k)]
    return {k: old.get(k) for k in keys}, {k: new[k] for k in keys}


def audit_add(
    *,
    tournament: Tournament,
    action: str,
    user: ActingUser = None,
    match: Match | None = None,
    round_number: int | None = None,
    object_id: int | None = None,
    game_number: int | None = None,
    version: int | None = None,
    old: Any = None,
    new: Any = None,
) -> AuditEvent:
    """Record one change. ``user`` is whoever the request carries: a user, an
    anonymous visitor holding ``match``'s link, or None (the system)."""
    u = user_or_none(user)
    event = AuditEvent(
        tournament=tournament,
        user=u,
        username=u.get_username() if u is not None else "",
        # An anonymous request reaches a match's games only through its link.
        by_link=u is None and user is not None and match is not None,
        action=action,
        object_id=object_id,
        match=match,
        round_number=match.round.number if match is not None else round_number,
        table=match.table if match is not None else None,
        game_number=game_number,
        version=version,
        old=audit_value(old),
        new=audit_value(new),
    )
    return instance_insert(event)


@transaction.atomic
def audit_refusal_add(
    *,
    match: Match,
    user: ActingUser,
    game_number: int | None,
    sent: Mapping[str, Any],
    object_id: int | None = None,
) -> AuditEvent | None:
    """Record one refused entry of ``match``'s game (``sent``: what came, and
    the reason); None when the match has had its
    ``REFUSALS_PER_MATCH_PER_MINUTE`` refusals in the last minute already."""
    # The match's row, locked: concurrent refusals of one match are counted one by one.
    list(
        Match.objects.select_for_update()
        .filter(pk=match.pk)
        .order_by()
        .values_list("pk", flat=True)
    )
    since = timezone.now() - REFUSAL_WINDOW
    recent = AuditEvent.objects.filter(match=match, action=Action.GAME_REFUSED, at__gte=since)
    if recent.count() >= REFUSALS_PER_MATCH_PER_MINUTE:
        return None
    return audit_add(
        tournament=match.round.tournament,
        action=Action.GAME_REFUSED,
        user=user,
        match=match,
        object_id=object_id,
        game_number=game_number,
        new=dict(sent),
    )
