"""Trust on tournament day through the API: game numbers, second entries,
confirmation, restoring deleted games and replacing a match's token."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.models import AuditEvent, Game, Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(owner) -> tuple[Match, list[int]]:
    """A table of two in a public tournament playing three games a round."""
    match = match_seated(players=2, owner=owner, games_per_round=3)
    return match, seated_ids(match)


def body(ids: list[int], points: int = 10, number: int | None = None) -> dict[str, Any]:
    a, b = ids
    game: dict[str, Any] = {
        "ending": "rummikub",
        "racks": [{"player": a, "tiles": ""}, {"player": b, "points": points}],
    }
    if number is not None:
        game["number"] = number
    return game


def post_game(client, match: Match, game: dict[str, Any]):
    return client.post(f"/api/v1/matches/{match.pk}/games/", game, format="json")


def confirmation(match: Match, mode: str) -> None:
    Tournament.objects.filter(pk=match.round.tournament_id).update(confirmation=mode)


def test_a_taken_number_answers_409_with_the_stored_game(pair, owner):
    match, ids = pair
    first = post_game(client_as(match_token=match.token), match, body(ids, 10, number=2))
    assert first.status_code == 201 and first.json()["number"] == 2
    events = AuditEvent.objects.count()

    second = post_game(client_as(match_token=match.token), match, body(ids, 25, number=2))
    assert second.status_code == 409
    refusal = second.json()
    assert refusal["number"] == ["Game 2 was already entered by this table: here it is."]
    assert refusal["game"]["id"] == first.json()["id"]
    assert [s["points"] for s in refusal["game"]["scores"]] == [0, 10]
    assert refusal["game"]["second_entry"] is None
    # Nothing stored but the refusal's trace, with what was sent.
    assert Game.objects.count() == 1 and AuditEvent.objects.count() == events + 1
    trace = AuditEvent.objects.latest("id")
    assert trace.action == AuditEvent.Action.GAME_REFUSED and trace.game_number == 2
    assert trace.new["reason"] == "taken" and trace.by_link
    # Without a number, the lowest free one.
    assert post_game(client_as(owner), match, body(ids)).json()["number"] == 1


def test_double_entry_alike_confirms_the_game(pair, owner):
    match, ids = pair
    confirmation(match, "double_entry")
    first = post_game(client_as(match_token=match.token), match, body(ids, 10, number=1))
    assert first.status_code == 201 and first.json()["state"] == "entered"
    again = post_game(client_as(owner), match, body(ids, 10, number=1))
    assert again.status_code == 200, again.content
    assert again.json()["state"] == "confirmed" and again.json()["id"] == first.json()["id"]
    assert Game.objects.count() == 1
    # A third entry of a confirmed game is a taken number again.
    assert post_game(client_as(owner), match, body(ids, 10, number=1)).status_code == 409


def test_double_entry_that_differs_is_disputed_and_shown_to_organisers(pair, owner, other):
    match, ids = pair
    confirmation(match, "double_entry")
    token = client_as(match_token=match.token)
    game_id = post_game(token, match, body(ids, 10, number=1)).json()["id"]
    disputed = post_game(client_as(owner), match, body(ids, 12, number=1))
    assert disputed.status_code == 200
    assert disputed.json()["state"] == "disputed"
    second = disputed.json()["second_entry"]["racks"][1]
    assert (second["player"], second["points"]) == (ids[1], 12)
    assert Game.objects.get().racks.get(player_id=ids[1]).points == 10  # the first stands

    for client, shown in ((client_as(owner), True), (token, False), (client_as(other), False)):
        game = client.get(f"/api/v1/games/{game_id}/").json()
        assert game["state"] == "disputed" and (game["second_entry"] is not None) is shown
        in_match = client.get(f"/api/v1/matches/{match.pk}/").json()["games"][0]
        assert (in_match["second_entry"] is not None) is shown
        listed = client.get(f"/api/v1/games/?state=disputed&match={match.pk}").json()
        assert listed["count"] == 1
        assert (listed["results"][0]["second_entry"] is not None) is shown
        history = client.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
        assert [h["action"] for h in history] == ["recorded", "disputed"]
        assert ("second_entry" in history[1]["snapshot"]) is shown
    assert client_as(owner).get("/api/v1/games/?state=confirmed").json()["count"] == 0
    assert client_as(owner).get("/api/v1/games/?state=settled").status_code == 400


def test_organiser_confirmation(pair, owner, other, staff, anon):
    match, ids = pair
    confirmation(match, "organiser")
    co = UserFactory(username="co")
    match.round.tournament.co_organisers.add(co)
    token = client_as(match_token=match.token)
    game = post_game(token, match, body(ids, number=1)).json()
    assert game["state"] == "entered"
    url = f"/api/v1/games/{game['id']}/confirm/"
    assert token.post(url).status_code == 403
    assert anon.post(url).status_code == 401
    assert client_as(other).post(url).status_code == 403
    assert Game.objects.get().state == "entered"
    confirmed = client_as(co).post(url)
    assert confirmed.status_code == 200 and confirmed.json()["state"] == "confirmed"
    # Confirming a confirmed game answers it as it is.
    assert client_as(staff).post(url, {"take": "first"}, format="json").status_code == 200
    assert AuditEvent.objects.filter(action="game.confirmed").count() == 1
    history = anon.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert [(h["action"], h["user"]) for h in history] == [("recorded", None), ("confirmed", "co")]
    # An organiser's own entry needs no confirmation.
    assert post_game(client_as(owner), match, body(ids)).json()["state"] == "confirmed"


def test_nobody_confirms_their_own_entry(pair, owner):
    match, ids = pair
    confirmation(match, "double_entry")
    co = UserFactory(username="co")
    match.round.tournament.co_organisers.add(co)
    game = post_game(client_as(owner), match, body(ids, number=1)).json()
    url = f"/api/v1/games/{game['id']}/confirm/"
    own = client_as(owner).post(url)
    assert own.status_code == 409 and "yourself" in own.json()["non_field_errors"][0]
    assert post_game(client_as(owner), match, body(ids, number=1)).status_code == 409
    assert Game.objects.get().state == "entered"
    assert client_as(co).post(url).json()["state"] == "confirmed"


@pytest.mark.parametrize(("take", "points", "version"), [("first", 10, 1), ("second", 12, 2)])
def test_settling_a_dispute(pair, owner, take, points, version):
    match, ids = pair
    confirmation(match, "double_entry")
    game_id = post_game(client_as(match_token=match.token), match, body(ids, 10, 1)).json()["id"]
    post_game(client_as(owner), match, body(ids, 12, number=1))
    settled = client_as(owner).post(
        f"/api/v1/games/{game_id}/confirm/", {"take": take}, format="json"
    )
    assert settled.status_code == 200, settled.content
    game = settled.json()
    assert game["state"] == "confirmed" and game["second_entry"] is None
    assert game["scores"][1]["points"] == points and game["version"] == version


def test_a_dispute_needs_take(pair, owner):
    match, ids = pair
    confirmation(match, "double_entry")
    game_id = post_game(client_as(match_token=match.token), match, body(ids, 10, 1)).json()["id"]
    post_game(client_as(owner), match, body(ids, 12, number=1))
    sent: dict[str, str] | None
    for sent in (None, {}):
        refused = client_as(owner).post(f"/api/v1/games/{game_id}/confirm/", sent, format="json")
        assert refused.status_code == 400 and "take" in refused.json()
    assert Game.objects.get().state == "disputed"


def test_restore_brings_back_identical_scores(pair, owner, other, anon, staff):
    match, ids = pair
    client = client_as(owner)
    recorded = post_game(client, match, body(ids, 17, number=2)).json()
    game_id = recorded["id"]
    restore = f"/api/v1/games/{game_id}/restore/"
    assert client.post(restore).status_code == 404  # not deleted
    assert client.delete(f"/api/v1/games/{game_id}/", HTTP_IF_MATCH='"1"').status_code == 204

    assert anon.post(restore).status_code == 401
    assert client_as(match_token=match.token).post(restore).status_code == 403
    assert client_as(other).post(restore).status_code == 403
    assert not Game.objects.exists()
    restored = client.post(restore)
    assert restored.status_code == 201, restored.content
    assert restored["Location"] == f"/api/v1/games/{game_id}/"
    again = restored.json()
    assert (again["id"], again["number"]) == (game_id, 2)
    assert again["scores"] == recorded["scores"] and again["winners"] == recorded["winners"]
    history = client.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert [h["action"] for h in history] == ["recorded", "deleted", "restored"]
    assert client_as(staff).post(restore).status_code == 404  # it is back

    Tournament.objects.filter(pk=match.round.tournament_id).update(public=False)
    client.delete(f"/api/v1/games/{game_id}/", HTTP_IF_MATCH=restored["ETag"])
    assert client_as(other).post(restore).status_code == 404


def test_replacing_a_match_token(pair, owner, other, anon):
    match, ids = pair
    old = match.token
    url = f"/api/v1/matches/{match.pk}/token/"
    assert anon.post(url).status_code == 401
    assert client_as(match_token=old).post(url).status_code == 403
    assert client_as(other).post(url).status_code == 403
    replaced = client_as(owner).post(url)
    assert replaced.status_code == 200, replaced.content
    new = replaced.json()["token"]
    assert new and new != old and replaced.json()["id"] == match.pk
    assert client_as(match_token=old).get("/api/v1/matches/by-token/").status_code == 401
    assert post_game(client_as(match_token=old), match, body(ids)).status_code == 401
    assert client_as(match_token=new).get("/api/v1/matches/by-token/").json()["id"] == match.pk
    event = AuditEvent.objects.get(action="match.token_regenerated")
    assert event.new == {"token": f"…{new[-4:]}"} and event.username == "owner"


def test_a_finished_tournament_refuses_its_match_links(pair, owner):
    match, ids = pair
    Tournament.objects.filter(pk=match.round.tournament_id).update(status="finished")
    refused = post_game(client_as(match_token=match.token), match, body(ids, number=1))
    assert refused.status_code == 409 and not Game.objects.exists()
    assert client_as(owner).post(f"/api/v1/matches/{match.pk}/token/").status_code == 409
    assert Match.objects.get().token == match.token


def test_confirmation_settings_are_written_and_checked(pair, owner):
    match, _ids = pair
    url = f"/api/v1/tournaments/{match.round.tournament_id}/"
    client = client_as(owner)
    shown = client.get(url).json()
    assert (shown["confirmation"], shown["standings_unconfirmed"]) == ("none", "include")
    changed = client.patch(
        url, {"confirmation": "double_entry", "standings_unconfirmed": "exclude"}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["confirmation"] == "double_entry"
    for bad in ({"confirmation": "referee"}, {"standings_unconfirmed": "maybe"}):
        refused = client.patch(url, bad, format="json")
        assert refused.status_code == 400 and set(refused.json()) == set(bad)
    t = Tournament.objects.get()
    assert (t.confirmation, t.standings_unconfirmed) == ("double_entry", "exclude")


def test_a_game_waiting_for_its_second_entry_keeps_its_racks_from_the_table(pair, owner):
    match, ids = pair
    confirmation(match, "double_entry")
    token = client_as(match_token=match.token)
    game_id = post_game(token, match, body(ids, 10, number=1)).json()["id"]
    reads = (
        lambda c: c.get("/api/v1/matches/by-token/", HTTP_X_MATCH_TOKEN=match.token).json()[
            "games"
        ][0],
        lambda c: c.get(f"/api/v1/matches/{match.pk}/games/").json()["results"][0],
        lambda c: c.get(f"/api/v1/games/{game_id}/").json(),
    )
    for read in reads:
        withheld = read(token)
        assert withheld["state"] == "entered"
        assert withheld["scores"] == [] and withheld["winners"] == []
    for read in reads[1:]:  # by-token answers as the match link, whoever sends it
        shown = read(client_as(owner))
        assert len(shown["scores"]) == 2 and shown["winners"] == [ids[0]]
    history = token.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert history[0]["snapshot"] == {"state": "entered", "racks": []}
    owners = client_as(owner).get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert len(owners[0]["snapshot"]["racks"]) == 2
    # The second entry, typed on its own, confirms; then everyone sees the game.
    assert post_game(client_as(owner), match, body(ids, 10, number=1)).json()["state"] == (
        "confirmed"
    )
    assert len(reads[2](token)["scores"]) == 2
