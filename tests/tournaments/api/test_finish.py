"""Finishing and reopening through the API; the status is not a setting; a
finished tournament refuses changes (409) but keeps its description editable;
co-organisers are shown to organisers only."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory, UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tests.tournaments.web.support import play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FROZEN = "The tournament is finished: reopen it to change it."


def test_finish_and_reopen(owner):
    t = TournamentFactory(owner=owner, games_per_round=2)
    api = client_as(owner)
    url = f"/api/v1/tournaments/{t.pk}/"
    early = api.post(f"{url}finish/")
    assert early.status_code == 409
    assert "Seat and play a round" in early.json()["non_field_errors"][0]
    match = match_seated(players=4, tournament=t)
    play(match, games=1)
    waiting = api.post(f"{url}finish/")
    assert waiting.status_code == 409 and waiting.json()["non_field_errors"] == [
        "Round 1 is not finished: table 1 still has games to play. Enter their results first."
    ]
    play(match, games=1, seed=2)
    done = api.post(f"{url}finish/")
    assert done.status_code == 200 and done.json()["status"] == "finished"
    assert done.json()["id"] == t.pk
    assert api.post(f"{url}finish/").status_code == 409

    # Frozen: games, plan and rules are refused; the description is not.
    game = match.games.order_by("number").first()
    deleted = api.delete(f"/api/v1/games/{game.pk}/", HTTP_IF_MATCH="*")
    assert deleted.status_code == 409 and deleted.json()["non_field_errors"] == [FROZEN]
    replanned = api.patch(url, {"rounds": 5}, format="json")
    assert replanned.status_code == 409 and replanned.json()["non_field_errors"] == [FROZEN]
    renamed = api.patch(url, {"name": "Winter Cup", "public": False}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Winter Cup"
    penalty = {"player": seated_ids(match)[0], "points": -1, "reason": "late"}
    assert api.post(f"{url}adjustments/", penalty, format="json").status_code == 409

    reopened = api.post(f"{url}reopen/")
    assert reopened.status_code == 200 and reopened.json()["status"] == "running"
    assert api.post(f"{url}reopen/").status_code == 409
    assert api.patch(url, {"rounds": 5}, format="json").json()["rounds"] == 5


@pytest.mark.parametrize("action", ["finish", "reopen"])
def test_only_organisers_finish_and_reopen(owner, other, action):
    t = TournamentFactory(owner=owner, status=Tournament.Status.RUNNING)
    hidden = TournamentFactory(owner=owner, public=False)
    assert client_as().post(f"/api/v1/tournaments/{t.pk}/{action}/").status_code == 401
    assert client_as(other).post(f"/api/v1/tournaments/{t.pk}/{action}/").status_code == 403
    assert client_as(other).post(f"/api/v1/tournaments/{hidden.pk}/{action}/").status_code == 404
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_the_status_is_read_only(owner):
    api = client_as(owner)
    created = api.post("/api/v1/tournaments/", {"name": "Cup", "status": "finished"}, format="json")
    assert created.status_code == 400 and "status" in created.json()
    assert not Tournament.objects.exists()
    t = TournamentFactory(owner=owner, status=Tournament.Status.RUNNING)
    url = f"/api/v1/tournaments/{t.pk}/"
    refused = api.patch(url, {"status": "finished"}, format="json")
    assert refused.status_code == 400
    assert "follows the tournament" in refused.json()["status"][0]
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    # The current status sent back, as a client that PUTs what it read does, is fine.
    assert api.patch(url, {"status": "running", "name": "Cup"}, format="json").status_code == 200


def test_impossible_plans_are_refused_at_the_field(owner):
    api = client_as(owner)
    semis = api.post("/api/v1/tournaments/", {"name": "Cup", "semifinal_players": 4}, format="json")
    assert semis.status_code == 400 and "two tables or more" in semis.json()["semifinal_players"][0]
    t = TournamentFactory(owner=owner, rounds=3)
    match_seated(players=4, tournament=t)
    match_seated(players=4, tournament=t)
    fewer = api.patch(f"/api/v1/tournaments/{t.pk}/", {"rounds": 1}, format="json")
    assert fewer.status_code == 400 and "seated already: 2" in fewer.json()["rounds"][0]


def test_co_organisers_are_shown_to_organisers_only(owner, other, staff):
    t = TournamentFactory(owner=owner)
    ann = UserFactory(username="ann")
    t.co_organisers.add(ann)
    url = f"/api/v1/tournaments/{t.pk}/"
    for user in (owner, ann, staff):
        assert client_as(user).get(url).json()["co_organisers"] == ["ann"]
    for user in (None, other):
        assert client_as(user).get(url).json()["co_organisers"] == []
        listed = client_as(user).get("/api/v1/tournaments/").json()["results"]
        assert [r["co_organisers"] for r in listed] == [[]]
