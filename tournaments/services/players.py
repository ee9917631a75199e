"""Player services: clubs, players, and importing players from a file.

Vocabulary: a *club* has a name no other club has; a *player* is known by
name and, optionally, a club (two players may share a name). A player *in
use* has an entry, a seat, a rack or an adjustment somewhere and cannot be
deleted; a club's players and tournaments stay when it goes. Players files
(checking and importing a ``name,club`` CSV) are in ``players_file``; its
services are named here too, where the callers know them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import ProtectedError

from scoring.errors import ConflictError, UserError, _

from ..access import UserLike
from ..models import Adjustment, Club, Entry, Player, Rack, Seat, Tournament
from ._clean import model_checked
from .entries import entries_add
from .players_file import CLUB_MAX as CLUB_MAX
from .players_file import NAME_MAX as NAME_MAX
from .players_file import ImportPreview as ImportPreview
from .players_file import ImportResult as ImportResult
from .players_file import PlayersFileError as PlayersFileError
from .players_file import PreviewLine as PreviewLine
from .players_file import players_import as players_import
from .players_file import players_import_preview as players_import_preview
from .players_file import problem_text as problem_text

CLUB_SETTINGS = frozenset({"name", "city"})
PLAYER_SETTINGS = frozenset({"name", "club"})


def _fields_known(changes: dict[str, Any], known: frozenset[str], what: str) -> None:
    unknown = sorted(set(changes) - known)
    if unknown:
        raise TypeError(f"Not a {what} field: {', '.join(unknown)}")


def _text(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _club_checked(club: Club) -> Club:
    club.name, club.city = _text(club.name), _text(club.city)
    if not club.name:
        raise UserError(_("Give the club a name."), field="name")
    if Club.objects.filter(name=club.name).exclude(pk=club.pk).exists():
        raise UserError(_("There is already a club named %(name)s."), field="name", name=club.name)
    model_checked(club)
    return club


@transaction.atomic
def club_create(*, name: str, city: str = "") -> Club:
    club = _club_checked(Club(name=name, city=city))
    club.save()
    return club


@transaction.atomic
def club_update(*, club: Club, **changes: Any) -> Club:
    """Change a club's name or city."""
    _fields_known(changes, CLUB_SETTINGS, "club")
    club = Club.objects.select_for_update().get(pk=club.pk)
    for name, value in changes.items():
        setattr(club, name, value)
    _club_checked(club)
    club.save()
    return club


@transaction.atomic
def club_delete(*, club: Club) -> None:
    """Delete a club; its players and tournaments stay, without a club."""
    club.delete()


def _player_checked(player: Player) -> Player:
    player.name = _text(player.name)
    if not player.name:
        raise UserError(_("Give the player a name."), field="name")
    model_checked(player)
    return player


@transaction.atomic
def player_create(*, name: str, club: Club | None = None) -> Player:
    player = _player_checked(Player(name=name, club=club))
    player.save()
    return player


@transaction.atomic
def player_update(*, player: Player, **changes: Any) -> Player:
    """Change a player's name or club; their entries and results stay theirs."""
    _fields_known(changes, PLAYER_SETTINGS, "player")
    player = Player.objects.select_for_update().get(pk=player.pk)
    for name, value in changes.items():
        setattr(player, name, value)
    _player_checked(player)
    player.save()
    return player


@transaction.atomic
def player_enter(
    *, tournament: Tournament, name: str, club: Club | None = None, user: UserLike = None
) -> Entry:
    """Enter a player by name and club, made if new: a walk-in plays from the next round.

    An existing player with that name and club is entered rather than made
    twice; one already entered is refused (check them in instead).
    """
    name = _text(name)
    player = Player.objects.filter(name=name, club=club).order_by("id").first() if name else None
    if player is None:
        player = player_create(name=name, club=club)
    elif Entry.objects.filter(tournament=tournament, player=player).exists():
        raise UserError(_("%(name)s is already entered."), field="name", name=name)
    return entries_add(tournament=tournament, player_ids=[player.pk], user=user)[0]


def _in_use(player: Player) -> bool:
    return any(
        model.objects.filter(player=player).exists() for model in (Entry, Seat, Rack, Adjustment)
    )


@transaction.atomic
def player_delete(*, player: Player) -> None:
    """Delete a player who is in no tournament; a player in use is a conflict."""
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
