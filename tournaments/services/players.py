"""Player services: players, and importing players from a file.

Vocabulary: a *club* has a name no other club has; a *player* is known by
name and, optionally, a club (two players may share a name). A player *in
use* has an entry, a seat, a rack or an adjustment somewhere and cannot be
deleted; a club's players and tournaments stay when it goes. Each has a
*creator* (``created_by``), who with staff alone may change it
(``access.player_editable``, checked by the callers). A change to a player is
recorded (``player.changed``) in every tournament that shows them (where they
are entered); that new event is what tells those tournaments' cached pages that
they are stale. The club services are in ``clubs`` (named here too, where the
callers know them). Players files
(checking and importing a ``name,club`` CSV) are in ``players_file``; its
services are named here too, where the callers know them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import ProtectedError, Q

from scoring.errors import ConflictError, UserError, _
from tournaments.access import players_visible_q, user_or_none
from tournaments.actors import ActingUser
from tournaments.models import Adjustment, AuditEvent, Club, Entry, Player, Rack, Seat, Tournament
from tournaments.names import name_clean
from tournaments.services.audit import audit_add, audit_changes, audit_values
from tournaments.services.clubs import club_create as club_create
from tournaments.services.clubs import club_delete as club_delete
from tournaments.services.clubs import club_update as club_update
from tournaments.services.entries import entries_add
from tournaments.services.model_checks import model_checked
from tournaments.services.players_file import CLUB_MAX as CLUB_MAX
from tournaments.services.players_file import NAME_MAX as NAME_MAX
from tournaments.services.players_file import ImportPreview as ImportPreview
from tournaments.services.players_file import ImportResult as ImportResult
from tournaments.services.players_file import PlayersFileError as PlayersFileError
from tournaments.services.players_file import PreviewLine as PreviewLine
from tournaments.services.players_file import players_import as players_import
from tournaments.services.players_file import players_import_preview as players_import_preview
from tournaments.services.players_file import problem_text as problem_text

PLAYER_SETTINGS = frozenset({"name", "club"})
Action = AuditEvent.Action


def _tournaments_showing(*, player: Player | None = None, club: Club | None = None) -> Any:
    """The tournaments whose pages show a player (entered) or a club (named, or a
    player of it entered), oldest first."""
    if player is not None:
        return Tournament.objects.filter(entries__player=player).order_by("id")
    entered = Entry.objects.filter(player__club=club).values("tournament_id")
    return Tournament.objects.filter(Q(club=club) | Q(pk__in=entered)).order_by("id")


def _changes_recorded(
    *, tournaments: Any, action: str, user: ActingUser, object_id: int, old: Any, new: Any
) -> None:
    for tournament in tournaments:
        audit_add(
            tournament=tournament, action=action, user=user, object_id=object_id, old=old, new=new
        )


R = TypeVar("R", Club, Player)


def _row_changed(
    *,
    row: R,
    changes: dict[str, Any],
    fields: frozenset[str],
    checked: Callable[[R], R],
    action: str,
    user: ActingUser,
    showing: Callable[[], Any],
) -> R:
    """Change a club's or player's ``fields``; every tournament ``showing`` it records
    the change (which is what makes its cached pages stale)."""
    _fields_known(changes, fields, type(row).__name__.lower())
    row = type(row).objects.select_for_update().get(pk=row.pk)
    before = audit_values(row, sorted(fields))
    for name, value in changes.items():
        setattr(row, name, value)
    checked(row)
    row.save()
    old, new = audit_changes(before, audit_values(row, sorted(fields)))
    if new:
        _changes_recorded(
            tournaments=showing(), action=action, user=user, object_id=row.pk, old=old, new=new
        )
    return row


def _fields_known(changes: dict[str, Any], known: frozenset[str], what: str) -> None:
    unknown = sorted(set(changes) - known)
    if unknown:
        raise TypeError(f"Not a {what} field: {', '.join(unknown)}")


def _text(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _player_checked(player: Player) -> Player:
    player.name = name_clean(player.name) if isinstance(player.name, str) else player.name
    if not player.name:
        raise UserError(_("Give the player a name."), field="name")
    model_checked(player)
    return player


@transaction.atomic
def player_create(*, name: str, club: Club | None = None, created_by: ActingUser) -> Player:
    """A new player; ``created_by`` (a user, or None: staff only) may change them later."""
    player = _player_checked(Player(name=name, club=club, created_by=user_or_none(created_by)))
    player.save()
    return player


@transaction.atomic
def player_update(*, player: Player, user: ActingUser = None, **changes: Any) -> Player:
    """Change a player's name or club; their entries and results stay theirs, and
    every tournament they are entered in records the change."""
    return _row_changed(
        row=player,
        changes=changes,
        fields=PLAYER_SETTINGS,
        checked=_player_checked,
        action=Action.PLAYER_CHANGED,
        user=user,
        showing=lambda: _tournaments_showing(player=player),
    )


@transaction.atomic
def player_enter(
    *, tournament: Tournament, name: str, club: Club | None = None, user: ActingUser = None
) -> Entry:
    """Enter a player by name and club, made if new: a walk-in plays from the next round.

    An existing player with that name and club, among those the user may see
    (a command: all), is entered rather than made twice; one already entered is
    refused (check them in instead).
    """
    name = name_clean(name)
    # Another organiser's private player is not theirs to find by typing a name.
    seen = Player.objects.filter(players_visible_q(user=user)) if user else Player.objects
    player = seen.filter(name=name, club=club).order_by("id").first() if name else None
    if player is None:
        player = player_create(name=name, club=club, created_by=user)
    elif Entry.objects.filter(tournament=tournament, player=player).exists():
        raise UserError(_("%(name)s is already entered."), field="name", name=name)
    return entries_add(tournament=tournament, player_ids=[player.pk], user=user)[0]


def _in_use(player: Player) -> bool:
    return any(
        model.objects.filter(player=player).exists() for model in (Entry, Seat, Rack, Adjustment)
    )


@transaction.atomic
def player_delete(*, player: Player, user: ActingUser = None) -> None:
    """Delete a player who is in no tournament; a player in use is a conflict.

    ``user`` is who asks: a player in no tournament is on no tournament's trail,
    so there is nothing to record.
    """
    refusal = ConflictError(
        _(
            "%(player)s cannot be deleted: they are entered in a tournament or have results. "
            "Withdraw them instead."
        ),
        player=player.name,
    )
    if _in_use(player):
        raise refusal
    try:
        player.delete()
    except ProtectedError as error:  # pragma: no cover - entered meanwhile
        raise refusal from error
