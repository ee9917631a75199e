"""Who may see and change what: one rule for the pages, the API, the files and the admin.

Vocabulary:

* an *organiser* of a tournament is its owner or a staff user; organisers
  change the tournament and everything in it (entries, rounds, games,
  adjustments) and see its private parts (match tokens, score sheets);
* a tournament is *visible* to a user when it is public or the user organises
  it; everything else answers 404, so that a private tournament's existence is
  not told;
* a club or a player is *editable* by staff and by the organisers of a
  tournament it takes part in;
* a *user* here is whatever a request carries: a user, ``AnonymousUser`` or
  ``None`` (a command, a test, a match link).

Match links (a table's private token) grant recording that match's games and
nothing else; the API and the match page check them where they are presented.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from .models import Club, Entry, Player, Tournament

UserLike = AbstractBaseUser | AnonymousUser | None


def user_or_none(user: UserLike | Any) -> Any:
    """The user to record as having made a change, or ``None`` for nobody logged in."""
    return user if user is not None and user.is_authenticated else None


def user_is_staff(user: UserLike | Any) -> bool:
    return bool(user_or_none(user) is not None and user.is_staff)


def tournament_organiser(*, user: UserLike | Any, tournament: Tournament) -> bool:
    """Whether the user may change the tournament and everything in it."""
    if user_or_none(user) is None:
        return False
    return bool(user.is_staff or tournament.owner_id == user.pk)


def tournaments_organised_q(*, user: UserLike | Any) -> Q:
    """A filter on tournaments for those the user organises (staff: all)."""
    if user_or_none(user) is None:
        return Q(pk__in=[])
    if user.is_staff:
        return Q()
    return Q(owner_id=user.pk)


def tournaments_visible_q(*, user: UserLike | Any) -> Q:
    """A filter on tournaments for those the user may see: public ones and their own."""
    if user_or_none(user) is None:
        return Q(public=True)
    if user.is_staff:
        return Q()
    return Q(public=True) | tournaments_organised_q(user=user)


def tournament_visible(*, user: UserLike | Any, tournament: Tournament) -> bool:
    return tournament.public or tournament_organiser(user=user, tournament=tournament)


def club_editable(*, user: UserLike | Any, club: Club) -> bool:
    if user_or_none(user) is None:
        return False
    return bool(
        user.is_staff
        or Tournament.objects.filter(tournaments_organised_q(user=user), club=club).exists()
    )


def player_editable(*, user: UserLike | Any, player: Player) -> bool:
    if user_or_none(user) is None:
        return False
    return bool(
        user.is_staff
        or Entry.objects.filter(
            player=player, tournament__in=Tournament.objects.filter(tournaments_organised_q(user=user))
        ).exists()
    )
