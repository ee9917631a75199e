"""Players and clubs on the pages: who sees them, and that no page lends edit rights.

The scene is the API test's: the *creator* made a player and a club, the
*host* entered the player in the host's tournament (naming the club) with a
*co-organiser*, *another* user organises a tournament of their own, and
*staff*. The home page lists the clubs a visitor may see, each counting the
players they may see; the desk offers, to enter, only players and clubs its
user may see; the admin (where players and clubs are changed on the web) is
staff's; the audit page tells a player's or club's change in words.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournaments.api.test_people_permissions import scene
from tournaments.models import Entry, Player
from tournaments.services.players import club_update, player_update

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _clubs_on_home(user: Any) -> dict[str, int]:
    page = _client(user).get("/")
    return {club.name: club.player_count for club in page.context["clubs"]}


@pytest.mark.parametrize("public", [True, False])
def test_the_home_page_lists_the_clubs_each_may_see(public):
    s = scene(public=public)
    ClubFactory(name="Nobody's", public=False)  # private, named nowhere: staff's alone
    PlayerFactory(name="Cy Hidden", club=s.club)  # in no tournament: not counted for most
    shown = {"Roskilde RC": 1} if public else {}
    expected = {
        "anon": shown,
        "other": shown,
        "host": {"Roskilde RC": 1},
        "co": {"Roskilde RC": 1},
        "creator": {"Roskilde RC": 1},
        "staff": {"Roskilde RC": 2, "Nobody's": 0},
    }
    for actor, clubs in expected.items():
        got = _clubs_on_home(s.users.get(actor))
        assert {k: v for k, v in got.items() if k in ("Roskilde RC", "Nobody's")} == clubs, actor


def test_the_desk_offers_only_players_and_clubs_its_user_may_see():
    s = scene(public=False)
    theirs = TournamentFactory(owner=s.users["other"], slug="theirs", public=False)
    client = _client(s.users["other"])
    desk = "/t/theirs/organise/"
    assert client.get(desk, {"q": "ann"}).context["found"] == []  # private elsewhere
    form = client.get(desk).context["player_form"]
    assert s.club not in form.fields["club"].queryset
    # A club they may not see cannot be chosen; nothing is stored.
    response = client.post(f"{desk}players/new/", {"name": "Dee", "club": s.club.pk})
    assert response.status_code == 400
    assert not Player.objects.filter(name="Dee").exists()
    # Once the player plays in a public tournament, the desk enters them; no edit right comes.
    EntryFactory(tournament=TournamentFactory(public=True), player=s.player)
    assert [p.name for p in client.get(desk, {"q": "ann"}).context["found"]] == ["Ann Private"]
    done = client.post(f"{desk}entries/", {"players": s.player.pk})
    assert done.status_code == 302
    assert Entry.objects.filter(tournament=theirs, player=s.player).exists()
    s.player.refresh_from_db()
    assert s.player.created_by == s.users["creator"]


def test_players_made_on_the_desk_are_their_makers():
    s = scene(public=True)
    TournamentFactory(owner=s.users["other"], slug="theirs")
    client = _client(s.users["other"])
    client.post("/t/theirs/organise/players/new/", {"name": "Walk In"})
    assert Player.objects.get(name="Walk In").created_by == s.users["other"]
    text = "name,club\nImported One,New Club\n"
    client.post("/t/theirs/organise/players/import/confirm/", {"text": text})
    imported = Player.objects.select_related("club").get(name="Imported One")
    assert imported.created_by == imported.club.created_by == s.users["other"]


@pytest.mark.parametrize("actor", ["anon", "other", "host", "co", "creator"])
def test_the_admin_is_staffs_alone(actor):
    s = scene(public=True)
    client = _client(s.users.get(actor))
    change = f"/admin/tournaments/player/{s.player.pk}/change/"
    response = client.post(change, {"name": "Hacked", "club": ""})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    s.player.refresh_from_db()
    assert s.player.name == "Ann Private"


def test_staff_change_a_player_in_the_admin_and_the_trail_says_so():
    s = scene(public=True)
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client = _client(admin)
    change = f"/admin/tournaments/player/{s.player.pk}/change/"
    response = client.post(change, {"name": "Ann Renamed", "club": s.club.pk})
    assert response.status_code == 302
    event = s.tournament.audit.get(action="player.changed")
    assert (event.user, event.new) == (admin, {"name": "Ann Renamed"})


def test_the_audit_page_tells_player_and_club_changes_in_words():
    s = scene(public=True)
    moved = ClubFactory(name="Køge RC")
    player_update(player=s.player, name="Ann B", club=moved, user=s.users["creator"])
    club_update(club=s.club, city="Aarhus", user=s.users["creator"])
    page = _client(s.users["host"]).get(f"/t/{s.tournament.slug}/organise/audit/")
    text = page.content.decode()
    for words in (
        "Player changed",
        "Club changed",
        "Ann Private",
        "Ann B",
        "Køge RC",
        "Aarhus",
        "Player: Ann B",
    ):
        assert words in text, words
    kinds = _client(s.users["host"]).get(
        f"/t/{s.tournament.slug}/organise/audit/", {"kind": "player"}
    )
    assert [e.event.action for e in kinds.context["events"]] == ["player.changed"]
