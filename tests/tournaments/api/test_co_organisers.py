"""Co-organisers through the API: the owner invites them by username (the same
answer whether or not an account has it), they organise once they accept, and
only the owner (and staff) deletes the tournament, changes its visibility and
who organises it."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.api.conftest import client_as
from tournaments.models import AuditEvent, CoOrganiserInvitation, Tournament, TournamentDeletion

pytestmark = pytest.mark.django_db


def _invite(owner, t, *names):
    return client_as(owner).patch(
        f"/api/v1/tournaments/{t.pk}/", {"co_organisers": list(names)}, format="json"
    )


def test_writing_co_organisers_invites_and_the_invited_have_no_right_until_they_accept(owner):
    t = TournamentFactory(owner=owner, public=False, name="Secret Cup")
    ann = UserFactory(username="ann")
    answer = _invite(owner, t, "ann")
    assert answer.status_code == 200
    assert (answer.json()["co_organisers"], answer.json()["invited"]) == ([], ["ann"])
    assert not t.co_organisers.exists()

    api = client_as(ann)
    assert api.get(f"/api/v1/tournaments/{t.pk}/").status_code == 404
    assert api.get("/api/v1/tournaments/").json()["results"] == []
    patch = api.patch(f"/api/v1/tournaments/{t.pk}/", {"rounds": 6}, format="json")
    assert patch.status_code == 404
    player = PlayerFactory(created_by=ann)
    entered = api.post(f"/api/v1/tournaments/{t.pk}/entries/", {"player": player.pk})
    assert entered.status_code == 404

    pending = api.get("/api/v1/invitations/").json()["results"]
    assert [(i["tournament"], i["tournament_name"], i["invited_by"]) for i in pending] == [
        (t.pk, "Secret Cup", "owner")
    ]
    assert client_as(UserFactory()).get("/api/v1/invitations/").json()["results"] == []
    # Nobody else answers it.
    other = client_as(UserFactory())
    assert other.post(f"/api/v1/invitations/{pending[0]['id']}/accept/").status_code == 404
    accepted = api.post(f"/api/v1/invitations/{pending[0]['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["co_organisers"] == ["ann"]
    assert list(t.co_organisers.all()) == [ann]
    assert (
        api.patch(f"/api/v1/tournaments/{t.pk}/", {"rounds": 6}, format="json").status_code == 200
    )
    assert api.get("/api/v1/invitations/").json()["results"] == []
    actions = list(AuditEvent.objects.filter(tournament=t).values_list("action", "username"))
    assert (AuditEvent.Action.INVITATION_SENT, "owner") in actions
    assert (AuditEvent.Action.INVITATION_ACCEPTED, "ann") in actions


def test_declining_leaves_no_right(owner):
    t = TournamentFactory(owner=owner, public=False)
    ann = UserFactory(username="ann")
    _invite(owner, t, "ann")
    invitation = CoOrganiserInvitation.objects.get()
    assert client_as(ann).post(f"/api/v1/invitations/{invitation.pk}/decline/").status_code == 204
    assert not t.co_organisers.exists() and not CoOrganiserInvitation.objects.exists()
    assert client_as(ann).get(f"/api/v1/tournaments/{t.pk}/").status_code == 404


def test_inviting_answers_the_same_whether_or_not_the_username_exists(owner):
    UserFactory(username="ann")
    answers = []
    for name in ("ann", "nosuchuser"):
        t = TournamentFactory(owner=owner, public=False, name="Cup", slug=f"cup-{name}")
        answer = _invite(owner, t, name)
        body = answer.json()
        answers.append((answer.status_code, body["co_organisers"], len(body["invited"])))
        assert body["invited"] == [name]
    assert answers[0] == answers[1] == (200, [], 1)
    created = client_as(owner).post(
        "/api/v1/tournaments/", {"name": "Team Cup", "co_organisers": ["nosuchuser"]}, format="json"
    )
    assert created.status_code == 201 and created.json()["invited"] == ["nosuchuser"]


def test_an_account_made_after_the_invitation_gets_nothing(owner):
    t = TournamentFactory(owner=owner, public=False)
    _invite(owner, t, "latecomer")
    late = UserFactory(username="latecomer")
    assert client_as(late).get("/api/v1/invitations/").json()["results"] == []
    invitation = CoOrganiserInvitation.objects.get()
    assert client_as(late).post(f"/api/v1/invitations/{invitation.pk}/accept/").status_code == 404


def test_the_owner_is_no_co_organiser_and_the_list_keeps_the_current_ones(owner):
    t = TournamentFactory(owner=owner, public=False)
    ann = UserFactory(username="ann")
    t.co_organisers.add(ann)
    self_named = _invite(owner, t, "ann", "owner")
    assert self_named.status_code == 400 and "owner" in str(self_named.json()["co_organisers"])
    left_out = _invite(owner, t, "bob")
    assert left_out.status_code == 400 and "co-organisers/" in str(left_out.json())
    assert not CoOrganiserInvitation.objects.exists()
    # A list read back (the invitations waiting left out) withdraws nothing.
    _invite(owner, t, "ann", "bob")
    assert _invite(owner, t, "ann").json()["invited"] == ["bob"]


ROLES = ["owner", "co", "staff"]


@pytest.mark.parametrize("who", ROLES)
def test_only_the_owner_and_staff_have_the_owners_rights(who, owner, staff):
    t = TournamentFactory(owner=owner, public=False)
    co, bob = UserFactory(username="co"), UserFactory(username="bob")
    t.co_organisers.add(co, bob)
    api = client_as({"owner": owner, "co": co, "staff": staff}[who])
    url = f"/api/v1/tournaments/{t.pk}/"
    allowed = who != "co"
    expected = 200 if allowed else 403
    assert api.patch(url, {"public": True}, format="json").status_code == expected
    invite = api.patch(url, {"co_organisers": ["co", "bob", "carl"]}, format="json")
    assert invite.status_code == expected
    removed = api.delete(f"{url}co-organisers/bob/")
    assert removed.status_code == (204 if allowed else 403)
    # Everything else is the co-organisers' too.
    assert api.patch(url, {"rounds": 5}, format="json").status_code == 200
    t.refresh_from_db()
    assert (t.public, t.rounds) == (allowed, 5)
    assert t.co_organisers.filter(username="bob").exists() is not allowed
    assert CoOrganiserInvitation.objects.filter(username="carl").exists() is allowed
    deleted = api.delete(url)
    assert deleted.status_code == (204 if allowed else 403)
    assert Tournament.objects.filter(pk=t.pk).exists() is not allowed


def test_a_co_organiser_may_leave_and_the_owner_withdraws_an_invitation(owner):
    t = TournamentFactory(owner=owner, public=False)
    co = UserFactory(username="co")
    t.co_organisers.add(co)
    _invite(owner, t, "co", "dan")
    assert client_as(co).delete(f"/api/v1/tournaments/{t.pk}/invitations/dan/").status_code == 403
    assert (
        client_as(owner).delete(f"/api/v1/tournaments/{t.pk}/invitations/dan/").status_code == 204
    )
    assert not CoOrganiserInvitation.objects.exists()
    assert client_as(co).delete(f"/api/v1/tournaments/{t.pk}/co-organisers/co/").status_code == 204
    assert not t.co_organisers.exists()
    assert client_as(co).get(f"/api/v1/tournaments/{t.pk}/").status_code == 404


def test_a_deletion_is_recorded_beyond_the_tournament(owner):
    t = TournamentFactory(owner=owner, public=False, slug="gone-cup", name="Gone Cup")
    pk = t.pk
    assert client_as(owner).delete(f"/api/v1/tournaments/{pk}/").status_code == 204
    record = TournamentDeletion.objects.get()
    assert (record.tournament_pk, record.slug, record.name, record.owner, record.username) == (
        pk,
        "gone-cup",
        "Gone Cup",
        "owner",
        "owner",
    )
    assert record.user == owner


def test_a_slug_in_use_is_not_available_without_saying_whose(owner, other):
    TournamentFactory(owner=other, public=False, slug="secret-cup")
    for body in ({"name": "Mine", "slug": "secret-cup"}, {"name": "Mine", "slug": "new"}):
        refused = client_as(owner).post("/api/v1/tournaments/", body, format="json")
        assert refused.status_code == 400
        assert refused.json() == {"slug": ["This slug is not available; choose another."]}
