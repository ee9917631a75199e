"""Who may write what (design §4).

Vocabulary: an *organiser* of a tournament is its owner or a staff user. Reads
of what a user may see need nothing (what they may not see is left out of the
querysets, so it answers 404); creating clubs, players and tournaments needs a
login; changing a tournament or anything under it needs an organiser; a
*match grant* (``authentication.MatchGrant``) allows reading a match and
recording and reading its games, nothing else.

Anonymous writes answer 401 (DRF's ``NotAuthenticated``), logged-in writes that
are not allowed 403.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments.models import Club, Entry, Game, Match, Player, Round, Tournament

from .authentication import match_grant


def is_organiser(user: Any, tournament: Tournament) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and (user.is_staff or tournament.owner_id == user.pk)
    )


def _logged_in(request: Request) -> bool:
    return bool(request.user and request.user.is_authenticated)


class ReadOrLoggedIn(BasePermission):
    """Anyone reads; creating needs a login; changing is decided per object."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or _logged_in(request)


class ClubPermission(ReadOrLoggedIn):
    """A club is changed by staff or by an organiser of one of its tournaments."""

    def has_object_permission(self, request: Request, view: Any, obj: Club) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        return bool(user.is_staff or obj.tournaments.filter(owner_id=user.pk).exists())


class PlayerPermission(ReadOrLoggedIn):
    """A player is changed by staff or by an organiser of a tournament they entered."""

    def has_object_permission(self, request: Request, view: Any, obj: Player) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        return bool(
            user.is_staff or Entry.objects.filter(player=obj, tournament__owner_id=user.pk).exists()
        )


class TournamentPermission(ReadOrLoggedIn):
    """A tournament, and everything under it, is changed by its organisers."""

    def has_object_permission(self, request: Request, view: Any, obj: Tournament) -> bool:
        return request.method in SAFE_METHODS or is_organiser(request.user, obj)


class RoundPermission(ReadOrLoggedIn):
    def has_object_permission(self, request: Request, view: Any, obj: Round) -> bool:
        return request.method in SAFE_METHODS or is_organiser(request.user, obj.tournament)


class MatchGamesPermission(BasePermission):
    """A match and its games: anyone who sees them reads them; organisers and the
    holder of that match's token record games."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return (
            request.method in SAFE_METHODS
            or _logged_in(request)
            or match_grant(request) is not None
        )

    def has_object_permission(self, request: Request, view: Any, obj: Match) -> bool:
        if request.method in SAFE_METHODS:
            return True  # the queryset holds what this request may see
        grant = match_grant(request)
        if grant is not None:
            return grant.match_id == obj.pk
        return is_organiser(request.user, obj.round.tournament)


class GamePermission(BasePermission):
    """A recorded game: anyone who sees it reads it; only organisers correct or delete it.

    A match grant adds the games of its own match to what its holder sees.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if match_grant(request) is not None:
            return False  # a token records games; it corrects none
        return _logged_in(request)

    def has_object_permission(self, request: Request, view: Any, obj: Game) -> bool:
        if request.method in SAFE_METHODS:
            return True  # the queryset holds what this request may see
        return is_organiser(request.user, obj.match.round.tournament)
