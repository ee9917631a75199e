"""The permission matrix: every write endpoint, for anonymous, another user,
the owner, staff, and a match token (its own match's and another match's).

Public tournament: anonymous writes are 401, other users' 403; its owner and
staff may write; a match token records games on its own match only (a token
sent elsewhere is ignored, so it is anonymous there: 401). Private tournament:
others get 404 for everything in it, reads included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction

from scoring.rules import RackIn
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    match_seated,
    seated_ids,
    tournament_entered,
)
from tests.tournaments.api.conftest import client_as
from tournaments.models import Match, Player, Round, Tournament
from tournaments.services.adjustments import adjustment_add
from tournaments.services.games import game_record
from tournaments.services.rounds import round_seat_next

pytestmark = pytest.mark.django_db

ACTORS = ["anon", "other", "owner", "staff", "token_own", "token_other"]


@dataclass
class World:
    tournament: Tournament
    match: Match
    other_match: Match
    player: Player  # entered in the tournament (seated)
    free_player: Player  # entered nowhere, made by nobody: staff's alone
    own_player: Player  # entered nowhere, made by the owner
    game_id: int
    adjustment_id: int
    fresh: Tournament  # players entered, no round yet
    untouched: Round  # a seated round without results
    users: dict[str, Any]

    def client(self, actor: str) -> Any:
        if actor == "token_own":
            return client_as(match_token=self.match.token)
        if actor == "token_other":
            return client_as(match_token=self.other_match.token)
        return client_as(self.users.get(actor))


def world(owner, other, staff, *, public: bool) -> World:
    club = ClubFactory()
    tournament = TournamentFactory(owner=owner, public=public, club=club, games_per_round=4)
    match = match_seated(players=4, tournament=tournament)
    ids = seated_ids(match)
    game = game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=ids[0], tiles="")] + [RackIn(player=p, points=5) for p in ids[1:]],
    )
    other_match = match_seated(players=2, owner=other)
    adjustment = adjustment_add(
        tournament=tournament, player_id=ids[2], points=-5, reason="Late", user=owner
    )
    seated = tournament_entered(players=4, owner=owner, public=public)
    return World(
        adjustment_id=adjustment.pk,
        fresh=tournament_entered(players=4, owner=owner, public=public),
        untouched=round_seat_next(tournament=seated),
        tournament=tournament,
        match=match,
        other_match=other_match,
        player=Player.objects.get(pk=ids[0]),
        free_player=PlayerFactory(),
        own_player=PlayerFactory(created_by=owner),
        game_id=game.pk,
        users={"owner": owner, "other": other, "staff": staff, "anon": None},
    )


def game_body(w: World) -> dict[str, Any]:
    a, *others = seated_ids(w.match)
    return {
        "ending": "rummikub",
        "racks": [{"player": a, "tiles": ""}] + [{"player": p, "points": 4} for p in others],
    }


def tournament_body(w: World) -> dict[str, Any]:
    return {"name": "Renamed", "slug": f"renamed-{w.tournament.pk}", "rounds": 2}


# (name, method, url(w), body(w), headers, expected per actor in ACTORS order)
T = "/api/v1/tournaments"
# fmt: off
ENDPOINTS: list[tuple[str, str, Any, Any, dict[str, str], list[int]]] = [
    ("create club", "post", lambda w: "/api/v1/clubs/", lambda w: {"name": "New club"}, {},
     [401, 201, 201, 201, 401, 401]),
    ("change club", "patch", lambda w: f"/api/v1/clubs/{w.tournament.club_id}/",
     lambda w: {"city": "Aarhus"}, {}, [401, 403, 403, 200, 401, 401]),
    ("replace club", "put", lambda w: f"/api/v1/clubs/{w.tournament.club_id}/",
     lambda w: {"name": "Club X", "city": "Aarhus"}, {}, [401, 403, 403, 200, 401, 401]),
    ("delete club", "delete", lambda w: f"/api/v1/clubs/{w.tournament.club_id}/",
     lambda w: None, {}, [401, 403, 403, 204, 401, 401]),
    ("create player", "post", lambda w: "/api/v1/players/", lambda w: {"name": "New"}, {},
     [401, 201, 201, 201, 401, 401]),
    ("change player", "patch", lambda w: f"/api/v1/players/{w.player.pk}/",
     lambda w: {"name": "Renamed"}, {}, [401, 403, 403, 200, 401, 401]),
    ("replace player", "put", lambda w: f"/api/v1/players/{w.player.pk}/",
     lambda w: {"name": "Renamed", "club": None}, {}, [401, 403, 403, 200, 401, 401]),
    # Clubs and players are their creator's (here: nobody's, so staff's) to change:
    # entering a player or naming a club gives the owner no right over them
    # (tests/tournaments/api/test_people_permissions.py has the creator's side).
    # A player with results is protected: allowed, but a conflict.
    ("delete player with results", "delete", lambda w: f"/api/v1/players/{w.player.pk}/",
     lambda w: None, {}, [401, 403, 403, 409, 401, 401]),
    # A player entered nowhere, made by nobody, is seen by staff alone.
    ("delete free player", "delete", lambda w: f"/api/v1/players/{w.free_player.pk}/",
     lambda w: None, {}, [401, 404, 404, 204, 401, 401]),
    ("create tournament", "post", lambda w: f"{T}/", lambda w: {"name": "New cup"}, {},
     [401, 201, 201, 201, 401, 401]),
    ("change tournament", "patch", lambda w: f"{T}/{w.tournament.pk}/",
     lambda w: {"rounds": 5}, {}, [401, 403, 200, 200, 401, 401]),
    ("replace tournament", "put", lambda w: f"{T}/{w.tournament.pk}/", tournament_body, {},
     [401, 403, 200, 200, 401, 401]),
    ("delete tournament", "delete", lambda w: f"{T}/{w.tournament.pk}/", lambda w: None, {},
     [401, 403, 204, 204, 401, 401]),
    ("enter players", "post", lambda w: f"{T}/{w.tournament.pk}/entries/",
     lambda w: {"player": w.own_player.pk}, {}, [401, 403, 201, 201, 401, 401]),
    ("set attendance", "post", lambda w: f"{T}/{w.tournament.pk}/attendance/",
     lambda w: {"players": [w.player.pk]}, {}, [401, 403, 200, 200, 401, 401]),
    ("check player out", "patch", lambda w: f"{T}/{w.tournament.pk}/entries/{w.player.pk}/",
     lambda w: {"status": "absent"}, {}, [401, 403, 200, 200, 401, 401]),
    ("withdraw player", "delete", lambda w: f"{T}/{w.tournament.pk}/entries/{w.player.pk}/",
     lambda w: None, {}, [401, 403, 200, 200, 401, 401]),
    ("add adjustment", "post", lambda w: f"{T}/{w.tournament.pk}/adjustments/",
     lambda w: {"player": w.player.pk, "points": -3, "reason": "Phone rang"}, {},
     [401, 403, 201, 201, 401, 401]),
    ("remove adjustment", "delete",
     lambda w: f"{T}/{w.tournament.pk}/adjustments/{w.adjustment_id}/",
     lambda w: None, {}, [401, 403, 204, 204, 401, 401]),
    ("seat next round", "post", lambda w: f"{T}/{w.fresh.pk}/rounds/", lambda w: None, {},
     [401, 403, 201, 201, 401, 401]),
    ("reseat round", "post", lambda w: f"/api/v1/rounds/{w.untouched.pk}/reseat/",
     lambda w: None, {}, [401, 403, 200, 200, 401, 401]),
    ("seat round by hand", "put", lambda w: f"/api/v1/rounds/{w.untouched.pk}/seating/",
     lambda w: {"tables": [sorted(s.player_id for s in w.untouched.seats.all())]}, {},
     [401, 403, 200, 200, 401, 401]),
    ("record game", "post", lambda w: f"/api/v1/matches/{w.match.pk}/games/", game_body, {},
     [401, 403, 201, 201, 201, 403]),
    ("correct game", "put", lambda w: f"/api/v1/games/{w.game_id}/", game_body,
     {"HTTP_IF_MATCH": '"1"'}, [401, 403, 200, 200, 403, 403]),
    ("delete game", "delete", lambda w: f"/api/v1/games/{w.game_id}/", lambda w: None,
     {"HTTP_IF_MATCH": '"1"'}, [401, 403, 204, 204, 403, 403]),
]

# In a private tournament, what differs: others do not see it at all (404). Anonymous
# writes are refused before any lookup (401 whatever the id), and so are a token's
# corrections (403): neither tells whether the object exists.
PRIVATE = {
    "change tournament": [401, 404, 200, 200, 401, 401],
    "replace tournament": [401, 404, 200, 200, 401, 401],
    "delete tournament": [401, 404, 204, 204, 401, 401],
    "enter players": [401, 404, 201, 201, 401, 401],
    "check player out": [401, 404, 200, 200, 401, 401],
    "withdraw player": [401, 404, 200, 200, 401, 401],
    "add adjustment": [401, 404, 201, 201, 401, 401],
    "remove adjustment": [401, 404, 204, 204, 401, 401],
    "seat next round": [401, 404, 201, 201, 401, 401],
    "reseat round": [401, 404, 200, 200, 401, 401],
    "seat round by hand": [401, 404, 200, 200, 401, 401],
    "record game": [401, 404, 201, 201, 201, 404],
    "correct game": [401, 404, 200, 200, 403, 403],
    "delete game": [401, 404, 204, 204, 403, 403],
}
# fmt: on


class _Undo(Exception):
    pass


def statuses(w: World, method: str, url: Any, body: Any, headers: dict[str, str]) -> list[int]:
    """Each actor's answer, each on the same state: every request is rolled back."""
    got = []
    for actor in ACTORS:
        try:
            with transaction.atomic():
                client = w.client(actor)
                response = getattr(client, method)(url(w), body(w), format="json", **headers)
                got.append(response.status_code)
                raise _Undo
        except _Undo:
            pass
    return got


@pytest.mark.parametrize(
    ("method", "url", "body", "headers", "expected"),
    [pytest.param(*row[1:], id=row[0]) for row in ENDPOINTS],
)
def test_public_tournament_writes(owner, other, staff, method, url, body, headers, expected):
    w = world(owner, other, staff, public=True)
    assert statuses(w, method, url, body, headers) == expected


@pytest.mark.parametrize(
    ("method", "url", "body", "headers", "expected"),
    [pytest.param(*row[1:5], PRIVATE[row[0]], id=row[0]) for row in ENDPOINTS if row[0] in PRIVATE],
)
def test_private_tournament_writes(owner, other, staff, method, url, body, headers, expected):
    w = world(owner, other, staff, public=False)
    assert statuses(w, method, url, body, headers) == expected


READS = [
    ("tournament", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/"),
    ("entries", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/entries/"),
    ("rounds", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/rounds/"),
    ("standings", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/standings/"),
    ("adjustments", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/adjustments/"),
    ("round", lambda w: f"/api/v1/rounds/{w.match.round_id}/"),
    ("match", lambda w: f"/api/v1/matches/{w.match.pk}/"),
    ("match games", lambda w: f"/api/v1/matches/{w.match.pk}/games/"),
    ("game", lambda w: f"/api/v1/games/{w.game_id}/"),
]
# A match token reads its own match and games, nothing else of a private tournament.
PRIVATE_READS = {
    "match": [404, 404, 200, 200, 200, 404],
    "match games": [404, 404, 200, 200, 200, 404],
    "game": [404, 404, 200, 200, 200, 404],
}


@pytest.mark.parametrize(("name", "url"), READS, ids=[r[0] for r in READS])
def test_reads(owner, other, staff, name, url):
    public = world(owner, other, staff, public=True)
    for actor in ACTORS:
        assert public.client(actor).get(url(public)).status_code == 200, (name, actor)
    private = world(owner, other, staff, public=False)
    expected = PRIVATE_READS.get(name, [404, 404, 200, 200, 404, 404])
    got = [private.client(actor).get(url(private)).status_code for actor in ACTORS]
    assert got == expected, name


def test_private_tournaments_are_left_out_of_lists(owner, other, staff):
    w = world(owner, other, staff, public=False)
    for actor, count in [("anon", 0), ("other", 0), ("owner", 1), ("staff", 1)]:
        listed = w.client(actor).get("/api/v1/tournaments/").json()
        assert sum(t["id"] == w.tournament.pk for t in listed["results"]) == count, actor
        games = w.client(actor).get("/api/v1/games/").json()
        assert sum(g["id"] == w.game_id for g in games["results"]) == count, actor


def test_a_match_token_finds_its_match_and_shows_its_token(owner, other, staff):
    w = world(owner, other, staff, public=False)
    found = w.client("token_own").get("/api/v1/matches/by-token/")
    assert found.status_code == 200
    assert found.json()["id"] == w.match.pk and found.json()["token"] == w.match.token
    assert w.client("anon").get("/api/v1/matches/by-token/").status_code == 401
    assert w.client("owner").get("/api/v1/matches/by-token/").status_code == 401


def test_an_unknown_match_token_is_a_401(owner, other, staff):
    w = world(owner, other, staff, public=True)
    client = client_as(match_token="not-a-token")
    assert client.get(f"/api/v1/matches/{w.match.pk}/games/").status_code == 401
    assert (
        client.post(f"/api/v1/matches/{w.match.pk}/games/", game_body(w), format="json").status_code
        == 401
    )
    assert client_as(match_token="x" * 500).get("/api/v1/matches/by-token/").status_code == 401


def test_match_tokens_are_shown_to_organisers_only(owner, other, staff):
    w = world(owner, other, staff, public=True)
    url = f"/api/v1/rounds/{w.match.round_id}/"
    assert w.client("owner").get(url).json()["matches"][0]["token"] == w.match.token
    assert w.client("staff").get(url).json()["matches"][0]["token"] == w.match.token
    assert w.client("other").get(url).json()["matches"][0]["token"] is None
    assert w.client("anon").get(url).json()["matches"][0]["token"] is None
    match_url = f"/api/v1/matches/{w.match.pk}/"
    assert w.client("token_other").get(match_url).json()["token"] is None
    assert w.client("token_own").get(match_url).json()["token"] == w.match.token


def test_a_session_works_and_needs_csrf_for_writes(owner):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.get("/api/v1/tournaments/").status_code == 200
    assert client.post("/api/v1/clubs/", {"name": "C"}, format="json").status_code == 403


def test_the_browsable_api_logs_in_with_a_session(client, owner):
    page = client.post(
        "/api/v1/auth/login/?next=/api/v1/tournaments/",
        {"username": owner.username, "password": "secret-pass-123"},
    )
    assert page.status_code == 302 and page["Location"] == "/api/v1/tournaments/"
    html = client.get("/api/v1/tournaments/", HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and owner.username.encode() in html.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "said"),
    [
        ("patch", "organisers may change"),
        ("put", "organisers may change"),
        ("delete", "owner may delete"),
    ],
)
def test_a_refused_change_of_a_tournament_says_what_was_refused(method, said):
    tournament = TournamentFactory(public=True)
    stranger = client_as(UserFactory())
    answer = getattr(stranger, method)(
        f"/api/v1/tournaments/{tournament.pk}/", {"name": "pwn"}, format="json"
    )
    assert answer.status_code == 403
    assert said in answer.json()["detail"]
