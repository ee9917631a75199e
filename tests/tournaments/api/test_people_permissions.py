"""Who sees and who changes players and clubs through the API.

The scene: the *creator* made a player and a club; the *host* entered that
player in the host's tournament, which names the club, and named a
*co-organiser* of it; *another* user organises a tournament of their own;
*staff*; and a *token*: the match link of a table in the host's tournament.
Only the creator and staff change or delete the player and the club; entering
a player or naming a club gives no such right (403, nothing changed). What a
request may not see answers 404 and is left out of lists, searches included:
in a private tournament the player is seen by its organisers, the creator and
staff only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction

from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    match_seated,
)
from tests.tournaments.api.conftest import client_as
from tournaments.models import Club, Player, Tournament

pytestmark = pytest.mark.django_db

ACTORS = ["anon", "other", "host", "co", "creator", "staff", "token"]


@dataclass
class Scene:
    tournament: Tournament
    player: Player  # the creator's, entered in the host's tournament
    club: Club  # the creator's, named by the host's tournament
    free: Player  # the creator's, in no tournament
    token: str
    users: dict[str, Any]

    def client(self, actor: str) -> Any:
        if actor == "token":
            return client_as(match_token=self.token)
        return client_as(self.users.get(actor))


def scene(*, public: bool) -> Scene:
    users = {
        name: UserFactory(username=name, is_staff=name == "staff")
        for name in ("creator", "host", "co", "other", "staff")
    }
    # A club as public as the tournament naming it: a private one is not shown by the naming.
    club = ClubFactory(
        name="Roskilde RC", city="Roskilde", created_by=users["creator"], public=public
    )
    player = PlayerFactory(name="Ann Private", club=club, created_by=users["creator"])
    tournament = TournamentFactory(owner=users["host"], public=public, club=club)
    tournament.co_organisers.add(users["co"])
    EntryFactory(tournament=tournament, player=player)
    TournamentFactory(owner=users["other"], public=True)
    match = match_seated(players=2, tournament=tournament)
    return Scene(
        tournament=tournament,
        player=player,
        club=club,
        free=PlayerFactory(name="Bo Free", created_by=users["creator"]),
        token=match.token,
        users={**users, "anon": None},
    )


class _Undo(Exception):
    pass


def statuses(s: Scene, method: str, url: Any, body: Any) -> list[int]:
    """Each actor's answer on the same state: every request is rolled back."""
    got = []
    for actor in ACTORS:
        try:
            with transaction.atomic():
                response = getattr(s.client(actor), method)(url(s), body(s), format="json")
                got.append(response.status_code)
                raise _Undo
        except _Undo:
            pass
    return got


P = "/api/v1/players"
C = "/api/v1/clubs"
# (name, method, url(s), body(s), public: per actor in ACTORS order, private: the same)
# fmt: off
ENDPOINTS: list[tuple[str, str, Any, Any, list[int], list[int]]] = [
    ("list players", "get", lambda s: f"{P}/", lambda s: None,
     [200, 200, 200, 200, 200, 200, 200], [200, 200, 200, 200, 200, 200, 200]),
    ("player", "get", lambda s: f"{P}/{s.player.pk}/", lambda s: None,
     [200, 200, 200, 200, 200, 200, 200], [404, 404, 200, 200, 200, 200, 404]),
    ("free player", "get", lambda s: f"{P}/{s.free.pk}/", lambda s: None,
     [404, 404, 404, 404, 200, 200, 404], [404, 404, 404, 404, 200, 200, 404]),
    ("create player", "post", lambda s: f"{P}/", lambda s: {"name": "New"},
     [401, 201, 201, 201, 201, 201, 401], [401, 201, 201, 201, 201, 201, 401]),
    ("rename player", "patch", lambda s: f"{P}/{s.player.pk}/", lambda s: {"name": "Renamed"},
     [401, 403, 403, 403, 200, 200, 401], [401, 404, 403, 403, 200, 200, 401]),
    ("replace player", "put", lambda s: f"{P}/{s.player.pk}/",
     lambda s: {"name": "Renamed", "club": None},
     [401, 403, 403, 403, 200, 200, 401], [401, 404, 403, 403, 200, 200, 401]),
    # Entered, so a conflict for those allowed.
    ("delete player", "delete", lambda s: f"{P}/{s.player.pk}/", lambda s: None,
     [401, 403, 403, 403, 409, 409, 401], [401, 404, 403, 403, 409, 409, 401]),
    ("delete free player", "delete", lambda s: f"{P}/{s.free.pk}/", lambda s: None,
     [401, 404, 404, 404, 204, 204, 401], [401, 404, 404, 404, 204, 204, 401]),
    ("list clubs", "get", lambda s: f"{C}/", lambda s: None,
     [200, 200, 200, 200, 200, 200, 200], [200, 200, 200, 200, 200, 200, 200]),
    ("club", "get", lambda s: f"{C}/{s.club.pk}/", lambda s: None,
     [200, 200, 200, 200, 200, 200, 200], [404, 404, 200, 200, 200, 200, 404]),
    ("create club", "post", lambda s: f"{C}/", lambda s: {"name": "New club"},
     [401, 201, 201, 201, 201, 201, 401], [401, 201, 201, 201, 201, 201, 401]),
    ("change club", "patch", lambda s: f"{C}/{s.club.pk}/", lambda s: {"city": "Aarhus"},
     [401, 403, 403, 403, 200, 200, 401], [401, 404, 403, 403, 200, 200, 401]),
    ("replace club", "put", lambda s: f"{C}/{s.club.pk}/",
     lambda s: {"name": "Club X", "city": "Aarhus"},
     [401, 403, 403, 403, 200, 200, 401], [401, 404, 403, 403, 200, 200, 401]),
    ("delete club", "delete", lambda s: f"{C}/{s.club.pk}/", lambda s: None,
     [401, 403, 403, 403, 204, 204, 401], [401, 404, 403, 403, 204, 204, 401]),
]
# fmt: on


@pytest.mark.parametrize(
    ("method", "url", "body", "expected"),
    [pytest.param(*row[1:4], row[4], id=row[0]) for row in ENDPOINTS],
)
def test_in_a_public_tournament(method, url, body, expected):
    assert statuses(scene(public=True), method, url, body) == expected


@pytest.mark.parametrize(
    ("method", "url", "body", "expected"),
    [pytest.param(*row[1:4], row[5], id=row[0]) for row in ENDPOINTS],
)
def test_in_a_private_tournament(method, url, body, expected):
    assert statuses(scene(public=False), method, url, body) == expected


def _names(client: Any, url: str) -> set[str]:
    return {row["name"] for row in client.get(url).json()["results"]}


@pytest.mark.parametrize("public", [True, False])
def test_lists_and_searches_show_what_each_may_see(public):
    s = scene(public=public)
    seen = {"Ann Private"} if public else set()
    expected = {
        "anon": seen,
        "token": seen,
        "other": seen,
        "host": {"Ann Private"},
        "co": {"Ann Private"},
        "creator": {"Ann Private", "Bo Free"},
        "staff": {"Ann Private", "Bo Free"},
    }
    mine = {"Ann Private", "Bo Free"}
    for actor, names in expected.items():
        client = s.client(actor)
        # The match's own players are a public tournament's, or nobody's to see.
        assert _names(client, f"{P}/") & mine == names, actor
        assert _names(client, f"{P}/?search=private") == names - {"Bo Free"}, actor
        assert _names(client, f"{P}/?search=free") == names & {"Bo Free"}, actor
        clubs = _names(client, f"{C}/?search=roskilde")
        assert clubs == ({"Roskilde RC"} if names else set()), actor


def test_the_attack_a_host_renaming_anothers_player_is_refused():
    s = scene(public=False)
    host = s.client("host")
    answer = host.patch(f"{P}/{s.player.pk}/", {"name": "Hacked"}, format="json")
    assert answer.status_code == 403
    assert "created this player" in answer.json()["detail"]
    assert host.put(f"{C}/{s.club.pk}/", {"name": "Hacked"}, format="json").status_code == 403
    assert host.delete(f"{C}/{s.club.pk}/").status_code == 403
    s.player.refresh_from_db()
    s.club.refresh_from_db()
    assert (s.player.name, s.player.club_id, s.club.name) == (
        "Ann Private",
        s.club.pk,
        "Roskilde RC",
    )
    assert not s.tournament.audit.filter(action__in=["player.changed", "club.changed"]).exists()


def test_a_new_player_or_club_is_its_creators():
    s = scene(public=True)
    other = s.client("other")
    club = other.post(f"{C}/", {"name": "Odense"}, format="json").json()
    player = other.post(f"{P}/", {"name": "Cy", "club": club["id"]}, format="json").json()
    assert set(player) == {"id", "name", "club", "club_name"}  # the shape stays
    assert Player.objects.get(pk=player["id"]).created_by == s.users["other"]
    assert Club.objects.get(pk=club["id"]).created_by == s.users["other"]
    assert other.patch(f"{P}/{player['id']}/", {"name": "Cyd"}, format="json").status_code == 200
    assert s.client("creator").patch(f"{P}/{player['id']}/", {"name": "X"}).status_code == 404


def test_a_player_cannot_join_a_club_one_may_not_see():
    s = scene(public=False)
    answer = s.client("other").post(f"{P}/", {"name": "Dee", "club": s.club.pk}, format="json")
    assert answer.status_code == 400 and "club" in answer.json()
    assert not Player.objects.filter(name="Dee").exists()


def test_a_rename_is_recorded_in_each_tournament_showing_the_player():
    s = scene(public=True)
    elsewhere = TournamentFactory(owner=s.users["other"])
    EntryFactory(tournament=elsewhere, player=s.player)
    creator = s.client("creator")
    assert creator.patch(f"{P}/{s.player.pk}/", {"name": "Ann B"}, format="json").status_code == 200
    for tournament in (s.tournament, elsewhere):
        event = tournament.audit.get(action="player.changed")
        assert (event.old, event.new, event.user) == (
            {"name": "Ann Private"},
            {"name": "Ann B"},
            s.users["creator"],
        )
    assert creator.patch(f"{C}/{s.club.pk}/", {"city": "Køge"}, format="json").status_code == 200
    changed = s.tournament.audit.get(action="club.changed")
    assert (changed.old, changed.new) == ({"city": "Roskilde"}, {"city": "Køge"})
    assert elsewhere.audit.filter(action="club.changed").count() == 1  # its player's club
    assert creator.delete(f"{C}/{s.club.pk}/").status_code == 204
    gone = s.tournament.audit.get(action="club.deleted")
    assert gone.old == {"name": "Roskilde RC", "city": "Køge"} and gone.new is None


@pytest.mark.parametrize("actor", ["anon", "other", "staff"])
def test_lists_take_a_fixed_number_of_queries(actor, django_assert_max_num_queries):
    s = scene(public=True)
    for n in range(20):
        EntryFactory(
            tournament=s.tournament,
            player=PlayerFactory(name=f"P{n}", club=ClubFactory(created_by=s.users["host"])),
        )
    client = s.client(actor)
    client.get(f"{P}/")  # the token, once
    with django_assert_max_num_queries(3):
        assert len(client.get(f"{P}/?page_size=50").json()["results"]) >= 21
    # A club answers its organisers too: one query more, for them all.
    with django_assert_max_num_queries(4):
        assert len(client.get(f"{C}/?page_size=50").json()["results"]) >= 21
