"""Co-organisers through the API: a list of usernames on the tournament; a co-organiser
does what an organiser does, on that tournament only, until removed."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.api.conftest import client_as

pytestmark = pytest.mark.django_db


def test_co_organisers_are_usernames_and_unknown_ones_are_refused_at_the_field(owner):
    t = TournamentFactory(owner=owner, public=False)
    UserFactory(username="ann")
    api = client_as(owner)
    url = f"/api/v1/tournaments/{t.pk}/"
    refused = api.patch(url, {"co_organisers": ["ann", "nobody"]}, format="json")
    assert refused.status_code == 400
    assert "There is no user “nobody”." in str(refused.json())
    assert "co_organisers" in str(refused.json())
    assert not t.co_organisers.exists()
    self_named = api.patch(url, {"co_organisers": ["owner"]}, format="json")
    assert self_named.status_code == 400 and "owner" in str(self_named.json())
    done = api.patch(url, {"co_organisers": ["ann"]}, format="json")
    assert done.status_code == 200 and done.json()["co_organisers"] == ["ann"]
    created = api.post(
        "/api/v1/tournaments/", {"name": "Team Cup", "co_organisers": ["ann"]}, format="json"
    )
    assert created.status_code == 201 and created.json()["co_organisers"] == ["ann"]


def test_a_co_organiser_organises_through_the_api_until_removed(owner, other):
    t = TournamentFactory(owner=owner, public=False)
    elsewhere = TournamentFactory(owner=owner, public=False)
    ann = UserFactory(username="ann")
    t.co_organisers.add(ann)
    api = client_as(ann)
    assert api.get(f"/api/v1/tournaments/{t.pk}/").status_code == 200
    assert [r["id"] for r in api.get("/api/v1/tournaments/").json()["results"]] == [t.pk]
    assert (
        api.patch(f"/api/v1/tournaments/{t.pk}/", {"rounds": 6}, format="json").status_code == 200
    )
    players = PlayerFactory.create_batch(4, created_by=ann)
    for p in players:
        entered = api.post(f"/api/v1/tournaments/{t.pk}/entries/", {"player": p.pk}, format="json")
        assert entered.status_code == 201
    assert api.post(f"/api/v1/tournaments/{t.pk}/rounds/", format="json").status_code == 201
    assert api.get(f"/api/v1/tournaments/{elsewhere.pk}/").status_code == 404
    assert (
        api.post(f"/api/v1/tournaments/{elsewhere.pk}/entries/", {"player": players[0].pk})
    ).status_code == 404
    assert client_as(other).get(f"/api/v1/tournaments/{t.pk}/").status_code == 404

    removed = client_as(owner).patch(
        f"/api/v1/tournaments/{t.pk}/", {"co_organisers": []}, format="json"
    )
    assert removed.status_code == 200 and removed.json()["co_organisers"] == []
    assert api.get(f"/api/v1/tournaments/{t.pk}/").status_code == 404
    assert (
        api.patch(f"/api/v1/tournaments/{t.pk}/", {"rounds": 2}, format="json").status_code == 404
    )
    t.refresh_from_db()
    assert t.rounds == 6
