"""Players, clubs and user accounts as a user may see and pick them.

Vocabulary: a player or a club is *visible* to a user as ``access`` says
(``players_visible_q``, ``clubs_visible_q``: those in a public tournament,
their own, all for staff); a club is *usable* when a tournament or a player of
the user may name it (``clubs_usable_q``: public ones and their own); a player
*not entered* is a visible one without an entry in the tournament at hand; a
*search* keeps those whose name and club's name hold each word of the text,
in any case and whatever the accents (``search_names``: "Bjorn" finds
"Bjørn").
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet

from tournaments.access import (
    clubs_usable_q,
    clubs_visible_q,
    players_visible_q,
    tournaments_own_q,
    user_or_none,
)
from tournaments.actors import ActingUser
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.search_names import name_matches


def players_visible(*, user: ActingUser) -> QuerySet[Player]:
    """Players the user may see, with their clubs."""
    return Player.objects.select_related("club").filter(players_visible_q(user=user))


def players_listed(*, user: ActingUser) -> QuerySet[Player]:
    """Players the user may see, with their clubs, each with ``club_seen``:
    whether the user may see that club (a private club is named only to those
    who see it: ``access.clubs_visible_q``)."""
    seen = Club.objects.filter(clubs_visible_q(user=user)).values("pk")
    return players_visible(user=user).annotate(
        club_seen=ExpressionWrapper(
            Q(club__public=True) | Q(club_id__in=seen), output_field=BooleanField()
        )
    )


def player_club_seen(*, user: ActingUser, player: Player) -> Club | None:
    """The player's club, if the user may see it (``access.clubs_visible_q``):
    a private club is named only to those who see it. No query for a public
    club (the player read with their club), one otherwise."""
    club = player.club
    if club is None or club.public:
        return club
    return Club.objects.filter(clubs_visible_q(user=user), pk=club.pk).first()


def player_visible(*, user: ActingUser, player_id: int) -> Player | None:
    """The player with this id, with their club, if the user may see them; one query."""
    return players_visible(user=user).filter(pk=player_id).first()


def players_not_entered(*, tournament: Tournament, user: ActingUser) -> QuerySet[Player]:
    """Players the user may see (``access.players_visible_q``) not entered here yet."""
    return (
        Player.objects.filter(players_visible_q(user=user))
        .exclude(entries__tournament=tournament)
        .order_by("name", "id")
    )


def players_known_not_entered(*, tournament: Tournament, user: ActingUser) -> QuerySet[Player]:
    """The players a user works with, not entered here yet, with their clubs: those
    they made, those entered in a tournament they own or co-organise, and the
    members of a club they organise (made or co-organised). Not every player the
    user may see (staff see all, anyone every public tournament's): the desk's
    list of players to tick; the search still finds any visible player."""
    u = user_or_none(user)
    if u is None:
        return Player.objects.none()
    organised = Tournament.objects.filter(tournaments_own_q(user=u)).values("pk")
    co_organised = Club.co_organisers.through.objects.filter(user_id=u.pk).values("club_id")
    known = (
        Q(created_by_id=u.pk)
        | Q(pk__in=Entry.objects.filter(tournament__in=organised).values("player_id"))
        | Q(club__created_by_id=u.pk)
        | Q(club_id__in=co_organised)
    )
    return players_not_entered(tournament=tournament, user=u).filter(known).select_related("club")


def players_not_entered_found(
    *, tournament: Tournament, user: ActingUser, query: str, limit: int
) -> list[Player]:
    """At most ``limit`` players not entered whose name and club's name match
    ``query`` (``search_names.name_matches``), with their clubs; one query.
    Accents are no SQL: the names are compared as they are read."""
    found: list[Player] = []
    candidates = players_not_entered(tournament=tournament, user=user).select_related("club")
    for player in candidates.iterator(chunk_size=2000):
        if name_matches(query, f"{player.name} {player.club.name if player.club else ''}"):
            found.append(player)
            if len(found) >= limit:
                break
    return found


def players_owned(*, user: ActingUser) -> QuerySet[Player]:
    """Players the user may change (``access.player_editable``): those they
    created, all for staff; none for nobody logged in."""
    u = user_or_none(user)
    if u is None:
        return Player.objects.none()
    return Player.objects.all() if u.is_staff else Player.objects.filter(created_by_id=u.pk)


def player_names(*, ids: Collection[int]) -> dict[int, str]:
    """The names of the players with these ids (missing ones left out); one
    query, none for no id."""
    if not ids:
        return {}
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))


def clubs_all() -> QuerySet[Club]:
    """Every club, by name (a choice field's full set; narrow it per user)."""
    return Club.objects.order_by("name")


def clubs_visible(*, user: ActingUser) -> QuerySet[Club]:
    """The clubs a user may see, by name."""
    return Club.objects.filter(clubs_visible_q(user=user)).order_by("name")


def clubs_usable(*, user: ActingUser, kept: int | None = None) -> QuerySet[Club]:
    """The clubs the user may name (``access.clubs_usable_q``), by name, and the
    club with the id ``kept`` (the one already named, which stays nameable)."""
    usable = clubs_usable_q(user=user)
    if kept is not None:
        usable |= Q(pk=kept)
    return Club.objects.filter(usable).order_by("name")


def clubs_listed(*, user: ActingUser) -> QuerySet[Club]:
    """The clubs a user may see, each with ``player_count``: the players of it they may see."""
    seen = Player.objects.filter(players_visible_q(user=user)).values("pk")
    return (
        Club.objects.filter(clubs_visible_q(user=user))
        .annotate(player_count=Count("players", filter=Q(players__in=seen)))
        .order_by("name")
    )


def users_named(*, usernames: Collection[str]) -> dict[str, Any]:
    """The user accounts with these usernames, by username (unknown ones left
    out); one query."""
    return {u.get_username(): u for u in get_user_model().objects.filter(username__in=usernames)}


def user_named(*, username: str) -> Any | None:
    """The user account with this username, or None; one query."""
    return get_user_model().objects.filter(username=username).first()
