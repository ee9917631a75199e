"""Clubs as their pages and the API read them.

Vocabulary: a club is *shown* to a user when ``access.clubs_visible_q`` says
so (a public one to anyone; a private one to its organisers and staff, and by
name to the organisers of a tournament naming it); anything else is ``None``
here and a 404 above. Its *members* are the players whose club it is: all of
them for its organisers, for anyone else only those they may see anyway
(``access.club_members_all``). Its *events* are the tournaments naming it
that the user may see, newest first. A club's *page* (``ClubPage``) is
everything ``/c/<slug>/`` draws, read in a fixed number of queries; sections
added later read their own selectors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet

from tournaments.access import (
    club_editable,
    club_members_all,
    club_organiser,
    clubs_organised_q,
    clubs_visible_q,
    invitations_for_q,
    players_visible_q,
    tournaments_visible_q,
)
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Club, ClubInvitation, Player, Tournament
from tournaments.selectors.people import players_owned

# The latest changes a club's page shows its organisers.
AUDIT_SHOWN = 20
# Players offered to become members, at most (a search narrows them).
CANDIDATES_MAX = 500


def _clubs(user: ActingUser) -> QuerySet[Club]:
    return (
        Club.objects.filter(clubs_visible_q(user=user))
        .select_related("created_by")
        .prefetch_related("co_organisers")
    )


def club_shown(*, user: ActingUser, slug: str) -> Club | None:
    """The club with this slug if the user may see it, with its creator and
    co-organisers; two queries (one when there is none)."""
    return _clubs(user).filter(slug=slug).first()


def club_shown_by_id(*, user: ActingUser, pk: int) -> Club | None:
    """The club with this id if the user may see it (as ``club_shown``)."""
    return _clubs(user).filter(pk=pk).first()


def clubs_shown(*, user: ActingUser) -> QuerySet[Club]:
    """The clubs a user may see, with their creators and co-organisers."""
    return _clubs(user).order_by("name", "id")


def clubs_listed(*, user: ActingUser) -> list[Club]:
    """The clubs a user may see, by name, each with ``member_count`` (the members
    they may see) and ``organised`` (whether they organise it); one query."""
    seen = Player.objects.filter(players_visible_q(user=user)).values("pk")
    organised = Club.objects.filter(clubs_organised_q(user=user)).values("pk")
    clubs = (
        Club.objects.filter(clubs_visible_q(user=user))
        .annotate(
            member_count=Count(
                "players", filter=Q(players__in=seen) | Q(pk__in=organised), distinct=True
            ),
            organised=ExpressionWrapper(Q(pk__in=organised), output_field=BooleanField()),
        )
        .order_by("name", "id")
    )
    return list(clubs)


def members_shown(*, user: ActingUser, club: Club) -> QuerySet[Player]:
    """The club's members the user may see (``access.club_members_all``), by name."""
    members = Player.objects.filter(club=club)
    if not club_members_all(user=user, club=club):
        members = members.filter(players_visible_q(user=user))
    return members.order_by("name", "id")


def members_of(*, user: ActingUser, club: Club) -> list[Player]:
    """``members_shown`` as a list; one query."""
    return list(members_shown(user=user, club=club))


def member_of(*, club: Club, player_id: int) -> Player | None:
    """The club's member with this id, or None; one query."""
    return Player.objects.filter(club=club, pk=player_id).first()


def member_candidates(*, user: ActingUser, club: Club) -> list[Player]:
    """Players the user may make members (those they may change, in another club
    or none), by name, at most ``CANDIDATES_MAX``; one query."""
    found = players_owned(user=user).exclude(club=club).select_related("club")
    return list(found.order_by("name", "id")[:CANDIDATES_MAX])


def club_events(*, user: ActingUser, club: Club) -> list[Tournament]:
    """The tournaments naming the club that the user may see, newest first; one query."""
    return list(
        Tournament.objects.filter(tournaments_visible_q(user=user), club=club)
        .only("name", "slug", "date", "status", "public", "created", "club_id")
        .order_by("-date", "-created", "-id")
    )


def club_invitations_waiting(*, club: Club) -> list[str]:
    """The usernames invited to co-organise the club, not answered yet, A to Z; one query."""
    return list(
        ClubInvitation.objects.filter(club=club)
        .order_by("username")
        .values_list("username", flat=True)
    )


def club_audit(*, club: Club, limit: int = AUDIT_SHOWN) -> list[AuditEvent]:
    """The club's own trail, newest first, at most ``limit`` events; one query."""
    return list(AuditEvent.objects.filter(club=club).order_by("-at", "-id")[:limit])


def club_invitations_pending(*, user: ActingUser) -> QuerySet[ClubInvitation]:
    """The club invitations addressed to the user, oldest first, each with its
    club and who invited them; one query."""
    return (
        ClubInvitation.objects.select_related("club", "invited_by")
        .filter(invitations_for_q(user=user))
        .order_by("created", "id")
    )


def club_invitation_pending(*, user: ActingUser, pk: int) -> ClubInvitation | None:
    """The club invitation with this id if it is addressed to the user; one query."""
    return club_invitations_pending(user=user).filter(pk=pk).first()


@dataclass
class ClubPage:
    """What ``/c/<slug>/`` draws: the club, who organises it, its members and events,
    and for its organisers the invitations waiting and the latest changes."""

    club: Club
    organiser: bool
    editable: bool
    members: list[Player]
    events: list[Tournament]
    co_organisers: list[str]
    invited: list[str] = field(default_factory=list)
    audit: list[AuditEvent] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def club_page(*, user: ActingUser, club: Club) -> ClubPage:
    """The club's page for the user (``club`` from ``club_shown``): members and
    events, two queries; an organiser's, four."""
    organiser = club_organiser(user=user, club=club)
    return ClubPage(
        club=club,
        organiser=organiser,
        editable=club_editable(user=user, club=club),
        members=members_of(user=user, club=club),
        events=club_events(user=user, club=club),
        co_organisers=sorted(u.get_username() for u in club.co_organisers.all()),
        invited=club_invitations_waiting(club=club) if organiser else [],
        audit=club_audit(club=club) if organiser else [],
    )
