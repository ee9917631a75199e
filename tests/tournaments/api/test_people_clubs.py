"""A tournament or a player names only a club its user may use: a public one (a
public tournament shows it) or their own; any other answers exactly as a club
that does not exist, and naming it publishes nothing."""

from __future__ import annotations

import pytest

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.api.conftest import client_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    stranger = UserFactory(username="stranger")
    private = ClubFactory(name="Hidden", created_by=stranger, public=False)
    TournamentFactory(owner=stranger, public=False, club=private)
    public = ClubFactory(name="Open", created_by=stranger)
    TournamentFactory(owner=stranger, public=True, club=public)
    return {"private": private, "public": public}


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/v1/tournaments/{t}/", "club"),
        ("/api/v1/players/", "club"),
    ],
)
def test_a_club_one_may_not_use_answers_as_one_that_does_not_exist(url, field, clubs):
    me = UserFactory(username="me")
    mine = TournamentFactory(owner=me, public=True)
    own = ClubFactory(name="Mine", created_by=me)
    api = client_as(me)
    path = url.format(t=mine.pk)
    send = api.patch if "{t}" in url else api.post

    def answer(club_id):
        response = send(path, {"name": "X", field: club_id}, format="json")
        text = str(response.json()).replace(str(club_id), "<id>")
        return response.status_code, text

    missing = answer(10**6)
    assert missing[0] == 400
    assert answer(clubs["private"].pk) == missing
    assert send(path, {"name": "X", field: clubs["public"].pk}, format="json").status_code in (
        200,
        201,
    )
    assert send(path, {"name": "Y", field: own.pk}, format="json").status_code in (200, 201)
    # The private club stays private: nobody else sees it.
    assert client_as(UserFactory()).get(f"/api/v1/clubs/{clubs['private'].pk}/").status_code == 404
    assert client_as(None).get(f"/api/v1/clubs/{clubs['private'].pk}/").status_code == 404


def test_the_club_named_already_stays_nameable(clubs):
    t = TournamentFactory(public=False, club=clubs["private"], owner=clubs["private"].created_by)
    co = UserFactory(username="co")
    t.co_organisers.add(co)
    answer = client_as(co).patch(
        f"/api/v1/tournaments/{t.pk}/", {"club": clubs["private"].pk, "rounds": 4}, format="json"
    )
    assert answer.status_code == 200


def test_a_player_in_a_public_tournament_names_a_private_club_only_to_those_who_see_it():
    owner = UserFactory(username="secretary")
    hidden = ClubFactory(name="Secret Club", created_by=owner, public=False)
    player = PlayerFactory(name="Mette", club=hidden, created_by=owner)
    EntryFactory(tournament=TournamentFactory(owner=owner, public=True), player=player)
    for who in (None, UserFactory()):
        client = client_as(who)
        listed = client.get("/api/v1/players/").json()["results"]
        assert [(p["name"], p["club"], p["club_name"]) for p in listed] == [("Mette", None, None)]
        detail = client.get(f"/api/v1/players/{player.pk}/").json()
        assert (detail["club"], detail["club_name"]) == (None, None)
    mine = client_as(owner).get(f"/api/v1/players/{player.pk}/").json()
    assert (mine["club"], mine["club_name"]) == (hidden.pk, "Secret Club")
