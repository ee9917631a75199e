"""``Idempotency-Key``: replays, reused keys, callers, expiry, refusals, the
purge command, and that every API write passes the gate."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from rest_framework.views import APIView

from calculator.api import ScoreCalculatorView
from scoring.errors import ConflictError
from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.api.auth import TokenObtainView
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.models import Club, Game, IdempotencyKey

pytestmark = pytest.mark.django_db

KEY = "3f1c9a1e-retry-me"


@pytest.fixture
def setup(owner):
    match = match_seated(players=2, owner=owner, games_per_round=4)
    return match, seated_ids(match), client_as(owner)


def game_body(a, b, points=5):
    return {
        "ending": "rummikub",
        "racks": [{"player": a, "tiles": ""}, {"player": b, "points": points}],
    }


def record(client, match, body, key=KEY, **headers):
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(f"/api/v1/matches/{match.pk}/games/", body, format="json", **headers)


def test_a_retried_post_stores_one_game_and_answers_the_same(setup):
    match, (a, b), client = setup
    first = record(client, match, game_body(a, b))
    again = record(client, match, game_body(a, b))
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Location"] == first["Location"] and again["ETag"] == first["ETag"] == '"1"'
    assert again["Content-Type"] == first["Content-Type"] == "application/json"
    assert again["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert Game.objects.count() == 1
    stored = IdempotencyKey.objects.get()
    assert stored.caller == f"user:{match.round.tournament.owner_id}" and stored.status == 201


def test_key_order_and_whitespace_do_not_make_another_request(setup):
    match, (a, b), client = setup
    assert record(client, match, game_body(a, b)).status_code == 201
    reordered = (
        f'{{ "racks": [ {{"tiles": "", "player": {a}}}, {{"points": 5, "player": {b}}} ],\n'
        '  "ending": "rummikub" }'
    )
    again = client.post(
        f"/api/v1/matches/{match.pk}/games/",
        reordered,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=KEY,
    )
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 1


def test_the_same_key_with_another_body_is_422_and_stores_nothing(setup):
    match, (a, b), client = setup
    record(client, match, game_body(a, b))
    response = record(client, match, game_body(a, b, points=9))
    assert response.status_code == 422
    assert "another request" in response.json()["Idempotency-Key"][0]
    assert Game.objects.count() == 1
    assert list(Game.objects.get().racks.values_list("points", flat=True)) == [0, 5]


def test_the_same_key_on_another_path_is_422(setup):
    match, (a, b), client = setup
    record(client, match, game_body(a, b))
    response = client.post(
        "/api/v1/clubs/", {"name": "Kbh"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY
    )
    assert response.status_code == 422 and "Idempotency-Key" in response.json()


def test_the_same_key_from_another_caller_is_another_request(setup, staff):
    match, (a, b), client = setup
    assert record(client, match, game_body(a, b)).status_code == 201
    theirs = record(client_as(staff), match, game_body(a, b))
    assert theirs.status_code == 201 and not theirs.has_header("Idempotent-Replayed")
    assert Game.objects.count() == 2
    assert set(IdempotencyKey.objects.values_list("caller", flat=True)) == {
        f"user:{match.round.tournament.owner_id}",
        f"user:{staff.pk}",
    }


def test_match_token_callers_are_keyed_by_their_match(setup):
    match, (a, b), client = setup
    table = client_as(match_token=match.token)
    first = record(table, match, game_body(a, b))
    again = record(table, match, game_body(a, b))
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    # Keyed by the match and the token itself: a new link is another caller.
    digest = hashlib.sha256(match.token.encode()).hexdigest()[:16]
    assert IdempotencyKey.objects.get().caller == f"match:{match.pk}:{digest}"
    # The organiser sending the same key is someone else.
    assert not record(client, match, game_body(a, b)).has_header("Idempotent-Replayed")
    assert Game.objects.count() == 2


def test_an_expired_key_is_a_new_request(setup):
    match, (a, b), client = setup
    record(client, match, game_body(a, b))
    IdempotencyKey.objects.update(created=timezone.now() - timedelta(hours=24, minutes=1))
    again = record(client, match, game_body(a, b))
    assert again.status_code == 201 and not again.has_header("Idempotent-Replayed")
    assert Game.objects.count() == 2
    fresh = IdempotencyKey.objects.get()  # the expired row went
    assert fresh.created > timezone.now() - timedelta(minutes=1)


def test_a_keyed_write_leaves_other_expired_keys_to_the_sweep(setup, monkeypatch):
    # Purging on every request cost every keyed write a delete; the sweep does it.
    match, (a, b), client = setup
    monkeypatch.setattr("tournaments.services.idempotency.PURGE_CHANCE", 0.0)
    old = timezone.now() - timedelta(days=2)
    owner = match.round.tournament.owner
    IdempotencyKey.objects.create(
        caller=f"user:{owner.pk}", key="mine", fingerprint="x", created=old
    )
    record(client, match, game_body(a, b))
    assert set(IdempotencyKey.objects.values_list("key", flat=True)) == {KEY, "mine"}


@pytest.mark.parametrize("key", ["x" * 101, "", "tab\there", "nul\x00"])
def test_a_bad_key_is_400_naming_the_header_and_stores_nothing(setup, key):
    match, (a, b), client = setup
    response = record(client, match, game_body(a, b), key=key)
    assert response.status_code == 400
    assert list(response.json()) == ["Idempotency-Key"]
    assert not Game.objects.exists() and not IdempotencyKey.objects.exists()


def test_a_key_of_100_characters_is_fine(setup):
    match, (a, b), client = setup
    assert record(client, match, game_body(a, b), key="k" * 100).status_code == 201


def test_a_refusal_is_replayed_as_the_same_refusal(setup):
    match, (a, b), client = setup
    bad = {
        "ending": "rummikub",
        "racks": [{"player": a, "tiles": "R14"}, {"player": b, "points": 5}],
    }
    first = record(client, match, bad)
    again = record(client, match, bad)
    assert first.status_code == again.status_code == 400
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    # The key stays bound to that request: a corrected body needs a new key.
    assert record(client, match, game_body(a, b)).status_code == 422
    assert not Game.objects.exists()


def test_a_crash_keeps_neither_the_write_nor_the_key(setup, monkeypatch):
    match, (a, b), client = setup

    def crash(*args, **kwargs):
        raise RuntimeError("a bug")

    # The game is written, then answering it fails: both go.
    monkeypatch.setattr("tournaments.api.games.game_response", crash)
    client.raise_request_exception = False
    assert record(client, match, game_body(a, b)).status_code == 500
    assert not IdempotencyKey.objects.exists() and not Game.objects.exists()
    monkeypatch.undo()
    assert record(client, match, game_body(a, b)).status_code == 201


def test_put_and_delete_with_if_match_replay(setup):
    match, (a, b), client = setup
    created = record(client, match, game_body(a, b), key="record")
    url = created["Location"]
    put = {"format": "json", "HTTP_IF_MATCH": '"1"', "HTTP_IDEMPOTENCY_KEY": "correct"}
    corrected = client.put(url, game_body(a, b, points=7), **put)
    again = client.put(url, game_body(a, b, points=7), **put)
    assert corrected.status_code == again.status_code == 200
    assert again["ETag"] == corrected["ETag"] == '"2"' and again.content == corrected.content
    assert Game.objects.get().version == 2  # not corrected twice (a second would be 412)
    delete = {"HTTP_IF_MATCH": '"2"', "HTTP_IDEMPOTENCY_KEY": "delete"}
    deleted = client.delete(url, **delete)
    again = client.delete(url, **delete)
    assert deleted.status_code == again.status_code == 204
    assert again["Idempotent-Replayed"] == "true"
    assert not Game.objects.exists()


def test_requests_without_a_key_or_reads_or_logins_are_not_keyed(setup):
    match, (a, b), client = setup
    record(client, match, game_body(a, b), key=None)
    record(client, match, game_body(a, b), key=None)
    assert Game.objects.count() == 2
    assert (
        client.get(f"/api/v1/matches/{match.pk}/games/", HTTP_IDEMPOTENCY_KEY=KEY).status_code
        == 200
    )
    UserFactory(username="login", password="secret-pass-123")
    login = {"username": "login", "password": "secret-pass-123"}
    for _ in range(2):
        response = client_as().post("/api/v1/auth/token/", login, HTTP_IDEMPOTENCY_KEY=KEY)
        assert response.status_code == 200 and not response.has_header("Idempotent-Replayed")
    assert not IdempotencyKey.objects.exists()


def test_the_purge_command_deletes_expired_keys_and_says_how_many():
    now = timezone.now()
    for n, age in enumerate([timedelta(hours=25), timedelta(days=3), timedelta(hours=23)]):
        IdempotencyKey.objects.create(
            caller="user:1", key=f"k{n}", fingerprint="x", created=now - age
        )
    out = StringIO()
    call_command("purge_idempotency_keys", stdout=out)
    assert out.getvalue().strip() == "Deleted 2 expired idempotency keys."
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["k2"]


def _api_views(
    patterns: list[URLPattern | URLResolver], prefix: str = ""
) -> list[tuple[str, type, set[str]]]:
    found = []
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += _api_views(pattern.url_patterns, route)
            continue
        cls = getattr(pattern.callback, "cls", None)
        if cls is None or not issubclass(cls, APIView):
            continue  # Django's own views (the browsable API's login page)
        actions = getattr(pattern.callback, "actions", None)
        methods = set(actions) if actions else {m for m in cls.http_method_names if hasattr(cls, m)}
        found.append((route, cls, methods & {"post", "put", "patch", "delete"}))
    return found


def test_every_api_write_follows_the_protocol():
    views = [v for v in _api_views(get_resolver().url_patterns) if v[0].startswith("api/v1/")]
    writes = [(route, cls) for route, cls, methods in views if methods]
    assert len(writes) >= 15
    unkeyed = {cls for _route, cls in writes if not issubclass(cls, IdempotentWritesMixin)}
    # The login is anonymous, so never keyed; the calculator stores nothing.
    assert unkeyed == {TokenObtainView, ScoreCalculatorView}


def test_now_and_then_a_keyed_write_sweeps_everyones_expired_keys(setup, monkeypatch):
    match, (a, b), client = setup
    old = timezone.now() - timedelta(days=2)
    IdempotencyKey.objects.create(caller="user:999999", key="theirs", fingerprint="x", created=old)
    monkeypatch.setattr("tournaments.services.idempotency.PURGE_CHANCE", 1.0)
    record(client, match, game_body(a, b))
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == [KEY]


def test_other_writes_replay_too(staff):
    client = client_as(staff)
    first = client.post("/api/v1/clubs/", {"name": "Kbh"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    again = client.post("/api/v1/clubs/", {"name": "Kbh"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == again.status_code == 201 and again.content == first.content
    assert Club.objects.count() == 1
    url = f"/api/v1/clubs/{first.json()['id']}/"
    patch = {"format": "json", "HTTP_IDEMPOTENCY_KEY": "rename"}
    renamed = client.patch(url, {"name": "Aarhus"}, **patch)
    assert client.patch(url, {"name": "Aarhus"}, **patch)["Idempotent-Replayed"] == "true"
    assert client.patch(url, {"name": "Odense"}, **patch).status_code == 422
    assert renamed.status_code == 200 and Club.objects.get().name == "Aarhus"


def test_a_game_number_taken_is_kept_as_the_keys_answer(setup):
    match, (a, b), client = setup
    assert record(client, match, {**game_body(a, b), "number": 1}, key="first").status_code == 201
    other = {**game_body(b, a, points=9), "number": 1}
    first = record(client, match, other, key="second")
    again = record(client, match, other, key="second")
    assert first.status_code == again.status_code == 409
    assert first.json()["game"]["number"] == 1 and again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 1
    assert IdempotencyKey.objects.get(key="second").status == 409


def test_a_refusal_after_a_write_undoes_the_write_and_is_kept(setup, monkeypatch):
    """Inside the key's transaction a game is entered without a savepoint of its
    own: a refusal that comes after a write still leaves nothing written."""
    match, (a, b), client = setup

    def refused(**kwargs):
        raise ConflictError("refused after the game was written")

    # The game and its racks are written, then the audit refuses.
    monkeypatch.setattr("tournaments.services.games.game_audit", refused)
    first = record(client, match, game_body(a, b))
    assert first.status_code == 409 and "refused after" in first.content.decode()
    assert not Game.objects.exists()
    assert IdempotencyKey.objects.get().status == 409
    monkeypatch.undo()
    again = record(client, match, game_body(a, b))
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert not Game.objects.exists()
