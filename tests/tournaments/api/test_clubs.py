"""Clubs through the API: the shape a club answers, who reads and changes what
(a private club poked by id is 404), members, invitations, bad input refused with
nothing stored, and the lists' queries pinned."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.api.conftest import client_as
from tournaments.models import AuditEvent, Club, ClubInvitation, Player
from tournaments.services import clubs as club_services

pytestmark = pytest.mark.django_db

C = "/api/v1/clubs"
ROLES = ("anon", "stranger", "host", "co", "creator", "staff")


def scene(*, public: bool) -> dict[str, Any]:
    users = {
        "anon": None,
        "stranger": UserFactory(username="stranger"),
        "host": UserFactory(username="host"),
        "co": UserFactory(username="co"),
        "creator": UserFactory(username="creator"),
        "staff": UserFactory(username="staff", is_staff=True),
    }
    club = club_services.club_create(
        name="Odense RK", city="Odense", public=public, created_by=users["creator"]
    )
    club.co_organisers.add(users["co"])
    hidden = club_services.member_add(club=club, user=users["creator"], name="Hidden Member")
    shown = PlayerFactory(name="Shown Member", club=club, created_by=users["creator"])
    EntryFactory(
        tournament=TournamentFactory(owner=users["host"], public=True, club=club), player=shown
    )
    return {"users": users, "club": club, "hidden": hidden, "shown": shown}


def test_a_club_answers_its_slug_visibility_and_organisers():
    s = scene(public=True)
    body = client_as(None).get(f"{C}/{s['club'].pk}/").json()
    assert body == {
        "id": s["club"].pk,
        "name": "Odense RK",
        "city": "Odense",
        "slug": "odense-rk",
        "public": True,
        "organisers": ["creator", "co"],
    }


# role -> (detail status, members listed) for a public and a private club
READS = {
    True: {
        "anon": (200, ["Shown Member"]),
        "stranger": (200, ["Shown Member"]),
        "host": (200, ["Shown Member"]),
        "co": (200, ["Hidden Member", "Shown Member"]),
        "creator": (200, ["Hidden Member", "Shown Member"]),
        "staff": (200, ["Hidden Member", "Shown Member"]),
    },
    False: {
        "anon": (404, None),
        "stranger": (404, None),
        # Naming a private club in a tournament shows it by name, not its members.
        "host": (200, ["Shown Member"]),
        "co": (200, ["Hidden Member", "Shown Member"]),
        "creator": (200, ["Hidden Member", "Shown Member"]),
        "staff": (200, ["Hidden Member", "Shown Member"]),
    },
}


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("role", ROLES)
def test_who_reads_a_club_and_its_members(public, role):
    s = scene(public=public)
    api = client_as(s["users"][role])
    status, members = READS[public][role]
    assert api.get(f"{C}/{s['club'].pk}/").status_code == status
    listed = api.get(f"{C}/").json()["results"]
    assert (s["club"].pk in [c["id"] for c in listed]) is (status == 200)
    answer = api.get(f"{C}/{s['club'].pk}/members/")
    assert answer.status_code == status
    if members is not None:
        assert [m["name"] for m in answer.json()["results"]] == members


# change, role -> status
WRITES = [
    ({"city": "Nyborg"}, {"anon": 401, "stranger": 403, "host": 403, "co": 200, "creator": 200}),
    ({"public": False}, {"anon": 401, "stranger": 403, "co": 403, "creator": 200, "staff": 200}),
    ({"slug": "odense"}, {"stranger": 403, "co": 200}),
]


@pytest.mark.parametrize(
    ("change", "role", "status"),
    [(change, role, status) for change, expected in WRITES for role, status in expected.items()],
)
def test_who_changes_a_club(change, role, status):
    s = scene(public=True)
    answer = client_as(s["users"][role]).patch(f"{C}/{s['club'].pk}/", change, format="json")
    assert answer.status_code == status, answer.content
    s["club"].refresh_from_db()
    assert all(getattr(s["club"], k) == v for k, v in change.items()) is (status == 200)


def test_a_private_club_poked_by_id_is_404_for_every_write():
    s = scene(public=False)
    stranger = client_as(s["users"]["stranger"])
    pk = s["club"].pk
    before = (Club.objects.count(), Player.objects.count(), AuditEvent.objects.count())
    for method, url, body in [
        ("patch", f"{C}/{pk}/", {"city": "X"}),
        ("delete", f"{C}/{pk}/", None),
        ("post", f"{C}/{pk}/members/", {"name": "Sneak"}),
        ("delete", f"{C}/{pk}/members/{s['hidden'].pk}/", None),
        ("post", f"{C}/{pk}/invitations/", {"username": "stranger"}),
        ("delete", f"{C}/{pk}/co-organisers/co/", None),
    ]:
        assert getattr(stranger, method)(url, body, format="json").status_code == 404, url
    assert (Club.objects.count(), Player.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "Odense RK"}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": "Fine", "slug": "odense-rk"}, "slug"),
        ({"name": "Fine", "slug": "bad slug"}, "slug"),
        ({"name": "Fine", "slug": "new"}, "slug"),
        ({"name": "Fine", "public": "perhaps"}, "public"),
    ],
)
def test_a_bad_club_is_refused_at_its_field_and_nothing_stored(body, field):
    s = scene(public=True)
    before = (Club.objects.count(), AuditEvent.objects.count())
    answer = client_as(s["users"]["stranger"]).post(f"{C}/", body, format="json")
    assert answer.status_code == 400 and field in answer.json(), answer.json()
    assert (Club.objects.count(), AuditEvent.objects.count()) == before


def test_a_new_club_is_its_creators():
    user = UserFactory(username="maker")
    answer = client_as(user).post(f"{C}/", {"name": "Vejle", "public": False}, format="json")
    assert answer.status_code == 201
    assert answer.json()["slug"] == "vejle" and answer.json()["organisers"] == ["maker"]
    assert client_as(None).get(f"{C}/{answer.json()['id']}/").status_code == 404
    assert client_as(user).delete(f"{C}/{answer.json()['id']}/").status_code == 204


def test_members_added_and_removed():
    s = scene(public=True)
    co = client_as(s["users"]["co"])
    pk = s["club"].pk
    added = co.post(f"{C}/{pk}/members/", {"name": "New One"}, format="json")
    assert added.status_code == 201 and added.json()["name"] == "New One"
    own = PlayerFactory(name="Own", created_by=s["users"]["co"])
    assert co.post(f"{C}/{pk}/members/", {"player": own.pk}, format="json").status_code == 201
    again = co.post(f"{C}/{pk}/members/", {"player": own.pk}, format="json")
    assert again.status_code == 409 and "player" in again.json()  # a member already
    theirs = PlayerFactory(name="Theirs", created_by=s["users"]["stranger"])
    refused = co.post(f"{C}/{pk}/members/", {"player": theirs.pk}, format="json")
    assert refused.status_code == 400 and "player" in refused.json()
    both = co.post(f"{C}/{pk}/members/", {"player": own.pk, "name": "X"}, format="json")
    assert both.status_code == 400
    assert co.delete(f"{C}/{pk}/members/{own.pk}/").status_code == 204
    assert co.delete(f"{C}/{pk}/members/{own.pk}/").status_code == 404
    own.refresh_from_db()
    assert own.club is None
    assert (
        client_as(s["users"]["host"]).post(f"{C}/{pk}/members/", {"name": "Z"}).status_code == 403
    )


def test_invitations_through_the_api():
    s = scene(public=True)
    pk = s["club"].pk
    creator = client_as(s["users"]["creator"])
    co = client_as(s["users"]["co"])
    assert co.post(f"{C}/{pk}/invitations/", {"username": "stranger"}).status_code == 403
    sent = creator.post(f"{C}/{pk}/invitations/", {"username": "stranger"}, format="json")
    assert sent.status_code == 201 and sent.json() == {"username": "stranger"}
    assert creator.post(f"{C}/{pk}/invitations/", {"username": "co"}).status_code == 409
    stranger = client_as(s["users"]["stranger"])
    listed = stranger.get("/api/v1/club-invitations/").json()["results"]
    assert [(i["club"], i["club_name"], i["invited_by"]) for i in listed] == [
        (pk, "Odense RK", "creator")
    ]
    invitation = ClubInvitation.objects.get()
    assert (
        client_as(s["users"]["host"])
        .post(f"/api/v1/club-invitations/{invitation.pk}/accept/")
        .status_code
        == 404
    )
    accepted = stranger.post(f"/api/v1/club-invitations/{invitation.pk}/accept/")
    assert accepted.status_code == 200 and "stranger" in accepted.json()["organisers"]
    assert co.delete(f"{C}/{pk}/co-organisers/stranger/").status_code == 403
    assert stranger.delete(f"{C}/{pk}/co-organisers/stranger/").status_code == 204  # leaving
    assert creator.delete(f"{C}/{pk}/invitations/nobody/").status_code == 404
    creator.post(f"{C}/{pk}/invitations/", {"username": "later"}, format="json")
    assert creator.delete(f"{C}/{pk}/invitations/later/").status_code == 204
    actions = list(
        AuditEvent.objects.filter(club=s["club"]).order_by("id").values_list("action", flat=True)
    )
    assert actions[-5:] == [
        "invitation.sent",
        "invitation.accepted",
        "co_organiser.removed",
        "invitation.sent",
        "invitation.withdrawn",
    ]


@pytest.mark.parametrize("role", ["anon", "creator", "staff"])
def test_lists_take_a_fixed_number_of_queries(role, django_assert_max_num_queries):
    s = scene(public=True)
    api = client_as(s["users"][role])
    api.get(f"{C}/")  # the token, once
    for n in range(20):
        club = club_services.club_create(name=f"Club {n}", created_by=s["users"]["creator"])
        club.co_organisers.add(s["users"]["co"])
        club_services.member_add(club=s["club"], user=None, name=f"Member {n}")
    with django_assert_max_num_queries(4):
        assert len(api.get(f"{C}/?page_size=50").json()["results"]) == 21
    # The token, the club with its co-organisers, the count and the page.
    with django_assert_max_num_queries(5):
        api.get(f"{C}/{s['club'].pk}/members/?page_size=50")
