"""Tournaments as the pages, the API and the commands look them up.

Vocabulary: a tournament is *visible* to a user when ``access.tournaments_visible_q``
lets them see it (public ones, their own, all for staff); *theirs* when they own
or co-organise it (``access.tournaments_own_q``). A *ref* is what a command is
given: a slug, or an id. An *invitation* to co-organise is *pending* until its
user answers it; a user's own are those ``access.invitations_for_q`` gives them.
"""

from __future__ import annotations

from django.db.models import OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from tournaments.access import (
    invitations_for_q,
    tournaments_organised_flag,
    tournaments_own_q,
    tournaments_visible_q,
)
from tournaments.actors import ActingUser
from tournaments.caching import TournamentHead
from tournaments.models import AuditEvent, CoOrganiserInvitation, Tournament


def tournament_by_ref(*, ref: str) -> Tournament:
    """A tournament by slug, or by id when ``ref`` is a number (raises DoesNotExist)."""
    qs = Tournament.objects.select_related("club", "owner")
    found = qs.filter(slug=ref).first()
    if found is None and ref.isdigit():
        found = qs.filter(pk=int(ref)).first()
    if found is None:
        raise Tournament.DoesNotExist(ref)
    return found


def tournaments_visible(*, user: ActingUser) -> QuerySet[Tournament]:
    """Tournaments a user may see (see ``access.tournaments_visible_q``)."""
    return Tournament.objects.select_related("club", "owner").filter(
        tournaments_visible_q(user=user)
    )


def tournament_visible(
    *, user: ActingUser, slug: str | None = None, pk: int | None = None
) -> Tournament | None:
    """The tournament with this slug (or, without one, this id) if the user may
    see it, with its club and owner (None: not one they may see); one query."""
    visible = tournaments_visible(user=user)
    if slug is not None:
        return visible.filter(slug=slug).first()
    return visible.filter(pk=pk).first() if pk is not None else None


def tournament_head_visible(
    *, user: ActingUser, slug: str | None = None, pk: int | None = None
) -> TournamentHead | None:
    """The head of the tournament with this slug (or, without one, this id)
    if the user may see it (None:
    not one they may see): what a live answer's tag is made of, with its
    version and whether they organise it; one small query, so that a poll
    answered 304 reads nothing more."""
    latest = AuditEvent.objects.filter(tournament_id=OuterRef("pk")).order_by("-id").values("id")
    row = (
        Tournament.objects.filter(
            tournaments_visible_q(user=user), Q(slug=slug) if slug is not None else Q(pk=pk)
        )
        .annotate(
            live_version=Coalesce(Subquery(latest[:1]), Value(0)),
            organised=tournaments_organised_flag(user=user),
        )
        .order_by()
        .values_list("pk", "created", "public", "live_version", "organised")[:1]
    )
    found = list(row)
    return TournamentHead(*found[0]) if found else None


def tournaments_mine(*, user: ActingUser) -> QuerySet[Tournament]:
    """Tournaments the user owns or co-organises (see ``access.tournaments_own_q``)."""
    return Tournament.objects.select_related("club").filter(tournaments_own_q(user=user))


def co_organiser_names(*, tournament: Tournament) -> list[str]:
    """The usernames of the tournament's co-organisers, A to Z; one query."""
    return list(tournament.co_organisers.order_by("username").values_list("username", flat=True))


def invitations_pending(*, user: ActingUser) -> QuerySet[CoOrganiserInvitation]:
    """The invitations addressed to the user, oldest first, each with its
    tournament and who invited them; one query."""
    return CoOrganiserInvitation.objects.select_related("tournament", "invited_by").filter(
        invitations_for_q(user=user)
    )


def invitation_pending(*, user: ActingUser, pk: int) -> CoOrganiserInvitation | None:
    """The invitation with this id if it is addressed to the user (None: not
    theirs, or none); one query."""
    return invitations_pending(user=user).filter(pk=pk).first()


def invited_names(*, tournament: Tournament) -> list[str]:
    """The usernames invited to co-organise the tournament, not answered yet, A to Z;
    one query."""
    return list(
        CoOrganiserInvitation.objects.filter(tournament=tournament)
        .order_by("username")
        .values_list("username", flat=True)
    )
