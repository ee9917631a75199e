"""Who organises a tournament, as services: invitations sent, accepted, declined and
withdrawn, co-organisers removed, each in the trail; the owner's rights kept from
co-organisers; a deletion recorded beyond the tournament."""

from __future__ import annotations

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import TournamentFactory, UserFactory
from tournaments.access import tournament_organiser
from tournaments.models import AuditEvent, CoOrganiserInvitation, Tournament, TournamentDeletion
from tournaments.services.co_organisers import (
    NotAllowedError,
    co_organiser_invitation_accept,
    co_organiser_invitation_decline,
    co_organiser_invitation_withdraw,
    co_organiser_invite,
    co_organiser_remove,
    co_organisers_set,
)
from tournaments.services.tournaments import tournament_delete, tournament_update

pytestmark = pytest.mark.django_db
A = AuditEvent.Action


def _trail(t: Tournament) -> list[tuple[str, str]]:
    return list(
        AuditEvent.objects.filter(tournament=t).order_by("id").values_list("action", "username")
    )


def test_an_invitation_gives_no_right_until_accepted_and_every_step_is_recorded():
    t = TournamentFactory(public=False)
    ann = UserFactory(username="ann")
    invitation = co_organiser_invite(tournament=t, by=t.owner, username=" ann ")
    assert invitation.username == "ann"
    assert co_organiser_invite(tournament=t, by=t.owner, username="ann") == invitation
    assert not tournament_organiser(user=ann, tournament=Tournament.objects.get(pk=t.pk))
    with pytest.raises(NotAllowedError):
        co_organiser_invitation_accept(invitation=invitation, user=UserFactory())
    co_organiser_invitation_accept(invitation=invitation, user=ann)
    assert tournament_organiser(user=ann, tournament=Tournament.objects.get(pk=t.pk))
    with pytest.raises(ConflictError):
        co_organiser_invite(tournament=t, by=t.owner, username="ann")
    co_organiser_remove(tournament=t, by=t.owner, username="ann")
    assert not t.co_organisers.exists()
    invitation = co_organiser_invite(tournament=t, by=t.owner, username="ann")
    co_organiser_invitation_decline(invitation=invitation, user=ann)
    co_organiser_invite(tournament=t, by=t.owner, username="nosuchuser")
    co_organiser_invitation_withdraw(tournament=t, by=t.owner, username="nosuchuser")
    owner = t.owner.username
    assert _trail(t) == [
        (A.INVITATION_SENT, owner),
        (A.INVITATION_ACCEPTED, "ann"),
        (A.CO_ORGANISER_REMOVED, owner),
        (A.INVITATION_SENT, owner),
        (A.INVITATION_DECLINED, "ann"),
        (A.INVITATION_SENT, owner),
        (A.INVITATION_WITHDRAWN, owner),
    ]
    assert not CoOrganiserInvitation.objects.exists()


def test_a_co_organiser_has_none_of_the_owners_rights():
    t = TournamentFactory(public=False)
    co, bob = UserFactory(username="co"), UserFactory(username="bob")
    t.co_organisers.add(co, bob)
    calls = [
        lambda: co_organiser_invite(tournament=t, by=co, username="carl"),
        lambda: co_organiser_remove(tournament=t, by=co, username="bob"),
        lambda: co_organisers_set(tournament=t, by=co, usernames=["co"]),
        lambda: tournament_update(tournament=t, user=co, public=True),
        lambda: tournament_delete(tournament=t, user=co),
    ]
    for call in calls:
        with pytest.raises(NotAllowedError) as refused:
            call()
        assert refused.value.status == 403
    t.refresh_from_db()
    assert (t.public, sorted(u.username for u in t.co_organisers.all())) == (False, ["bob", "co"])
    assert not AuditEvent.objects.filter(tournament=t).exists()
    # Naming the organisers as they are needs no right; running the event is theirs.
    assert co_organisers_set(tournament=t, by=co, usernames=["bob", "co"]) == []
    tournament_update(tournament=t, user=co, rounds=5, public=False)
    # A co-organiser leaves on their own.
    co_organiser_remove(tournament=t, by=co, username="co")
    assert [u.username for u in t.co_organisers.all()] == ["bob"]


def test_the_owner_is_never_invited():
    t = TournamentFactory()
    with pytest.raises(UserError) as refused:
        co_organiser_invite(tournament=t, by=t.owner, username=t.owner.username)
    assert refused.value.field == "co_organisers"


def test_co_organisers_set_invites_removes_and_withdraws():
    t = TournamentFactory()
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    t.co_organisers.add(ann)
    co_organiser_invite(tournament=t, by=t.owner, username="carl")
    assert co_organisers_set(tournament=t, by=t.owner, usernames=["bob", "dora"]) == ["bob", "dora"]
    assert not t.co_organisers.exists()
    assert sorted(CoOrganiserInvitation.objects.values_list("username", flat=True)) == [
        "bob",
        "dora",
    ]
    assert bob not in t.co_organisers.all()


def test_a_deletion_outlives_the_tournament_and_its_trail():
    t = TournamentFactory(slug="old-cup", name="Old Cup")
    staff = UserFactory(username="boss", is_staff=True)
    co_organiser_invite(tournament=t, by=t.owner, username="ann")
    pk = t.pk
    tournament_delete(tournament=t, user=staff)
    assert not AuditEvent.objects.filter(tournament_id=pk).exists()
    record = TournamentDeletion.objects.get()
    assert (record.tournament_pk, record.slug, record.name, record.username, record.events) == (
        pk,
        "old-cup",
        "Old Cup",
        "boss",
        1,
    )
