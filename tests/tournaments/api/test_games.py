"""Recording games on a match, reading them, correcting and deleting them
with ETag / If-Match."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import match_seated, seated_ids
from tournaments.models import AuditEvent, Game, Rack
from tournaments.selectors.standings import standings_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(as_user, owner):
    match = match_seated(players=4, owner=owner, games_per_round=3)
    return match, seated_ids(match), as_user(owner)


@pytest.fixture
def pair(as_user, owner):
    """A table of two: every game is the two racks given."""
    match = match_seated(players=2, owner=owner, games_per_round=3)
    return match, seated_ids(match), as_user(owner)


def record(client, match, racks, ending="rummikub"):
    return client.post(
        f"/api/v1/matches/{match.pk}/games/", {"ending": ending, "racks": racks}, format="json"
    )


def test_record_answers_201_with_scores_etag_and_location(setup):
    match, (a, b, c, d), client = setup
    response = record(
        client,
        match,
        # Sent out of seat order: the answer is by seat.
        [
            {"player": c, "points": 16},
            {"player": a, "tiles": ""},
            {"player": b, "tiles": "r5 j"},
            {"player": d, "points": 3, "jokers": 0},
        ],
    )
    assert response.status_code == 201, response.content
    game = Game.objects.get()
    assert response["ETag"] == '"1"'
    assert response["Location"] == f"/api/v1/games/{game.pk}/"
    body = response.json()
    assert body["id"] == game.pk and body["number"] == 1 and body["version"] == 1
    assert body["ending"] == "rummikub" and body["winners"] == [a] and body["match"] == match.pk
    assert [(s["player"], s["rack_value"], s["score"]) for s in body["scores"]] == [
        (a, 0, 54),
        (b, 35, -35),
        (c, 16, -16),
        (d, 3, -3),
    ]
    assert body["scores"][1]["tiles"] == "R5 J" and body["scores"][2]["tiles"] is None
    assert [s["table_points"] for s in body["scores"]] == [4, 0, 1, 3]
    assert '"score":54,' in response.content.decode()  # a number, not "54.00"


def test_fractional_scores_are_decimals(setup):
    match, (a, b, c, d), client = setup
    response = record(
        client,
        match,
        [
            {"player": a, "points": 5},
            {"player": b, "points": 5},
            {"player": c, "points": 5},
            {"player": d, "points": 105},
        ],
        ending="pool_exhausted",
    )
    assert [s["score"] for s in response.json()["scores"]] == [33.34, 33.33, 33.33, -100]
    assert response.json()["winners"] == [a, b, c]


def test_list_and_read_a_matchs_games(pair, anon):
    match, (a, b), client = pair
    for points in (3, 4):
        record(client, match, [{"player": a, "tiles": ""}, {"player": b, "points": points}])
    listed = anon.get(f"/api/v1/matches/{match.pk}/games/").json()
    assert listed["count"] == 2 and [g["number"] for g in listed["results"]] == [1, 2]
    one = anon.get(f"/api/v1/games/{listed['results'][1]['id']}/")
    assert one.status_code == 200 and one["ETag"] == '"1"'
    assert one.json() == listed["results"][1]
    detail = anon.get(f"/api/v1/matches/{match.pk}/").json()
    assert [g["number"] for g in detail["games"]] == [1, 2]
    assert detail["players"] == seated_ids(match) and detail["token"] is None


def test_a_full_match_is_a_409(pair):
    match, (a, b), client = pair
    for _ in range(3):
        assert (
            record(
                client, match, [{"player": a, "tiles": ""}, {"player": b, "points": 1}]
            ).status_code
            == 201
        )
    response = record(client, match, [{"player": a, "tiles": ""}, {"player": b, "points": 1}])
    assert response.status_code == 409
    assert "3 games" in response.json()["non_field_errors"][0]
    assert Game.objects.count() == 3


def test_a_correction_needs_if_match_and_recomputes_the_standings(pair):
    match, (a, b), client = pair
    game_id = record(
        client, match, [{"player": a, "tiles": ""}, {"player": b, "points": 10}]
    ).json()["id"]
    url = f"/api/v1/games/{game_id}/"
    corrected = {
        "ending": "rummikub",
        "racks": [{"player": b, "tiles": ""}, {"player": a, "points": 7}],
    }

    missing = client.put(url, corrected, format="json")
    assert missing.status_code == 428
    assert "If-Match" in missing.json()["non_field_errors"][0]

    stale = client.put(url, corrected, format="json", HTTP_IF_MATCH='"2"')
    assert stale.status_code == 412 and "version 1" in stale.json()["non_field_errors"][0]
    garbage = client.put(url, corrected, format="json", HTTP_IF_MATCH="banana")
    assert garbage.status_code == 412
    assert Rack.objects.get(game_id=game_id, player_id=a).score == 10  # nothing changed

    etag = client.get(url)["ETag"]
    done = client.put(url, corrected, format="json", HTTP_IF_MATCH=etag)
    assert done.status_code == 200, done.content
    assert done["ETag"] == '"2"' and done.json()["version"] == 2
    assert done.json()["winners"] == [b]
    rows = {r.player_id: r for r in standings_for(tournament=match.round.tournament)}
    assert rows[a].score == Decimal(-7) and rows[b].score == Decimal(7) and rows[a].wins == 0
    assert AuditEvent.objects.filter(object_id=game_id, action__startswith="game.").count() == 2

    # The old ETag is stale now; a weak tag never matches, a bare number does.
    assert client.put(url, corrected, format="json", HTTP_IF_MATCH=etag).status_code == 412
    assert client.put(url, corrected, format="json", HTTP_IF_MATCH='W/"2"').status_code == 412
    assert client.put(url, corrected, format="json", HTTP_IF_MATCH='"2"').status_code == 200
    assert client.put(url, corrected, format="json", HTTP_IF_MATCH="3").status_code == 200
    assert client.put(url, corrected, format="json", HTTP_IF_MATCH='"1", "4"').status_code == 200
    assert client.put(url, corrected, format="json", HTTP_IF_MATCH="*").status_code == 200


def test_a_correction_is_refused_like_a_record(pair):
    match, (a, b), client = pair
    game_id = record(
        client, match, [{"player": a, "tiles": ""}, {"player": b, "points": 10}]
    ).json()["id"]
    response = client.put(
        f"/api/v1/games/{game_id}/",
        {
            "ending": "rummikub",
            "racks": [{"player": a, "tiles": ""}, {"player": b, "tiles": "R14"}],
        },
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 400 and "R14" in response.json()["racks"][0]
    assert Game.objects.get().version == 1


def test_delete_needs_if_match_and_leaves_a_gap_that_the_next_game_fills(pair):
    match, (a, b), client = pair
    ids = [
        record(client, match, [{"player": a, "tiles": ""}, {"player": b, "points": p}]).json()["id"]
        for p in (1, 2)
    ]
    url = f"/api/v1/games/{ids[0]}/"
    assert client.delete(url).status_code == 428
    assert client.delete(url, HTTP_IF_MATCH='"9"').status_code == 412
    assert client.delete(url, HTTP_IF_MATCH='"1"').status_code == 204
    assert client.get(url).status_code == 404
    again = record(client, match, [{"player": a, "tiles": ""}, {"player": b, "points": 5}])
    assert again.json()["number"] == 1
    assert AuditEvent.objects.filter(action="game.deleted").count() == 1


def test_patch_is_not_offered(pair):
    match, (a, b), client = pair
    game_id = record(
        client, match, [{"player": a, "tiles": ""}, {"player": b, "points": 1}]
    ).json()["id"]
    assert client.patch(f"/api/v1/games/{game_id}/", {}, format="json").status_code == 405


def test_games_list_filters(setup, anon):
    match, (a, b, c, d), client = setup
    for winner in (a, c):
        racks = [
            {"player": p, "tiles": ""} if p == winner else {"player": p, "points": 1}
            for p in (a, b, c, d)
        ]
        assert record(client, match, racks).status_code == 201
    other = match_seated(players=2)
    assert anon.get("/api/v1/games/").json()["count"] == 2
    assert anon.get(f"/api/v1/games/?player={c}").json()["count"] == 2
    assert anon.get(f"/api/v1/games/?player={other.seats.first().player_id}").json()["count"] == 0
    assert anon.get(f"/api/v1/games/?match={match.pk}").json()["count"] == 2
    assert anon.get(f"/api/v1/games/?match={other.pk}").json()["count"] == 0
    assert anon.get(f"/api/v1/games/?tournament={match.round.tournament_id}").json()["count"] == 2
    assert anon.get("/api/v1/games/?round=abc").status_code == 400


def test_history_keeps_every_record_correction_and_deletion(pair, anon):
    match, (a, b), client = pair
    game_id = record(
        client, match, [{"player": a, "tiles": ""}, {"player": b, "points": 10}]
    ).json()["id"]
    url = f"/api/v1/games/{game_id}/"
    corrected = {
        "ending": "rummikub",
        "racks": [{"player": b, "tiles": ""}, {"player": a, "points": 7}],
    }
    assert client.put(url, corrected, format="json", HTTP_IF_MATCH='"1"').status_code == 200
    assert client.delete(url, HTTP_IF_MATCH='"2"').status_code == 204

    history = anon.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert [(h["action"], h["version"], h["number"]) for h in history] == [
        ("recorded", 1, 1),
        ("corrected", 2, 1),
        ("deleted", 2, 1),
    ]
    assert history[0]["snapshot"]["racks"][1]["points"] == 10
    assert history[1]["snapshot"]["racks"][0]["score"] == "-7.00"
    assert (
        history[2]["game"] is None and history[0]["user"] == match.round.tournament.owner.username
    )


def test_history_follows_the_tournaments_visibility(pair, anon, as_user, other):
    match, _ids, _client = pair
    type(match.round.tournament).objects.filter(pk=match.round.tournament_id).update(public=False)
    assert anon.get(f"/api/v1/matches/{match.pk}/history/").status_code in (401, 404)
    assert as_user(other).get(f"/api/v1/matches/{match.pk}/history/").status_code == 404
    from tests.tournaments.api.conftest import client_as

    with_token = client_as(match_token=match.token)
    assert with_token.get(f"/api/v1/matches/{match.pk}/history/").status_code == 200


def test_history_query_count_does_not_grow(pair, anon, django_assert_max_num_queries):
    match, (a, b), client = pair
    for points in (1, 2, 3):
        record(client, match, [{"player": a, "tiles": ""}, {"player": b, "points": points}])
    with django_assert_max_num_queries(4):
        assert len(anon.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]) == 3
