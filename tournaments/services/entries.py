"""Entry services: who plays in a tournament, and who is here for the next round.

Vocabulary: an *entry* is a player registered in a tournament; it is
*active* (seated in the next round), *absent* (checked out: a late arrival
not here yet, a no-show, a league member skipping a club night) or
*withdrawn* (gone for good). Absent and withdrawn players keep the results
they already played; only active players are seated. An entry's *category*
(``U14``, ``Senior``; "" = none) is free text the standings can be shown by.

The audit trail names each entry's player by id and name with its status
(``{"player", "name", "status"}``); a service touching several entries lists
them under ``"players"`` in one event.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q

from scoring import rules
from scoring.errors import UserError, _
from tournaments.access import players_visible_q
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Entry, Player, Tournament
from tournaments.services.audit import audit_add
from tournaments.services.tournament_open import tournament_open_check

# (player id, name, status before (None: not entered), status after)
_Change = tuple[int, str, str | None, str]


def _listed(changes: list[_Change], *, after: bool) -> dict[str, Any]:
    return {
        "players": [
            {"player": pid, "name": name, "status": new if after else old}
            for pid, name, old, new in changes
        ]
    }


def _entries_store(
    *, tournament: Tournament, player_ids: Iterable[int], status: str, user: ActingUser
) -> tuple[list[Entry], list[_Change]]:
    """Register players with ``status``; the entries and what changed, unaudited.

    Only players the user may see can be entered (``None``, the system, sees
    all): an id is no way to reach another organiser's private player."""
    tournament_open_check(tournament)
    if status not in Entry.Status.values:
        raise UserError(_("Unknown entry status %(status)s."), field="status", status=status)
    ids = list(dict.fromkeys(player_ids))
    visible = Q() if user is None else players_visible_q(user=user)
    found = dict(Player.objects.filter(visible, pk__in=ids).values_list("pk", "name"))
    missing = [i for i in ids if i not in found]
    if missing:
        raise UserError(
            _("No player with id %(ids)s."), field="players", ids=", ".join(map(str, missing))
        )
    existing = {
        e.player_id: e for e in Entry.objects.filter(tournament=tournament, player_id__in=ids)
    }
    Entry.objects.filter(pk__in=[e.pk for e in existing.values()]).update(status=status)
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player_id=i, status=status) for i in ids if i not in existing
    )
    changes: list[_Change] = [
        (i, found[i], existing[i].status if i in existing else None, status)
        for i in ids
        if i not in existing or existing[i].status != status
    ]
    entries = list(
        Entry.objects.filter(tournament=tournament, player_id__in=ids).select_related("player")
    )
    return entries, changes


def _changes_audit(*, tournament: Tournament, changes: list[_Change], user: ActingUser) -> None:
    """One event for the players entered, one for the entries whose status changed."""
    added = [c for c in changes if c[2] is None]
    changed = [c for c in changes if c[2] is not None]
    if added:
        audit_add(
            tournament=tournament,
            action=AuditEvent.Action.ENTRY_ADDED,
            user=user,
            new=_listed(added, after=True),
        )
    if changed:
        audit_add(
            tournament=tournament,
            action=AuditEvent.Action.ENTRY_CHANGED,
            user=user,
            old=_listed(changed, after=False),
            new=_listed(changed, after=True),
        )


@transaction.atomic
def entries_add(
    *,
    tournament: Tournament,
    player_ids: Iterable[int],
    status: str = Entry.Status.ACTIVE,
    user: ActingUser = None,
) -> list[Entry]:
    """Register players (idempotent: an entered player gets ``status`` again).

    ``status="absent"`` registers late arrivals who are checked in later.
    """
    entries, changes = _entries_store(
        tournament=tournament, player_ids=player_ids, status=status, user=user
    )
    _changes_audit(tournament=tournament, changes=changes, user=user)
    return entries


def _entry_set(*, tournament: Tournament, player_id: int, status: str, user: ActingUser) -> Entry:
    tournament_open_check(tournament)
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(tournament=tournament, player_id=player_id)
        .first()
    )
    if entry is None:
        raise UserError(
            _("Player %(player)s is not entered in %(tournament)s."),
            field="player",
            player=player_id,
            tournament=tournament.name,
        )
    if entry.status != status:
        old = {"player": player_id, "name": entry.player.name, "status": entry.status}
        entry.status = status
        entry.save(update_fields=["status"])
        audit_add(
            tournament=tournament,
            action=AuditEvent.Action.ENTRY_CHANGED,
            user=user,
            object_id=entry.pk,
            old=old,
            new={**old, "status": status},
        )
    return entry


@transaction.atomic
def entry_withdraw(*, tournament: Tournament, player_id: int, user: ActingUser = None) -> Entry:
    """Withdraw a player: not seated in later rounds; the results played are kept.

    A round already seated keeps its tables: re-seat it (``round_reseat``) if it
    has no results yet, or let the others play on without the player.
    """
    return _entry_set(
        tournament=tournament, player_id=player_id, status=Entry.Status.WITHDRAWN, user=user
    )


@transaction.atomic
def entry_activate(*, tournament: Tournament, player_id: int, user: ActingUser = None) -> Entry:
    """Check a player in: a late arrival, a returning absentee, or an undone withdrawal."""
    return _entry_set(
        tournament=tournament, player_id=player_id, status=Entry.Status.ACTIVE, user=user
    )


@transaction.atomic
def entry_check_out(*, tournament: Tournament, player_id: int, user: ActingUser = None) -> Entry:
    """Check a player out for the next round (a no-show, a break) without withdrawing them."""
    return _entry_set(
        tournament=tournament, player_id=player_id, status=Entry.Status.ABSENT, user=user
    )


@transaction.atomic
def attendance_set(
    *, tournament: Tournament, player_ids: Iterable[int], user: ActingUser = None
) -> list[Entry]:
    """A league's club night: exactly these players are active tonight.

    Players not yet entered are entered; every other entry that is not
    withdrawn is checked out until the next night. Returns the active entries.
    The trail gets one event listing every entry added or changed.
    """
    ids = list(dict.fromkeys(player_ids))
    entries, changes = _entries_store(
        tournament=tournament, player_ids=ids, status=Entry.Status.ACTIVE, user=user
    )
    leaving = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).exclude(
        player_id__in=ids
    )
    changes += [
        (pid, name, Entry.Status.ACTIVE, Entry.Status.ABSENT)
        for pid, name in leaving.order_by("player_id").values_list("player_id", "player__name")
    ]
    leaving.update(status=Entry.Status.ABSENT)
    if changes:
        audit_add(
            tournament=tournament,
            action=AuditEvent.Action.ENTRY_CHANGED,
            user=user,
            old=_listed(changes, after=False),
            new=_listed(changes, after=True),
        )
    return entries


def category_clean(category: str) -> str:
    """A category as stored: trimmed, at most ``CATEGORY_MAX_LENGTH``; else a ``UserError``."""
    cleaned = category.strip()
    if len(cleaned) > rules.CATEGORY_MAX_LENGTH:
        raise UserError(
            _("A category has at most %(max)s characters."),
            field="category",
            max=rules.CATEGORY_MAX_LENGTH,
        )
    return cleaned


@transaction.atomic
def entries_category_set(
    *, tournament: Tournament, player_ids: Iterable[int], category: str, user: ActingUser = None
) -> list[Entry]:
    """Put entered players in ``category`` ("" = none); one audit event listing the changes.

    A category changes no result, so it may be set at any time, after the end too
    (the standings per category are read from it)."""
    cleaned = category_clean(category)
    ids = list(dict.fromkeys(player_ids))
    entries = list(
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(tournament=tournament, player_id__in=ids)
        .order_by("player_id")
    )
    missing = sorted(set(ids) - {e.player_id for e in entries})
    if missing:
        raise UserError(
            _("Player %(player)s is not entered in %(tournament)s."),
            field="player",
            player=", ".join(map(str, missing)),
            tournament=tournament.name,
        )
    changed = [e for e in entries if e.category != cleaned]
    if changed:
        old = [
            {"player": e.player_id, "name": e.player.name, "category": e.category} for e in changed
        ]
        Entry.objects.filter(pk__in=[e.pk for e in changed]).update(category=cleaned)
        for entry in changed:
            entry.category = cleaned
        audit_add(
            tournament=tournament,
            action=AuditEvent.Action.ENTRY_CHANGED,
            user=user,
            old={"players": old},
            new={"players": [{**o, "category": cleaned} for o in old]},
        )
    return entries
