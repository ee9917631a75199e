"""Who may see and change what: one rule for the pages, the API, the files and the admin.

Vocabulary:

* an *organiser* of a tournament is its owner, one of its *co-organisers*
  (users the owner invited for this tournament only, once they accepted) or a
  staff user; organisers run the tournament: they change it and everything in
  it (entries, rounds, games, adjustments) and see its private parts (match
  tokens, score sheets, the audit trail);
* the *owner's rights* (``tournament_owner``: the owner and staff, never a
  co-organiser) are the rest: deleting the tournament, changing its
  visibility (``public``) and who organises it (inviting and removing
  co-organisers, withdrawing invitations); a co-organiser may only leave;
* an *invited* user (``invitations_for_q``) has no right on the tournament
  until they accept: they see the invitation (the tournament's name and who
  invited them), nothing else. An invitation names a username; it is that
  user's only when their account is older than the invitation, so that an
  account made later with an invited name gets nothing;
* a tournament is *visible* to a user when it is public or the user organises
  it; everything else answers 404, so that a private tournament's existence is
  not told;
* a club or a player has a *creator* (``created_by``: the user who made it;
  none for rows staff alone look after) and is *editable* by its creator and
  by staff only: entering a player in one's tournament, or naming a club,
  gives no right to change them;
* a player is *visible* when entered in a public tournament; a logged-in user
  also sees those they created and those of the tournaments they organise,
  staff all; one not visible answers 404, like a private tournament;
* a club's *organisers* (``club_organiser``) are its creator, its
  co-organisers (invited by username, as for a tournament, once they
  accepted) and staff: they manage its members; its creator and staff alone
  delete it, change its visibility and who organises it (``club_editable``);
  organising a club gives no right over anyone's tournaments;
* a club is *visible* when it is ``public``; a *private* club only to its
  organisers and staff, and by name to the organisers of a tournament naming
  it and the creator of a player of it; its *members* (players whose club it
  is) are all shown to its organisers only, to anyone else only those they may
  see anyway (``club_members_all``); one not visible answers 404;
* a club is *usable* by a user (``clubs_usable_q``: a tournament or a player
  may name it) when it is public or they organise it; staff use all. A club
  the user may not use answers as one that does not exist;
* a club's *seasons* are seen by whoever sees its page in full
  (``season_visible``: a public club's by anyone, a private one's by its
  organisers) and made, changed and deleted by its organisers; a tournament
  may name (join as an evening) a season of a club its user organises
  (``seasons_organised_q``), any other answers as one that does not exist;
* a *user* here is the acting user (``actors.ActingUser``): whatever a request
  carries, a user or ``AnonymousUser``, or ``None`` (a command, a test, a match link);
* many rows of many tournaments ask ``organised_by`` once for the user: the same
  rule as ``tournament_organiser``, with one query in all.

Match links (a table's private token) grant recording that match's games and
nothing else; the API and the match page check them where they are presented.
Under double entry, a game waiting for its second entry keeps its racks from
everyone but the organisers (``game_racks_withheld``), so that the second entry
is typed on its own rather than copied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import BooleanField, Case, Q, Value, When

from tournaments.actors import ActingUser
from tournaments.models import (
    Club,
    ClubInvitation,
    CoOrganiserInvitation,
    Entry,
    Game,
    Player,
    Season,
    Tournament,
)


def user_or_none(user: ActingUser) -> Any:
    """The user to record as having made a change, or ``None`` for nobody logged in."""
    return user if getattr(user, "is_authenticated", False) else None


def user_is_staff(user: ActingUser) -> bool:
    return bool(getattr(user_or_none(user), "is_staff", False))


def tournament_organiser(*, user: ActingUser, tournament: Tournament) -> bool:
    """Whether the user may change the tournament and everything in it."""
    u = user_or_none(user)
    if u is None:
        return False
    if u.is_staff or tournament.owner_id == u.pk:
        return True
    # One query, or none when the co-organisers were prefetched.
    return any(c.pk == u.pk for c in tournament.co_organisers.all())


def tournament_owner(*, user: ActingUser, tournament: Tournament) -> bool:
    """Whether the user has the owner's rights: deleting the tournament, changing
    its visibility and who organises it (the owner and staff)."""
    u = user_or_none(user)
    return u is not None and bool(u.is_staff or tournament.owner_id == u.pk)


def invitations_for_q(*, user: ActingUser) -> Q:
    """A filter on co-organiser invitations for those addressed to the user: their
    username, sent after their account was made."""
    u = user_or_none(user)
    if u is None:
        return Q(pk__in=[])
    mine = Q(username=u.get_username())
    joined = getattr(u, "date_joined", None)
    return mine & Q(created__gte=joined) if joined is not None else mine


def invitation_for(*, user: ActingUser, invitation: CoOrganiserInvitation | ClubInvitation) -> bool:
    """Whether the invitation is addressed to the user (``invitations_for_q``)."""
    u = user_or_none(user)
    if u is None or invitation.username != u.get_username():
        return False
    joined = getattr(u, "date_joined", None)
    return joined is None or invitation.created >= joined


def organised_by(*, user: ActingUser) -> Callable[[Tournament], bool]:
    """Whether ``user`` organises a tournament (``tournament_organiser``), for many
    rows of many tournaments at once: the owner and staff need no query, the
    co-organised tournaments one in all."""
    u = user_or_none(user)
    if u is None:
        return lambda tournament: False
    if u.is_staff:
        return lambda tournament: True
    own: set[int] | None = None

    def organises(tournament: Tournament) -> bool:
        nonlocal own
        if tournament.owner_id == u.pk:
            return True
        if own is None:
            own = set(
                Tournament.objects.filter(tournaments_own_q(user=u)).values_list("pk", flat=True)
            )
        return tournament.pk in own

    return organises


def tournaments_own_q(*, user: ActingUser) -> Q:
    """A filter on tournaments for those the user owns or co-organises (staff or not)."""
    u = user_or_none(user)
    if u is None:
        return Q(pk__in=[])
    # A subquery, not a join on the co-organisers: one row per tournament.
    co_organised = Tournament.co_organisers.through.objects.filter(user_id=u.pk)
    return Q(owner_id=u.pk) | Q(pk__in=co_organised.values("tournament_id"))


def tournaments_organised_q(*, user: ActingUser) -> Q:
    """A filter on tournaments for those the user organises (staff: all)."""
    return Q() if user_is_staff(user) else tournaments_own_q(user=user)


def tournaments_organised_flag(*, user: ActingUser) -> Case | Value:
    """An expression on tournaments: whether the user organises each, as
    ``tournament_organiser`` decides it (staff: all; the owner and the
    co-organisers), for a query that reads it beside other columns."""
    u = user_or_none(user)
    if u is None:
        return Value(False)
    if u.is_staff:
        return Value(True)
    return Case(
        When(tournaments_own_q(user=u), then=True), default=False, output_field=BooleanField()
    )


def tournaments_visible_q(*, user: ActingUser) -> Q:
    """A filter on tournaments for those the user may see: public ones and their own."""
    u = user_or_none(user)
    if u is None:
        return Q(public=True)
    return Q() if u.is_staff else Q(public=True) | tournaments_organised_q(user=u)


def tournament_visible(*, user: ActingUser, tournament: Tournament) -> bool:
    return tournament.public or tournament_organiser(user=user, tournament=tournament)


def club_organiser(*, user: ActingUser, club: Club) -> bool:
    """Whether the user organises the club (its members, seasons and evenings):
    its creator, a co-organiser, or staff."""
    u = user_or_none(user)
    if u is None:
        return False
    if u.is_staff or club.created_by_id == u.pk:
        return True
    # One query, or none when the co-organisers were prefetched.
    return any(c.pk == u.pk for c in club.co_organisers.all())


def club_editable(*, user: ActingUser, club: Club) -> bool:
    """Whether the user may change or delete the club: its creator and staff."""
    u = user_or_none(user)
    return u is not None and bool(u.is_staff or club.created_by_id == u.pk)


def player_editable(*, user: ActingUser, player: Player) -> bool:
    """Whether the user may change or delete the player: their creator and staff."""
    u = user_or_none(user)
    return u is not None and bool(u.is_staff or player.created_by_id == u.pk)


def _entries_seen(*, user: ActingUser) -> Any:
    """The entries whose player a user sees by their tournament (public or organised)."""
    u = user_or_none(user)
    if u is None:
        return Entry.objects.filter(tournament__public=True)
    organised = Tournament.objects.filter(tournaments_own_q(user=u)).values("pk")
    return Entry.objects.filter(Q(tournament__public=True) | Q(tournament__in=organised))


def players_visible_q(*, user: ActingUser) -> Q:
    """A filter on players for those the user may see (lists and details alike)."""
    u = user_or_none(user)
    if u is not None and u.is_staff:
        return Q()
    # Subqueries, not joins: one row per player, whatever their entries.
    seen = Q(pk__in=_entries_seen(user=u).values("player_id"))
    return seen if u is None else seen | Q(created_by_id=u.pk)


def clubs_organised_q(*, user: ActingUser) -> Q:
    """A filter on clubs for those the user organises (``club_organiser``): created
    or co-organised; staff all; none for nobody logged in."""
    u = user_or_none(user)
    if u is None:
        return Q(pk__in=[])
    if u.is_staff:
        return Q()
    # A subquery, not a join on the co-organisers: one row per club.
    co_organised = Club.co_organisers.through.objects.filter(user_id=u.pk)
    return Q(created_by_id=u.pk) | Q(pk__in=co_organised.values("club_id"))


def clubs_visible_q(*, user: ActingUser) -> Q:
    """A filter on clubs for those the user may see (lists and details alike):
    public ones, those they organise, and a private one named by a tournament
    they organise or the club of a player they made (shown with it); staff all."""
    u = user_or_none(user)
    if u is None:
        return Q(public=True)
    if u.is_staff:
        return Q()
    named = Tournament.objects.filter(tournaments_own_q(user=u), club__isnull=False)
    made = Player.objects.filter(created_by_id=u.pk, club__isnull=False).values("club_id")
    return (
        Q(public=True)
        | clubs_organised_q(user=u)
        | Q(pk__in=named.values("club_id"))
        | Q(pk__in=made)
    )


def club_members_all(*, user: ActingUser, club: Club) -> bool:
    """Whether the user sees every member of the club (its organisers and staff);
    anyone else sees only the members they may see anyway (``players_visible_q``),
    so that a club, public or named by a tournament, tells no more of its players."""
    return club_organiser(user=user, club=club)


def clubs_usable_q(*, user: ActingUser) -> Q:
    """A filter on clubs for those a tournament or a player of the user may name:
    public ones and those they organise; staff all."""
    u = user_or_none(user)
    if u is None:
        return Q(public=True)
    return Q() if u.is_staff else Q(public=True) | clubs_organised_q(user=u)


def season_visible(*, user: ActingUser, season: Season) -> bool:
    """Whether the user sees the season and its table: whoever sees its club's
    page in full (a public club: anyone; a private one: its organisers)."""
    return season.club.public or club_organiser(user=user, club=season.club)


def seasons_organised_q(*, user: ActingUser) -> Q:
    """A filter on seasons for those the user organises (their club's organisers):
    the seasons a tournament of theirs may join as an evening."""
    return Q(club__in=Club.objects.filter(clubs_organised_q(user=user)).values("pk"))


def game_racks_withheld_q(*, prefix: str = "") -> Q:
    """A filter for the games whose racks a viewer who does not organise them is
    kept from (``game_racks_withheld``), on games or through ``prefix`` (``game__``)."""
    return Q(
        **{
            f"{prefix}state": Game.State.ENTERED,
            f"{prefix}match__round__tournament__confirmation": Tournament.Confirmation.DOUBLE_ENTRY,
        }
    )


def game_racks_withheld(*, game: Game, tournament: Tournament, organiser: bool) -> bool:
    """Whether a viewer (``organiser`` or not) is kept from the game's racks and
    scores (``game_racks_withheld_q`` the same as a filter)."""
    return (
        not organiser
        and game.state == Game.State.ENTERED
        and tournament.confirmation == Tournament.Confirmation.DOUBLE_ENTRY
    )
