"""Who may write what, as DRF permissions; the rule itself is ``tournaments.access``.

Vocabulary: an *organiser* of a tournament is its owner, a co-organiser or a
staff user (``access.tournament_organiser``); the *owner's rights* (deleting the
tournament, its visibility, who organises it) are the owner's and staff's
(``access.tournament_owner``): deleting answers 403 to a co-organiser here, and
the services refuse the rest. Reads of what a user may see need nothing
(what they may not see is left out of the querysets, so it answers 404);
creating clubs, players and tournaments needs a login; changing a tournament
or anything under it needs an organiser; a club or a player is changed by
whoever ``access`` says may edit it; a *match grant* (``auth.MatchGrant``)
allows reading a match and recording and reading its games, nothing else.
Some things are for organisers only, reads included (``OrganiserOnly``). Every
class here asks ``access`` and holds no rule of its own.

Anonymous writes answer 401 (DRF's ``NotAuthenticated``), logged-in writes that
are not allowed 403.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments.access import (
    club_editable,
    player_editable,
    tournament_organiser,
    tournament_owner,
    user_or_none,
)
from tournaments.api.auth import match_grant
from tournaments.models import Club, Game, Match, Player, Round, Tournament


class ReadOrLoggedIn(BasePermission):
    """Anyone reads; creating needs a login; changing is decided per object."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or user_or_none(request.user) is not None


class ClubPermission(ReadOrLoggedIn):
    message = _("Only the user who created this club, or staff, may change or delete it.")

    def has_object_permission(self, request: Request, view: Any, obj: Club) -> bool:
        return request.method in SAFE_METHODS or club_editable(user=request.user, club=obj)


class PlayerPermission(ReadOrLoggedIn):
    message = _("Only the user who created this player, or staff, may change or delete them.")

    def has_object_permission(self, request: Request, view: Any, obj: Player) -> bool:
        return request.method in SAFE_METHODS or player_editable(user=request.user, player=obj)


class TournamentPermission(ReadOrLoggedIn):
    """A tournament, and everything under it, is changed by its organisers."""

    def has_object_permission(self, request: Request, view: Any, obj: Tournament) -> bool:
        return request.method in SAFE_METHODS or tournament_organiser(
            user=request.user, tournament=obj
        )


class TournamentOwnerDeletes(TournamentPermission):
    """The tournament itself: its organisers change it; only its owner (and staff)
    deletes it."""

    message = _("Only the tournament's owner may delete it.")

    def has_object_permission(self, request: Request, view: Any, obj: Tournament) -> bool:
        if request.method == "DELETE":
            return tournament_owner(user=request.user, tournament=obj)
        # The refusal says what was refused (one instance per request).
        self.message = _("Only the tournament's organisers may change it.")
        return super().has_object_permission(request, view, obj)


class InvitedUser(BasePermission):
    """A user's own invitations: a logged-in user (401 otherwise); a match token is
    refused (403)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return match_grant(request) is None and user_or_none(request.user) is not None


class RoundPermission(ReadOrLoggedIn):
    def has_object_permission(self, request: Request, view: Any, obj: Round) -> bool:
        return request.method in SAFE_METHODS or tournament_organiser(
            user=request.user, tournament=obj.tournament
        )


class MatchGamesPermission(BasePermission):
    """A match and its games: anyone who sees them reads them; organisers and the
    holder of that match's token record games."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return (
            request.method in SAFE_METHODS
            or user_or_none(request.user) is not None
            or match_grant(request) is not None
        )

    def has_object_permission(self, request: Request, view: Any, obj: Match) -> bool:
        if request.method in SAFE_METHODS:
            return True  # the queryset holds what this request may see
        grant = match_grant(request)
        if grant is not None:
            return grant.match_id == obj.pk
        return tournament_organiser(user=request.user, tournament=obj.round.tournament)


class MatchGrantRequired(BasePermission):
    """Only the holder of a match token (the match it opens is the answer)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return match_grant(request) is not None


class GamePermission(BasePermission):
    """A recorded game: anyone who sees it reads it; only organisers correct or delete it.

    A match grant adds the games of its own match to what its holder sees.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if match_grant(request) is not None:
            return False  # a token records games; it corrects none
        return user_or_none(request.user) is not None

    def has_object_permission(self, request: Request, view: Any, obj: Game) -> bool:
        if request.method in SAFE_METHODS:
            return True  # the queryset holds what this request may see
        return tournament_organiser(user=request.user, tournament=obj.match.round.tournament)


class OrganiserOnly(BasePermission):
    """What only organisers do or read, reads included (confirming and restoring
    games, replacing a match's link, the audit trail): a match token is refused (403),
    an anonymous request asked to log in (401); the object (a tournament, round, match
    or game) says whose organisers."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if match_grant(request) is not None:
            return False
        return user_or_none(request.user) is not None

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return tournament_organiser(user=request.user, tournament=tournament_of(obj))


def tournament_of(obj: Tournament | Round | Match | Game) -> Tournament:
    if isinstance(obj, Game):
        obj = obj.match
    if isinstance(obj, Match):
        obj = obj.round
    if isinstance(obj, Round):
        obj = obj.tournament
    return obj
