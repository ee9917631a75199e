"""Double entry through the API: a match token never makes a game's second
entry (one phone cannot satisfy double entry alone), refusals are kept in the
match's history, and a keyed replay re-checks the caller's rights."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.factories import UserFactory, match_seated, seated_ids
from tests.fresh_sqlite import module_run_on_fresh_sqlite
from tests.tournaments.api.concurrent_double_entry import THREADS, race, seated
from tests.tournaments.api.conftest import client_as
from tournaments.models import AuditEvent, Game, Match
from tournaments.services.audit import REFUSALS_PER_MATCH_PER_MINUTE

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def table(owner) -> tuple[Match, list[int]]:
    match = match_seated(players=2, owner=owner, games_per_round=3, confirmation="double_entry")
    return match, seated_ids(match)


def body(ids: list[int], points: int = 10, number: int = 2) -> dict[str, Any]:
    a, b = ids
    return {
        "number": number,
        "ending": "rummikub",
        "racks": [{"player": a, "tiles": ""}, {"player": b, "points": points}],
    }


def post(client, match: Match, game: dict[str, Any], key: str | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/v1/matches/{match.pk}/games/", game, format="json", **headers)


def refusals(match: Match) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(match=match, action=AuditEvent.Action.GAME_REFUSED))


@pytest.mark.django_db
@pytest.mark.parametrize(("first_key", "second_key"), [(None, None), ("k1", "k2")])
def test_one_match_token_cannot_enter_a_game_twice(table, first_key, second_key):
    match, ids = table
    phone = client_as(match_token=match.token)
    first = post(phone, match, body(ids), first_key)
    assert first.status_code == 201 and first.json()["state"] == "entered"
    second = post(phone, match, body(ids), second_key)
    assert second.status_code == 409
    assert "API" in second.json()["number"][0]
    assert Game.objects.get().state == "entered"
    # The refusal is in the match's history, with what was sent.
    (trace,) = refusals(match)
    assert trace.new["reason"] == "link_api" and trace.by_link and trace.game_number == 2
    sent = [{k: v for k, v in rack.items() if v is not None} for rack in trace.new["racks"]]
    assert sent == body(ids)["racks"]
    history = phone.get(f"/api/v1/matches/{match.pk}/history/").json()
    assert [entry["action"] for entry in history["results"]] == ["recorded", "refused"]


@pytest.mark.django_db
def test_an_organiser_still_enters_the_second_version(table, owner):
    match, ids = table
    post(client_as(match_token=match.token), match, body(ids))
    again = post(client_as(owner), match, body(ids))
    assert again.status_code == 200 and again.json()["state"] == "confirmed"
    game = Game.objects.get()
    assert [s["via"] for s in game.entry_sources] == ["link_api", "user"]


@pytest.mark.django_db
def test_refusals_kept_per_match_per_minute_are_capped(table):
    match, ids = table
    phone = client_as(match_token=match.token)
    post(phone, match, body(ids))
    answers = {post(phone, match, body(ids), f"k{n}").status_code for n in range(10)}
    assert answers == {409}
    assert len(refusals(match)) == REFUSALS_PER_MATCH_PER_MINUTE


def assert_never_confirmed(result: dict[str, Any]) -> None:
    assert result["states"] == ["entered"]
    assert result["statuses"] == [201] + [409] * (THREADS - 1)
    assert 1 <= result["refusals"] <= REFUSALS_PER_MATCH_PER_MINUTE


def test_sixteen_threads_with_one_token_never_confirm_on_sqlite(tmp_path):
    assert_never_confirmed(
        module_run_on_fresh_sqlite("tests.tournaments.api.concurrent_double_entry", folder=tmp_path)
    )


@pytest.mark.django_db(transaction=True)
def test_sixteen_threads_with_one_token_never_confirm_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the SQLite race runs in its own process (above)")
    match = seated()
    assert_never_confirmed(race(match_id=match.pk, token=match.token, players=seated_ids(match)))


@pytest.mark.django_db
def test_the_games_endpoint_says_a_match_token_makes_no_second_entry(anon):
    schema = anon.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    text = schema["paths"]["/api/v1/matches/{match_id}/games/"]["post"]["description"]
    assert "never a match token" in text and "game.refused" in text


# ----------------------------------------------------------------------------- replays


@pytest.mark.django_db
def test_a_removed_co_organiser_replays_nothing(table, owner):
    match, ids = table
    co = UserFactory(username="co")
    tournament = match.round.tournament
    tournament.co_organisers.add(co)
    first = post(client_as(co), match, body(ids, number=1), "mine")
    assert first.status_code == 201
    tournament.co_organisers.remove(co)
    again = post(client_as(co), match, body(ids, number=1), "mine")
    assert again.status_code == 403 and not again.has_header("Idempotent-Replayed")
    # Nor through a view under the tournament.
    tournament.co_organisers.add(co)
    url = f"/api/v1/tournaments/{tournament.pk}/adjustments/"
    penalty = {"player": ids[0], "points": "-5", "reason": "Late"}
    assert (
        client_as(co).post(url, penalty, format="json", HTTP_IDEMPOTENCY_KEY="p").status_code == 201
    )
    tournament.co_organisers.remove(co)
    replayed = client_as(co).post(url, penalty, format="json", HTTP_IDEMPOTENCY_KEY="p")
    assert replayed.status_code == 403 and not replayed.has_header("Idempotent-Replayed")
    # The owner's own replay still answers as before.
    assert (
        client_as(owner).post(url, penalty, format="json", HTTP_IDEMPOTENCY_KEY="p").status_code
        == 201
    )


@pytest.mark.django_db
def test_a_new_table_link_replays_nothing_the_old_one_sent(table, owner):
    match, ids = table
    old = client_as(match_token=match.token)
    first = post(old, match, body(ids, number=1), "queued-1")
    assert first.status_code == 201
    replaced = client_as(owner).post(f"/api/v1/matches/{match.pk}/token/").json()["token"]
    new = client_as(match_token=replaced)
    again = post(new, match, body(ids, number=1), "queued-1")
    assert not again.has_header("Idempotent-Replayed")
    assert again.status_code == 409  # a new request: game 1 waits for another's entry
    # The old link itself is gone.
    assert post(old, match, body(ids, number=1), "queued-1").status_code == 401
