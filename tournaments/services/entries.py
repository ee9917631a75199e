"""Entry services: who plays in a tournament, and who is here for the next round.

Vocabulary: an *entry* is a player registered in a tournament; it is
*active* (seated in the next round), *absent* (checked out: a late arrival
not here yet, a no-show, a league member skipping a club night) or
*withdrawn* (gone for good). Absent and withdrawn players keep the results
they already played; only active players are seated.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from scoring.errors import UserError, _

from ..models import Entry, Player, Tournament
from ._plans import tournament_open_check


@transaction.atomic
def entries_add(
    *, tournament: Tournament, player_ids: Iterable[int], status: str = Entry.Status.ACTIVE
) -> list[Entry]:
    """Register players (idempotent: an entered player gets ``status`` again).

    ``status="absent"`` registers late arrivals who are checked in later.
    """
    tournament_open_check(tournament)
    if status not in Entry.Status.values:
        raise UserError(_("Unknown entry status %(status)s."), field="status", status=status)
    ids = list(dict.fromkeys(player_ids))
    found = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
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
    return list(
        Entry.objects.filter(tournament=tournament, player_id__in=ids).select_related("player")
    )


def _entry_set(*, tournament: Tournament, player_id: int, status: str) -> Entry:
    tournament_open_check(tournament)
    entry = (
        Entry.objects.select_for_update()
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
        entry.status = status
        entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def entry_withdraw(*, tournament: Tournament, player_id: int) -> Entry:
    """Withdraw a player: not seated in later rounds; the results played are kept.

    A round already seated keeps its tables: re-seat it (``round_reseat``) if it
    has no results yet, or let the others play on without the player.
    """
    return _entry_set(tournament=tournament, player_id=player_id, status=Entry.Status.WITHDRAWN)


@transaction.atomic
def entry_activate(*, tournament: Tournament, player_id: int) -> Entry:
    """Check a player in: a late arrival, a returning absentee, or an undone withdrawal."""
    return _entry_set(tournament=tournament, player_id=player_id, status=Entry.Status.ACTIVE)


@transaction.atomic
def entry_check_out(*, tournament: Tournament, player_id: int) -> Entry:
    """Check a player out for the next round (a no-show, a break) without withdrawing them."""
    return _entry_set(tournament=tournament, player_id=player_id, status=Entry.Status.ABSENT)


@transaction.atomic
def attendance_set(*, tournament: Tournament, player_ids: Iterable[int]) -> list[Entry]:
    """A league's club night: exactly these players are active tonight.

    Players not yet entered are entered; every other entry that is not
    withdrawn is checked out until the next night. Returns the active entries.
    """
    ids = list(dict.fromkeys(player_ids))
    entries = entries_add(tournament=tournament, player_ids=ids)
    Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).exclude(
        player_id__in=ids
    ).update(status=Entry.Status.ABSENT)
    return entries
