"""A tournament's audit trail through the API: organisers only, newest first,
filtered by match and action, in a fixed number of queries."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(owner) -> Match:
    return match_seated(players=2, owner=owner, games_per_round=20)


def record(client, match: Match, points: int = 10) -> int:
    a, b = seated_ids(match)
    response = client.post(
        f"/api/v1/matches/{match.pk}/games/",
        {
            "ending": "rummikub",
            "racks": [{"player": a, "tiles": ""}, {"player": b, "points": points}],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return int(response.json()["id"])


def audit_url(match: Match) -> str:
    return f"/api/v1/tournaments/{match.round.tournament_id}/audit/"


def test_only_organisers_read_the_trail(match, owner, other, staff, anon):
    co = UserFactory(username="co")
    match.round.tournament.co_organisers.add(co)
    record(client_as(owner), match)
    url = audit_url(match)
    assert anon.get(url).status_code == 401
    assert client_as(match_token=match.token).get(url).status_code == 401
    assert client_as(other).get(url).status_code == 403
    for user in (owner, co, staff):
        answer = client_as(user).get(url)
        assert answer.status_code == 200 and answer.json()["count"] >= 1, user
    Tournament.objects.filter(pk=match.round.tournament_id).update(public=False)
    assert client_as(other).get(url).status_code == 404
    assert client_as(owner).get("/api/v1/tournaments/999999/audit/").status_code == 404


def test_events_newest_first_with_who_and_values(match, owner):
    client = client_as(owner)
    first = record(client_as(match_token=match.token), match, 10)
    client.put(
        f"/api/v1/games/{first}/",
        {
            "ending": "rummikub",
            "racks": [
                {"player": p, "tiles": ""} if i == 0 else {"player": p, "points": 7}
                for i, p in enumerate(seated_ids(match))
            ],
        },
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    events = client.get(audit_url(match)).json()["results"]
    corrected, recorded = [e for e in events if e["object_type"] == "game"][:2]
    assert corrected["action"] == "game.corrected" and recorded["action"] == "game.recorded"
    assert corrected["id"] > recorded["id"]
    assert (corrected["who"], corrected["user"], corrected["via"]) == ("owner", "owner", "user")
    assert recorded["who"] == "match link of table 1, round 1"
    assert (recorded["user"], recorded["via"]) == (None, "match_link")
    assert (recorded["round"], recorded["table"], recorded["game_number"]) == (1, 1, 1)
    assert recorded["object_id"] == first and recorded["version"] == 1
    assert corrected["old"]["racks"][1]["points"] == 10
    assert corrected["new"]["racks"][1]["points"] == 7
    assert set(recorded) == {
        "id", "at", "who", "user", "via", "action", "object_type", "object_id",
        "round", "table", "game_number", "version", "old", "new",
    }  # fmt: skip


def test_filters(match, owner):
    client = client_as(owner)
    record(client, match)
    elsewhere = match_seated(players=2, tournament=match.round.tournament)
    record(client, elsewhere)
    client.post(f"/api/v1/matches/{match.pk}/token/")
    url = audit_url(match)
    mine = client.get(f"{url}?match={match.pk}").json()["results"]
    assert [e["action"] for e in mine] == ["match.token_regenerated", "game.recorded"]
    recorded = client.get(f"{url}?action=game.recorded").json()
    assert recorded["count"] == 2
    assert client.get(f"{url}?object_type=match").json()["count"] == 1
    assert client.get(f"{url}?action=game.lost").status_code == 400
    assert client.get(f"{url}?match=abc").status_code == 400


def test_query_count_is_pinned(match, owner, django_assert_max_num_queries):
    client = client_as(owner)
    co = UserFactory(username="co")
    match.round.tournament.co_organisers.add(co)
    reader = client_as(co)
    for points in range(1, 4):
        record(client, match, points)
    # The token's user, the tournament, whether the user co-organises it, the count, the page.
    with django_assert_max_num_queries(5):
        few = reader.get(audit_url(match)).json()["count"]
    for points in range(4, 16):
        record(client, match, points)
    with django_assert_max_num_queries(5):
        many = reader.get(audit_url(match)).json()["count"]
    assert many == few + 12
