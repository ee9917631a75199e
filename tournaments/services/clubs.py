"""Club services: a club made, changed and deleted; who organises it; its members.

Vocabulary: a *club* has a name no other club has, a city, an address (its
*slug*, ``/c/<slug>/``) and a visibility (``public``). Its *organisers* are
its creator, its *co-organisers* and staff (``access.club_organiser``): they
change its name, city and slug and manage its *members* (the players whose
club it is). Its creator and staff alone (``access.club_editable``) make it
public or private, invite co-organisers, withdraw invitations, remove
co-organisers and delete it: as for a tournament, a user is *invited* by
username (``ClubInvitation``) and becomes a co-organiser by *accepting*; a
co-organiser may *remove* themselves (leave). Inviting answers the same
whether or not an account has the username.

A member is *added* (a new player, or an existing one the user may change:
``access.player_editable``), *imported* from a players file (the desk's
preview and import, every line's club being this one; a name no member has
may be one of the user's own players of no club, who joins) or *leaves* (the
player keeps everything, without a club).

Every action records its event in the club's own trail (``AuditEvent.club``,
no tournament), which its organisers read; a change of the club's name or
city is recorded as well in every tournament that shows the club (named, or a
player of it entered), which tells those tournaments' cached pages they are
stale. ``by``/``user`` is who acts: a user, or ``None`` for the system (a
command, the admin's staff), which has every right.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.db.models import Q, QuerySet

from scoring.errors import ConflictError, NotFoundError, UserError, _
from tournaments.access import (
    club_editable,
    club_organiser,
    invitation_for,
    player_editable,
    user_or_none,
)
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Club, ClubInvitation, Entry, Player, Tournament
from tournaments.selectors.people import players_owned
from tournaments.services import players_file
from tournaments.services.audit import audit_add, audit_changes, audit_value, audit_values
from tournaments.services.club_slugs import SLUGS_RESERVED, club_slugs_free
from tournaments.services.co_organisers import USERNAME_MAX, NotAllowedError
from tournaments.services.model_checks import model_checked

Action = AuditEvent.Action
# What a club's organisers change; ``public`` is its creator's (and staff's).
CLUB_SETTINGS = frozenset({"name", "city", "slug", "public"})
# Shown in the trails of the tournaments that show the club.
CLUB_SHOWN = ("name", "city")
SLUG_MAX = Club._meta.get_field("slug").max_length or 80
FIELD = "co_organisers"


# ----------------------------------------------------------------------------- the trail


def _club_audit(
    *,
    club: Club,
    action: str,
    user: ActingUser,
    object_id: int | None = None,
    old: Any = None,
    new: Any = None,
) -> AuditEvent:
    """Record one change in the club's own trail."""
    u = user_or_none(user)
    return AuditEvent.objects.create(
        club=club,
        user=u,
        username=u.get_username() if u is not None else "",
        action=action,
        object_id=object_id,
        old=audit_value(old),
        new=audit_value(new),
    )


def _tournaments_showing(club: Club) -> Any:
    """The tournaments whose pages show the club (named, or a player of it entered)."""
    entered = Entry.objects.filter(player__club=club).values("tournament_id")
    return Tournament.objects.filter(Q(club=club) | Q(pk__in=entered)).order_by("id")


def _shown_changed(*, club: Club, action: str, user: ActingUser, old: Any, new: Any) -> None:
    for tournament in _tournaments_showing(club):
        audit_add(
            tournament=tournament, action=action, user=user, object_id=club.pk, old=old, new=new
        )


# ----------------------------------------------------------------------------- the club


def _text(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _slug_check(club: Club) -> None:
    slug = club.slug
    if len(slug) > SLUG_MAX:
        raise UserError(
            _("The slug can be at most %(max)s characters long."), field="slug", max=SLUG_MAX
        )
    try:
        validate_slug(slug)
    except ValidationError as error:
        raise UserError(
            _("The slug “%(slug)s” is not valid: use letters, numbers, hyphens and underscores."),
            field="slug",
            slug=slug,
        ) from error
    if slug in SLUGS_RESERVED or Club.objects.filter(slug=slug).exclude(pk=club.pk).exists():
        raise UserError(_("This slug is not available; choose another."), field="slug")


def _club_checked(club: Club) -> Club:
    club.name, club.city, club.slug = _text(club.name), _text(club.city), _text(club.slug)
    if not club.name:
        raise UserError(_("Give the club a name."), field="name")
    if Club.objects.filter(name=club.name).exclude(pk=club.pk).exists():
        raise UserError(_("There is already a club named %(name)s."), field="name", name=club.name)
    _slug_check(club)
    model_checked(club)
    return club


@transaction.atomic
def club_create(
    *,
    name: str,
    city: str = "",
    public: bool = True,
    slug: str = "",
    created_by: ActingUser,
) -> Club:
    """A new club; ``created_by`` (a user, or None: staff only) organises it. Its
    slug is made from its name unless one is given."""
    name = _text(name) or ""
    club = Club(
        name=name,
        city=city,
        public=public,
        slug=_text(slug) or club_slugs_free([name])[0],
        created_by=user_or_none(created_by),
    )
    _club_checked(club)
    club.save()
    _club_audit(
        club=club,
        action=Action.CLUB_CREATED,
        user=created_by,
        object_id=club.pk,
        new=audit_values(club, sorted(CLUB_SETTINGS)),
    )
    return club


def _rights_check(*, club: Club, user: ActingUser, owner: bool) -> None:
    """Refuse (403) unless ``user`` organises the club (``owner``: has its creator's
    rights); ``None``, the system, has every right."""
    if user is None:
        return
    if owner and not club_editable(user=user, club=club):
        raise NotAllowedError(_("Only the club's creator may do this."))
    if not club_organiser(user=user, club=club):
        raise NotAllowedError(_("Only the club's organisers may change it."))


@transaction.atomic
def club_update(*, club: Club, user: ActingUser = None, **changes: Any) -> Club:
    """Change a club's name, city or slug (its organisers) or make it public or
    private (its creator); the club's trail records it, and the tournaments
    showing it a change of name or city."""
    unknown = sorted(set(changes) - CLUB_SETTINGS)
    if unknown:
        raise TypeError(f"Not a club field: {', '.join(unknown)}")
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = audit_values(club, sorted(CLUB_SETTINGS))
    for name, value in changes.items():
        setattr(club, name, value)
    if "slug" in changes and not _text(club.slug):
        club.slug = before["slug"]  # left blank: the address stays
    _club_checked(club)
    old, new = audit_changes(before, audit_values(club, sorted(CLUB_SETTINGS)))
    if not new:
        return club
    _rights_check(club=club, user=user, owner="public" in new)
    club.save()
    _club_audit(
        club=club, action=Action.CLUB_CHANGED, user=user, object_id=club.pk, old=old, new=new
    )
    shown = [name for name in CLUB_SHOWN if name in new]
    if shown:
        _shown_changed(
            club=club,
            action=Action.CLUB_CHANGED,
            user=user,
            old={name: old[name] for name in shown},
            new={name: new[name] for name in shown},
        )
    return club


@transaction.atomic
def club_delete(*, club: Club, user: ActingUser = None) -> None:
    """Delete a club (its creator's right); its players and tournaments stay,
    without a club (recorded in each tournament that showed it). Its own trail
    goes with it."""
    _rights_check(club=club, user=user, owner=True)
    _shown_changed(
        club=club,
        action=Action.CLUB_DELETED,
        user=user,
        old=audit_values(club, list(CLUB_SHOWN)),
        new=None,
    )
    club.delete()


# ----------------------------------------------------------------------------- who organises it


def _username_clean(username: Any) -> str:
    name = username.strip() if isinstance(username, str) else ""
    if not name:
        raise UserError(_("Give a username."), field=FIELD)
    if len(name) > USERNAME_MAX:
        raise UserError(
            _("A username has at most %(max)s characters."), field=FIELD, max=USERNAME_MAX
        )
    return name


def _co_organiser_names(club: Club) -> set[str]:
    return {u.get_username() for u in club.co_organisers.all()}


@transaction.atomic
def club_invitation_send(*, club: Club, by: ActingUser, username: str) -> ClubInvitation:
    """Invite the user with this username to co-organise the club (its creator's
    right). Inviting again answers the invitation already waiting."""
    _rights_check(club=club, user=by, owner=True)
    name = _username_clean(username)
    club = Club.objects.select_for_update().get(pk=club.pk)
    creator = club.created_by
    if creator is not None and name == creator.get_username():
        raise UserError(
            _("The club's creator organises it already; name other users as co-organisers."),
            field=FIELD,
        )
    if name in _co_organiser_names(club):
        raise ConflictError(
            _("“%(username)s” co-organises this club already."), field=FIELD, username=name
        )
    waiting = ClubInvitation.objects.filter(club=club, username=name).first()
    if waiting is not None:
        return waiting
    invitation = ClubInvitation.objects.create(
        club=club, username=name, invited_by=user_or_none(by)
    )
    _club_audit(
        club=club,
        action=Action.INVITATION_SENT,
        user=by,
        object_id=invitation.pk,
        new={"username": name},
    )
    return invitation


def _invitation_locked(invitation: ClubInvitation) -> ClubInvitation:
    found = (
        ClubInvitation.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=invitation.pk)
        .first()
    )
    if found is None:
        raise ConflictError(_("This invitation has been answered or withdrawn already."))
    return found


def _answer_check(invitation: ClubInvitation, user: ActingUser) -> None:
    if not invitation_for(user=user, invitation=invitation):
        raise NotAllowedError(_("This invitation is addressed to another user."))


@transaction.atomic
def club_invitation_accept(*, invitation: ClubInvitation, user: ActingUser) -> Club:
    """The invited user accepts: they co-organise the club from now on."""
    _answer_check(invitation, user)
    invitation = _invitation_locked(invitation)
    club = invitation.club
    club.co_organisers.add(user_or_none(user))
    invitation.delete()
    _club_audit(
        club=club,
        action=Action.INVITATION_ACCEPTED,
        user=user,
        new={"username": invitation.username},
    )
    return club


@transaction.atomic
def club_invitation_decline(*, invitation: ClubInvitation, user: ActingUser) -> None:
    """The invited user declines: the invitation goes, nothing else changes."""
    _answer_check(invitation, user)
    invitation = _invitation_locked(invitation)
    invitation.delete()
    _club_audit(
        club=invitation.club,
        action=Action.INVITATION_DECLINED,
        user=user,
        old={"username": invitation.username},
    )


@transaction.atomic
def club_invitation_withdraw(*, club: Club, by: ActingUser, username: str) -> None:
    """The club's creator withdraws the invitation waiting for this username (404
    when there is none)."""
    _rights_check(club=club, user=by, owner=True)
    invitation = ClubInvitation.objects.filter(club=club, username=username).first()
    if invitation is None:
        raise NotFoundError(
            _("No invitation to “%(username)s” waits for an answer."), username=username
        )
    invitation = _invitation_locked(invitation)
    invitation.delete()
    _club_audit(club=club, action=Action.INVITATION_WITHDRAWN, user=by, old={"username": username})


@transaction.atomic
def club_co_organiser_remove(*, club: Club, by: ActingUser, username: str) -> None:
    """Remove a co-organiser: the creator's right, or the co-organiser's own (leaving)."""
    leaving = (u := user_or_none(by)) is not None and u.get_username() == username
    if not leaving:
        _rights_check(club=club, user=by, owner=True)
    club = Club.objects.select_for_update().get(pk=club.pk)
    removed = [u for u in club.co_organisers.all() if u.get_username() == username]
    if not removed:
        raise NotFoundError(
            _("“%(username)s” is not a co-organiser of this club."), username=username
        )
    club.co_organisers.remove(*removed)
    _club_audit(
        club=club,
        action=Action.CO_ORGANISER_REMOVED,
        user=by,
        object_id=removed[0].pk,
        old={"username": username},
    )


# ----------------------------------------------------------------------------- members


def _member_event(*, club: Club, action: str, user: ActingUser, players: list[Player]) -> None:
    if not players:
        return
    names = [p.name for p in players]
    values = {"players": [p.pk for p in players], "names": names}
    _club_audit(
        club=club,
        action=action,
        user=user,
        object_id=players[0].pk if len(players) == 1 else None,
        old=values if action == Action.MEMBER_REMOVED else None,
        new=values if action == Action.MEMBER_ADDED else None,
    )


@transaction.atomic
def member_add(
    *,
    club: Club,
    user: ActingUser,
    name: str = "",
    player: Player | None = None,
) -> Player:
    """Make a player a member (the club's organisers): a new one by ``name``, or an
    existing ``player`` the user may change (``access.player_editable``)."""
    # The players services name this module's services: they are asked at call time.
    from tournaments.services import players as player_services

    _rights_check(club=club, user=user, owner=False)
    if player is None:
        added = player_services.player_create(name=name, club=club, created_by=user)
    else:
        if user is not None and not player_editable(user=user, player=player):
            raise NotAllowedError(
                _("Only the user who created this player, or staff, may change them."),
                field="player",
            )
        if Player.objects.filter(pk=player.pk, club=club).exists():
            raise ConflictError(
                _("%(name)s is a member already."), field="player", name=player.name
            )
        added = player_services.player_update(player=player, user=user, club=club)
    _member_event(club=club, action=Action.MEMBER_ADDED, user=user, players=[added])
    return added


@transaction.atomic
def member_remove(*, club: Club, player: Player, user: ActingUser) -> Player:
    """A member leaves the club (its organisers, or the player's creator): the player
    keeps their results, without a club."""
    from tournaments.services import players as player_services

    if not Player.objects.filter(pk=player.pk, club=club).exists():
        raise NotFoundError(_("%(name)s is not a member of this club."), name=player.name)
    if user is not None and not player_editable(user=user, player=player):
        _rights_check(club=club, user=user, owner=False)
    left = player_services.player_update(player=player, user=user, club=None)
    _member_event(club=club, action=Action.MEMBER_REMOVED, user=user, players=[left])
    return left


def members_file(*, club: Club, text: str) -> str:
    """A members file as the players file ``players_file`` imports: each line's
    name (the first column, or the one a header calls ``name`` in any of the
    pages' languages: ``players_file.HEADERS``) with this club, line for line,
    so that a problem names the line the organiser wrote. The separator is
    read as a players file's is (``players_file.delimiter_of``)."""
    text = text.removeprefix("\ufeff")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    column, first = 0, True
    for row in csv.reader(io.StringIO(text), delimiter=players_file.delimiter_of(text)):
        cells = [cell.strip() for cell in row]
        if not any(cells):
            out.write("\n")
            continue
        if first:
            first = False
            header = players_file.header_columns(cells)
            if header is not None:
                column = header["name"]
                writer.writerow(["name", "club"])
                continue
        writer.writerow([cells[column] if len(cells) > column else "", club.name])
    return out.getvalue()


def _adoptable(*, user: ActingUser) -> QuerySet[Player]:
    """The players a members file may make members although no member has their
    name: the user's own players of no club (``selectors.people.players_owned``)."""
    return players_owned(user=user).filter(club__isnull=True)


def members_import_preview(
    *, club: Club, text: str, user: ActingUser, new_lines: Collection[int] = ()
) -> players_file.ImportPreview:
    """Check a members file as ``members_import`` would, storing nothing: a line
    matches a member of that name, else one of the user's players of no club
    (who joins), unless its number is in ``new_lines``."""
    return players_file.players_import_preview(
        text=members_file(club=club, text=text),
        user=user,
        new_lines=new_lines,
        adoptable=_adoptable(user=user),
    )


@transaction.atomic
def members_import(
    *, club: Club, text: str, user: ActingUser, new_lines: Collection[int] = ()
) -> players_file.ImportResult:
    """Import a members file (the club's organisers), all or nothing: each name is
    a member of the club: new, a member already (same name), or one of the
    user's players of no club, who joins (unless the line is in ``new_lines``)."""
    from tournaments.services import players as player_services

    _rights_check(club=club, user=user, owner=False)
    result = players_file.players_import(
        text=members_file(club=club, text=text),
        user=user,
        new_lines=new_lines,
        adoptable=_adoptable(user=user),
    )
    joined = [
        player_services.player_update(player=p, user=user, club=club)
        for p in result.existing
        if p.club_id != club.pk
    ]
    _member_event(
        club=club, action=Action.MEMBER_ADDED, user=user, players=[*result.created, *joined]
    )
    return result
