"""Who organises a tournament: inviting co-organisers, their answers, removing them.

Vocabulary: the owner (or staff: ``access.tournament_owner``) *invites* a user
by username; the invitation waits (``CoOrganiserInvitation``) until the
invited user *accepts* it (they become a *co-organiser*) or *declines* it, or
the owner *withdraws* it. An invited user who has not accepted has no right on
the tournament. The owner *removes* a co-organiser; a co-organiser may remove
themselves (leave). ``co_organisers_set`` makes the organisers those named:
inviting the new names, withdrawing the invitations and removing the
co-organisers left out.

Inviting answers the same whether or not an account has the username, so that
it tells the inviter nothing about who has one: the invitation names the
username, and only an account older than it may answer it.

``by`` is who acts: a user, or ``None`` for the system (a command, an import),
which has the owner's rights. Every action records its event in the
tournament's trail, the usernames in its values.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from scoring.errors import ConflictError, NotFoundError, UserError, _
from tournaments.access import invitation_for, tournament_owner, user_or_none
from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, CoOrganiserInvitation, Tournament
from tournaments.services.audit import audit_add

USERNAME_MAX = 150
FIELD = "co_organisers"


class NotAllowedError(UserError):
    """A right the acting user does not have (HTTP 403)."""

    status = 403
    default_code = "permission_denied"


def owner_rights_check(*, tournament: Tournament, by: ActingUser) -> None:
    """Refuse (403) unless ``by`` has the owner's rights (``None``, the system, has)."""
    if by is not None and not tournament_owner(user=by, tournament=tournament):
        raise NotAllowedError(
            _("Only the tournament's owner may change who organises it."), field=FIELD
        )


def _username_clean(username: str) -> str:
    name = username.strip() if isinstance(username, str) else ""
    if not name:
        raise UserError(_("Give a username."), field=FIELD)
    if len(name) > USERNAME_MAX:
        raise UserError(
            _("A username has at most %(max)s characters."), field=FIELD, max=USERNAME_MAX
        )
    return name


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _co_organiser_names(tournament: Tournament) -> set[str]:
    return {u.get_username() for u in tournament.co_organisers.all()}


@transaction.atomic
def co_organiser_invite(
    *, tournament: Tournament, by: ActingUser, username: str
) -> CoOrganiserInvitation:
    """Invite the user with this username to co-organise the tournament (the owner's
    right). Inviting again answers the invitation already waiting."""
    owner_rights_check(tournament=tournament, by=by)
    name = _username_clean(username)
    tournament = _locked(tournament)
    if name == tournament.owner.get_username():
        raise UserError(
            _("The owner organises the tournament already; name other users as co-organisers."),
            field=FIELD,
        )
    if name in _co_organiser_names(tournament):
        raise ConflictError(
            _("“%(username)s” co-organises this tournament already."), field=FIELD, username=name
        )
    waiting = CoOrganiserInvitation.objects.filter(tournament=tournament, username=name).first()
    if waiting is not None:
        return waiting
    invitation = CoOrganiserInvitation.objects.create(
        tournament=tournament, username=name, invited_by=user_or_none(by)
    )
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.INVITATION_SENT,
        user=by,
        object_id=invitation.pk,
        new={"username": name},
    )
    return invitation


def _invitation_locked(invitation: CoOrganiserInvitation) -> CoOrganiserInvitation:
    found = (
        CoOrganiserInvitation.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .filter(pk=invitation.pk)
        .first()
    )
    if found is None:
        raise ConflictError(_("This invitation has been answered or withdrawn already."))
    return found


def _answer_check(invitation: CoOrganiserInvitation, user: ActingUser) -> None:
    if not invitation_for(user=user, invitation=invitation):
        raise NotAllowedError(_("This invitation is addressed to another user."))


@transaction.atomic
def co_organiser_invitation_accept(
    *, invitation: CoOrganiserInvitation, user: ActingUser
) -> Tournament:
    """The invited user accepts: they co-organise the tournament from now on."""
    _answer_check(invitation, user)
    invitation = _invitation_locked(invitation)
    tournament = invitation.tournament
    tournament.co_organisers.add(user_or_none(user))
    invitation.delete()
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.INVITATION_ACCEPTED,
        user=user,
        object_id=invitation.pk,
        new={"username": invitation.username},
    )
    return tournament


@transaction.atomic
def co_organiser_invitation_decline(*, invitation: CoOrganiserInvitation, user: ActingUser) -> None:
    """The invited user declines: the invitation goes, nothing else changes."""
    _answer_check(invitation, user)
    invitation = _invitation_locked(invitation)
    pk = invitation.pk
    invitation.delete()
    audit_add(
        tournament=invitation.tournament,
        action=AuditEvent.Action.INVITATION_DECLINED,
        user=user,
        object_id=pk,
        old={"username": invitation.username},
    )


@transaction.atomic
def co_organiser_invitation_withdraw(
    *, tournament: Tournament, by: ActingUser, username: str
) -> None:
    """The owner withdraws the invitation waiting for this username (404-like
    refusal when there is none)."""
    owner_rights_check(tournament=tournament, by=by)
    invitation = CoOrganiserInvitation.objects.filter(
        tournament=tournament, username=username
    ).first()
    if invitation is None:
        raise NotFoundError(
            _("No invitation to “%(username)s” waits for an answer."), username=username
        )
    invitation = _invitation_locked(invitation)
    pk = invitation.pk
    invitation.delete()
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.INVITATION_WITHDRAWN,
        user=by,
        object_id=pk,
        old={"username": username},
    )


@transaction.atomic
def co_organiser_remove(*, tournament: Tournament, by: ActingUser, username: str) -> None:
    """Remove a co-organiser: the owner's right, or the co-organiser's own (leaving)."""
    leaving = (u := user_or_none(by)) is not None and u.get_username() == username
    if not leaving:
        owner_rights_check(tournament=tournament, by=by)
    tournament = _locked(tournament)
    removed = [u for u in tournament.co_organisers.all() if u.get_username() == username]
    if not removed:
        raise NotFoundError(
            _("“%(username)s” is not a co-organiser of this tournament."), username=username
        )
    tournament.co_organisers.remove(*removed)
    audit_add(
        tournament=tournament,
        action=AuditEvent.Action.CO_ORGANISER_REMOVED,
        user=by,
        object_id=removed[0].pk,
        old={"username": username},
    )


def usernames_clean(usernames: Iterable[Any]) -> list[str]:
    """Usernames as given, stripped, each once, in order (blank ones refused)."""
    return list(dict.fromkeys(_username_clean(name) for name in usernames))


@transaction.atomic
def co_organisers_set(
    *, tournament: Tournament, by: ActingUser, usernames: Iterable[Any]
) -> list[str]:
    """Make the organisers those named (the owner's right): invite the new names,
    withdraw the invitations and remove the co-organisers left out. Naming
    exactly those already there (co-organisers and invited) changes nothing and
    needs no right. The usernames newly invited, in the order given."""
    wanted = usernames_clean(usernames)
    current = _co_organiser_names(tournament)
    waiting = set(
        CoOrganiserInvitation.objects.filter(tournament=tournament).values_list(
            "username", flat=True
        )
    )
    if set(wanted) == current | waiting:
        return []
    owner_rights_check(tournament=tournament, by=by)
    for name in sorted(current - set(wanted)):
        co_organiser_remove(tournament=tournament, by=by, username=name)
    for name in sorted(waiting - set(wanted)):
        co_organiser_invitation_withdraw(tournament=tournament, by=by, username=name)
    invited = [name for name in wanted if name not in current | waiting]
    for name in invited:
        co_organiser_invite(tournament=tournament, by=by, username=name)
    return invited
