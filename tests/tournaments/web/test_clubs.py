"""Clubs on the web: who sees a club's page and its members, who changes what,
bad input refused at its field with nothing stored, and the pages' queries pinned.

The scene: the *creator* made the club and invited a *co*-organiser (who
accepted); a *host* organises a tournament naming the club; a *stranger* has
nothing to do with it; and *staff*.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import AuditEvent, Club, ClubInvitation, Player
from tournaments.services import clubs as club_services

pytestmark = pytest.mark.django_db

ROLES = ("anon", "stranger", "host", "co", "creator", "staff")


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


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
        name="Roskilde RC", city="Roskilde", public=public, created_by=users["creator"]
    )
    invitation = club_services.club_invitation_send(club=club, by=users["creator"], username="co")
    club_services.club_invitation_accept(invitation=invitation, user=users["co"])
    member = club_services.member_add(club=club, user=users["creator"], name="Private Member")
    public_member = PlayerFactory(name="Public Member", club=club, created_by=users["creator"])
    # A public tournament of the host names the club; the public member plays in it.
    hosted = TournamentFactory(owner=users["host"], public=True, club=club, name="Host Cup")
    EntryFactory(tournament=hosted, player=public_member)
    # A private tournament of the creator names it too.
    TournamentFactory(owner=users["creator"], public=False, club=club, name="Closed Night")
    return {"users": users, "club": club, "member": member, "hosted": hosted}


# role -> (status of /c/<slug>/, member names shown, events shown)
SEEN_PUBLIC = {
    "anon": (200, ["Public Member"], ["Host Cup"]),
    "stranger": (200, ["Public Member"], ["Host Cup"]),
    "host": (200, ["Public Member"], ["Host Cup"]),
    "co": (200, ["Private Member", "Public Member"], ["Host Cup"]),
    "creator": (200, ["Private Member", "Public Member"], ["Closed Night", "Host Cup"]),
    "staff": (200, ["Private Member", "Public Member"], ["Closed Night", "Host Cup"]),
}
SEEN_PRIVATE = {
    "anon": (404, None, None),
    "stranger": (404, None, None),
    # A tournament naming a private club shows its name, never its members but those
    # the host sees anyway (their own tournament's).
    "host": (200, ["Public Member"], ["Host Cup"]),
    **{role: SEEN_PUBLIC[role] for role in ("co", "creator", "staff")},
}


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("role", ROLES)
def test_who_sees_the_club_page_and_its_members(public, role):
    s = scene(public=public)
    status, members, events = (SEEN_PUBLIC if public else SEEN_PRIVATE)[role]
    page = _client(s["users"][role]).get(f"/c/{s['club'].slug}/")
    assert page.status_code == status
    if status == 200:
        assert [p.name for p in page.context["page"].members] == members
        assert sorted(t.name for t in page.context["page"].events) == events
        organiser = role in ("co", "creator", "staff")
        assert page.context["page"].organiser is organiser
        assert (b"Latest changes" in page.content) is organiser


@pytest.mark.parametrize("public", [True, False])
def test_the_list_shows_what_each_may_see(public):
    s = scene(public=public)
    ClubFactory(name="Open Elsewhere")
    for role in ROLES:
        page = _client(s["users"][role]).get("/clubs/")
        names = {c.name for c in [*page.context["mine"], *page.context["clubs"]]}
        sees = public or role in ("host", "co", "creator", "staff")
        assert ("Roskilde RC" in names) is sees, role
        assert "Open Elsewhere" in names
        mine = {c.name for c in page.context["mine"]}
        assert ("Roskilde RC" in mine) is (role in ("co", "creator", "staff")), role


# page, who may (others: 403 logged in, the login page for the anonymous)
ORGANISER_PAGES = [
    ("/c/{slug}/edit/", ("co", "creator", "staff")),
    ("/c/{slug}/members/", ("co", "creator", "staff")),
    ("/c/{slug}/members/import/", ("co", "creator", "staff")),
    ("/c/{slug}/delete/", ("creator", "staff")),
]


@pytest.mark.parametrize(("url", "allowed"), ORGANISER_PAGES)
def test_organiser_pages(url, allowed):
    s = scene(public=True)
    for role in ROLES:
        answer = _client(s["users"][role]).get(url.format(slug=s["club"].slug))
        if role in allowed:
            assert answer.status_code == 200, role
        elif role == "anon":
            assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
        else:
            assert answer.status_code == 403, role


def test_a_private_clubs_pages_are_404_to_outsiders():
    s = scene(public=False)
    for url in ("/c/{slug}/edit/", "/c/{slug}/members/", "/c/{slug}/delete/"):
        assert (
            _client(s["users"]["stranger"]).get(url.format(slug=s["club"].slug)).status_code == 404
        )
    # The host sees the club by name, and may not organise it.
    assert _client(s["users"]["host"]).get(f"/c/{s['club'].slug}/edit/").status_code == 403


def test_creating_a_club_on_the_web():
    user = UserFactory(username="maker")
    client = _client(user)
    assert client.get("/c/new/").status_code == 200
    answer = client.post("/c/new/", {"name": "Aarhus RK", "city": "Aarhus", "public": "on"})
    club = Club.objects.get(name="Aarhus RK")
    assert answer.status_code == 302 and answer["Location"] == f"/c/{club.slug}/"
    assert (club.slug, club.public, club.created_by) == ("aarhus-rk", True, user)
    assert _client(None).get("/c/new/").status_code == 302


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "Roskilde RC"}, "name"),  # taken
        ({"name": "x" * 121}, "name"),
        ({"name": "Fine", "slug": "roskilde-rc"}, "slug"),  # taken
        ({"name": "Fine", "slug": "bad slug"}, "slug"),
        ({"name": "Fine", "slug": "new"}, "slug"),
    ],
)
def test_a_bad_club_form_is_refused_at_its_field(data, field):
    s = scene(public=True)
    before = (Club.objects.count(), AuditEvent.objects.count())
    answer = _client(s["users"]["stranger"]).post("/c/new/", data)
    assert answer.status_code == 400
    assert answer.context["form"].errors.get(field), answer.context["form"].errors
    assert (Club.objects.count(), AuditEvent.objects.count()) == before


def test_editing_a_club_and_its_visibility():
    s = scene(public=True)
    club = s["club"]
    co = _client(s["users"]["co"])
    form = {"name": "Roskilde Rummikub", "city": "Roskilde", "slug": "roskilde"}
    # A co-organiser changes the name and address; the visibility field is theirs to see only.
    answer = co.post(f"/c/{club.slug}/edit/", form)
    assert answer.status_code == 302 and answer["Location"] == "/c/roskilde/"
    club.refresh_from_db()
    assert (club.name, club.slug, club.public) == ("Roskilde Rummikub", "roskilde", True)
    assert co.get("/c/roskilde/edit/").context["form"].fields["public"].disabled
    creator = _client(s["users"]["creator"])
    assert creator.post("/c/roskilde/edit/", form).status_code == 302  # public unticked
    club.refresh_from_db()
    assert not club.public
    assert _client(None).get("/c/roskilde/").status_code == 404


def test_organisers_invited_withdrawn_removed_and_answered_on_the_web():
    s = scene(public=True)
    slug = s["club"].slug
    creator = _client(s["users"]["creator"])
    assert creator.post(f"/c/{slug}/invitations/", {"username": "stranger"}).status_code == 302
    invitation = ClubInvitation.objects.get(username="stranger")
    # Another user's invitation is nobody else's: 404.
    assert (
        _client(s["users"]["host"]).post(f"/clubs/invitations/{invitation.pk}/accept/").status_code
        == 404
    )
    stranger = _client(s["users"]["stranger"])
    assert [i.pk for i in stranger.get("/clubs/").context["invitations"]] == [invitation.pk]
    assert stranger.post(f"/clubs/invitations/{invitation.pk}/accept/")["Location"] == f"/c/{slug}/"
    assert s["club"].co_organisers.filter(username="stranger").exists()
    # A co-organiser may not invite or remove others, but may leave.
    co = _client(s["users"]["co"])
    co.post(f"/c/{slug}/invitations/", {"username": "later"})
    assert not ClubInvitation.objects.filter(username="later").exists()
    co.post(f"/c/{slug}/co-organisers/stranger/remove/")
    assert s["club"].co_organisers.filter(username="stranger").exists()
    assert co.post(f"/c/{slug}/co-organisers/co/remove/")["Location"] == "/clubs/"
    assert not s["club"].co_organisers.filter(username="co").exists()
    creator.post(f"/c/{slug}/invitations/", {"username": "later"})
    creator.post(f"/c/{slug}/invitations/later/withdraw/")
    assert not ClubInvitation.objects.exists()


def test_members_added_imported_and_leaving_on_the_web():
    s = scene(public=True)
    slug = s["club"].slug
    co = _client(s["users"]["co"])
    own = PlayerFactory(name="Own Player", created_by=s["users"]["co"])
    assert co.post(f"/c/{slug}/members/", {"name": "Walk In"}).status_code == 302
    assert co.post(f"/c/{slug}/members/", {"player": own.pk}).status_code == 302
    # Someone else's player is not offered, and not taken.
    theirs = PlayerFactory(name="Not Theirs", created_by=s["users"]["stranger"])
    refused = co.post(f"/c/{slug}/members/", {"player": theirs.pk})
    assert refused.status_code == 400 and refused.context["form"].errors.get("player")
    assert co.post(f"/c/{slug}/members/", {}).status_code == 400
    preview = co.post(f"/c/{slug}/members/import/", {"text": "name\nAnn\nBo\n"})
    assert preview.status_code == 200
    assert [line.name for line in preview.context["preview"].lines] == ["Ann", "Bo"]
    assert not Player.objects.filter(name="Ann").exists()  # nothing stored by a preview
    done = co.post(f"/c/{slug}/members/import/confirm/", {"text": "name\nAnn\nBo\n"})
    assert done.status_code == 302
    bad = co.post(f"/c/{slug}/members/import/confirm/", {"text": "Cy\n" + "x" * 200 + "\n"})
    assert bad.status_code == 400 and not Player.objects.filter(name="Cy").exists()
    leave = co.post(f"/c/{slug}/members/{s['member'].pk}/leave/")
    assert leave.status_code == 302
    names = set(Player.objects.filter(club=s["club"]).values_list("name", flat=True))
    assert names == {"Public Member", "Walk In", "Own Player", "Ann", "Bo"}
    # Leaving again: not a member any more.
    assert co.post(f"/c/{slug}/members/{s['member'].pk}/leave/").status_code == 404


def test_deleting_a_club_on_the_web():
    s = scene(public=True)
    slug = s["club"].slug
    assert _client(s["users"]["co"]).post(f"/c/{slug}/delete/").status_code == 403
    answer = _client(s["users"]["creator"]).post(f"/c/{slug}/delete/")
    assert answer.status_code == 302 and answer["Location"] == "/clubs/"
    assert not Club.objects.filter(slug=slug).exists()
    assert Player.objects.filter(name="Private Member", club=None).exists()


@pytest.mark.parametrize(("role", "queries"), [("anon", 6), ("creator", 10)])
def test_the_club_page_takes_a_fixed_number_of_queries(role, queries, django_assert_num_queries):
    """The club, its co-organisers, members, events, and the sections added to the
    page (its seasons, its rating list); an organiser's also its invitations and
    trail, and the session and user."""
    s = scene(public=True)
    client = _client(s["users"][role])
    client.get(f"/c/{s['club'].slug}/")  # sessions and caches warm
    for n in range(15):
        player = club_services.member_add(club=s["club"], user=None, name=f"Member {n}")
        EntryFactory(tournament=TournamentFactory(club=s["club"], public=True), player=player)
    with django_assert_num_queries(queries):
        page = client.get(f"/c/{s['club'].slug}/")
    assert len(page.context["page"].events) >= 16


@pytest.mark.parametrize("role", ["anon", "creator"])
def test_the_club_list_takes_a_fixed_number_of_queries(role, django_assert_max_num_queries):
    s = scene(public=True)
    client = _client(s["users"][role])
    client.get("/clubs/")
    for n in range(12):
        ClubFactory(name=f"Club {n}", created_by=s["users"]["creator"])
    with django_assert_max_num_queries(6):
        page = client.get("/clubs/")
    assert len(page.context["mine"]) + len(page.context["clubs"]) >= 13
