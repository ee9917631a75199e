"""No input makes the API answer 500: malformed JSON, wrong types, nulls,
huge numbers, lists for objects, odd headers, odd query strings, the browsable
API's HTML forms, OPTIONS; table-driven, then fuzzed with Hypothesis."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.rules import RackIn
from tests.factories import PlayerFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.models import AuditEvent, Game, Rack
from tournaments.services.adjustments import adjustment_add
from tournaments.services.games import game_record

pytestmark = pytest.mark.django_db

HUGE = 10**400

NASTY_BODIES: list[Any] = [
    None,
    [],
    [1, 2],
    "rummikub",
    0,
    True,
    {},
    {"ending": None, "racks": None},
    {"ending": ["rummikub"], "racks": [{"player": 1, "tiles": ""}]},
    {"ending": {"x": 1}, "racks": []},
    {"ending": "rummikub", "racks": {}},
    {"ending": "rummikub", "racks": "R5 J"},
    {"ending": "rummikub", "racks": [None, None]},
    {"ending": "rummikub", "racks": [[1, ""], [2, "R5"]]},
    {"ending": "rummikub", "racks": [{"player": None, "tiles": None, "points": None}] * 2},
    {"ending": "rummikub", "racks": [{"player": HUGE, "points": HUGE, "jokers": HUGE}] * 2},
    {"ending": "rummikub", "racks": [{"player": -HUGE, "points": -HUGE, "jokers": -HUGE}] * 2},
    {"ending": "rummikub", "racks": [{"player": 1.5, "points": 1e308, "jokers": 0.5}] * 2},
    {"ending": "rummikub", "racks": [{"player": True, "points": False, "tiles": True}] * 2},
    {"ending": "rummikub", "racks": [{"player": {}, "points": [], "tiles": {}}] * 2},
    {"ending": "rummikub", "racks": [{"player": "1", "tiles": "R5" * 10_000}] * 2},
    {"ending": "rummikub", "racks": [{"player": "1", "tiles": "R" + "9" * 5000}] * 2},
    {"ending": "rummikub", "racks": [{"player": "\x00", "tiles": "R5\x00"}] * 2},
    {"ending": "rummikub", "racks": [{"player": "1", "points": "9" * 5000}] * 2},
    {"ending": "rummikub", "racks": [{"player": 1, "tiles": ""}] * 10_000},
    {"ending": "\U0001f0cf", "racks": [{"player": "\u202e", "tiles": "Ｒ５ Ｊ"}] * 2},
    {"rules": [], "ending": "rummikub", "racks": []},
    {"rules": {"joker_penalty": HUGE, "pool_tie": None}, "ending": "rummikub", "racks": []},
    {"rules": {"joker_penalty": "x", "pool_tie": ["share"]}, "ending": "pool_exhausted"},
    {"name": None, "club": HUGE, "date": "2026-02-30", "table_points": {"4": "4,3,1,0"}},
    {"name": "x" * 10_000, "slug": "-" * 500, "bye_score": "NaN", "seed": -1},
    {"name": "T", "table_points": {"4": [True, False, 0, 0]}, "tie_breaks": "wins"},
    {"name": "T", "table_points": {"4": [1.5, 1, 0, 0], "2": None}, "tie_breaks": [None, 1]},
    {"name": "T", "rounds": HUGE, "games_per_round": -HUGE, "max_table_size": "four"},
    {"player": HUGE, "players": [None, "a", HUGE], "status": 7},
    {"player": 1, "points": "1e999999", "reason": None, "kind": [], "round": HUGE},
    {"player": 1, "points": "-Infinity", "reason": "x" * 5000, "kind": "bye", "round": "a"},
    {"tables": [[HUGE]], "byes": [None]},
    {"tables": "1,2", "byes": {}},
    {"tables": [[1, 1, 1, 1, 1, 1]] * 3, "byes": [-1]},
    {"stage": None, "date": "yesterday"},
    {"stage": "final", "date": HUGE},
    {"status": None},
    {"username": None, "password": HUGE},
]

RAW_BODIES: list[tuple[str, str]] = [
    ("application/json", "{"),
    ("application/json", '{"ending": NaN}'),
    ("application/json", '{"ending": Infinity, "racks": [-Infinity]}'),
    ("application/json", "[" * 100_000 + "]" * 100_000),
    ("application/json", '{"a":' * 50_000 + "1" + "}" * 50_000),
    ("application/json", "1" * 5000),
    ("application/json", "\xff\xfe garbage"),
    ("application/json", ""),
    ("application/x-www-form-urlencoded", "ending=rummikub&racks=R5&racks[0]player=1"),
    (
        "multipart/form-data; boundary=xx",
        '--xx\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xx--',
    ),
    ("multipart/form-data", "no boundary"),
    ("text/plain", "ending=rummikub"),
    ("application/xml", "<ending/>"),
]


@pytest.fixture
def world(owner, staff):
    match = match_seated(players=4, owner=owner, games_per_round=30)
    ids = seated_ids(match)
    game = game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=ids[0], tiles="")] + [RackIn(player=p, points=5) for p in ids[1:]],
    )
    t = match.round.tournament
    adjustment = adjustment_add(tournament=t, player_id=ids[2], points=-1, reason="x", user=owner)
    return {
        "t": t.pk,
        "club": 0,
        "player": ids[0],
        "free": PlayerFactory().pk,
        "round": match.round_id,
        "match": match.pk,
        "game": game.pk,
        "adjustment": adjustment.pk,
        "token": match.token,
    }


def writes(w: dict[str, Any]) -> list[tuple[str, str]]:
    t = w["t"]
    return [
        ("post", "/api/v1/score/"),
        ("post", "/api/v1/auth/token/"),
        ("post", "/api/v1/clubs/"),
        ("post", "/api/v1/players/"),
        ("patch", f"/api/v1/players/{w['player']}/"),
        ("put", f"/api/v1/players/{w['player']}/"),
        ("post", "/api/v1/tournaments/"),
        ("patch", f"/api/v1/tournaments/{t}/"),
        ("put", f"/api/v1/tournaments/{t}/"),
        ("post", f"/api/v1/tournaments/{t}/entries/"),
        ("patch", f"/api/v1/tournaments/{t}/entries/{w['player']}/"),
        ("post", f"/api/v1/tournaments/{t}/adjustments/"),
        ("post", f"/api/v1/tournaments/{t}/rounds/"),
        ("put", f"/api/v1/rounds/{w['round']}/seating/"),
        ("post", f"/api/v1/rounds/{w['round']}/reseat/"),
        ("post", f"/api/v1/matches/{w['match']}/games/"),
        ("put", f"/api/v1/games/{w['game']}/"),
    ]


def reads(w: dict[str, Any]) -> list[str]:
    t = w["t"]
    return [
        "/api/v1/clubs/",
        "/api/v1/players/",
        f"/api/v1/players/{w['player']}/",
        "/api/v1/tournaments/",
        f"/api/v1/tournaments/{t}/",
        f"/api/v1/tournaments/{t}/entries/",
        f"/api/v1/tournaments/{t}/rounds/",
        f"/api/v1/tournaments/{t}/standings/",
        f"/api/v1/tournaments/{t}/adjustments/",
        f"/api/v1/rounds/{w['round']}/",
        f"/api/v1/matches/{w['match']}/",
        f"/api/v1/matches/{w['match']}/games/",
        f"/api/v1/matches/{w['match']}/history/",
        "/api/v1/matches/by-token/",
        "/api/v1/games/",
        f"/api/v1/games/{w['game']}/",
        "/api/v1/score/",
        "/api/v1/auth/token/",
    ]


def assert_no_500(response: Any, what: Any) -> None:
    assert response.status_code < 500, (what, response.status_code, response.content[:300])


def test_nasty_json_bodies_to_every_write(world, owner, as_user):
    client = as_user(owner)
    for method, url in writes(world):
        for body in NASTY_BODIES:
            response = getattr(client, method)(
                url, json.dumps(body), content_type="application/json", HTTP_IF_MATCH="*"
            )
            assert_no_500(response, (method, url, str(body)[:80]))


def test_raw_bodies_to_every_write(world, owner, as_user):
    client = as_user(owner)
    for method, url in writes(world):
        for content_type, raw in RAW_BODIES:
            response = getattr(client, method)(
                url, raw.encode("utf-8", "surrogatepass"), content_type=content_type
            )
            assert_no_500(response, (method, url, content_type, raw[:40]))


def test_a_match_token_with_nasty_bodies(world):
    client = client_as(match_token=world["token"])
    for body in NASTY_BODIES:
        response = client.post(
            f"/api/v1/matches/{world['match']}/games/",
            json.dumps(body),
            content_type="application/json",
        )
        assert_no_500(response, str(body)[:80])


ODD_QUERIES = [
    "page=0",
    "page=-1",
    "page=abc",
    "page=99999999999999999999999",
    "page_size=0",
    "page_size=-5",
    "page_size=abc",
    "page_size=99999999",
    "ordering=--name",
    "ordering=nonexistent,-id,,",
    "ordering=" + "x" * 5000,
    "search=%00",
    "search=" + "%25" * 2000,
    "club=1e5",
    "club=99999999999999999999999999",
    "club=-1",
    "date=2026-13-45",
    "date_from=0000-00-00",
    "status=%00",
    "public=maybe",
    "no_club=2",
    "tournament=99999999999999999999999999",
    "player=abc",
    "round=-1",
    "match=1.5",
    "stage=semifinal",
    "stage=%00",
    "format=xml",
    "format=api",
]


def test_odd_query_strings_on_every_read(world, anon):
    for url in reads(world):
        for query in ODD_QUERIES:
            assert_no_500(anon.get(f"{url}?{query}"), (url, query))


def test_odd_paths(anon):
    for path in [
        "/api/v1/players/99999999999999999999999999/",
        "/api/v1/players/0/",
        "/api/v1/players/-1/",
        "/api/v1/players/abc/",
        "/api/v1/tournaments/99999999999999999999/standings/",
        "/api/v1/tournaments/999999999999999999/standings/",
        "/api/v1/games/999999999999999999/",
        "/api/v1/matches/999999999999999999/games/",
        "/api/v1/rounds/999999999999999999/reseat/",
    ]:
        response = anon.get(path)
        assert response.status_code in (404, 405), (path, response.status_code)


ODD_HEADERS = [
    {"HTTP_AUTHORIZATION": "Token"},
    {"HTTP_AUTHORIZATION": "Token a b"},
    {"HTTP_AUTHORIZATION": "Token \x00"},
    {"HTTP_AUTHORIZATION": "Bearer abc"},
    {"HTTP_AUTHORIZATION": "Token " + "a" * 5000},
    {"HTTP_X_MATCH_TOKEN": ""},
    {"HTTP_X_MATCH_TOKEN": "\x00"},
    {"HTTP_X_MATCH_TOKEN": "a" * 5000},
    {"HTTP_IF_MATCH": ""},
    {"HTTP_IF_MATCH": ","},
    {"HTTP_IF_MATCH": '"' + "9" * 5000 + '"'},
    {"HTTP_IF_MATCH": "W/"},
    {"HTTP_IF_MATCH": '"-1"'},
    {"HTTP_ACCEPT": "application/xml"},
    {"HTTP_ACCEPT_LANGUAGE": "xx-YY;q=abc"},
]


def test_odd_headers(world, owner):
    body = {"ending": "rummikub", "racks": [{"player": world["player"], "tiles": ""}]}
    for headers in ODD_HEADERS:
        client = APIClient()
        for url in reads(world):
            assert_no_500(client.get(url, **headers), (url, headers))
        for method, url in [
            ("put", f"/api/v1/games/{world['game']}/"),
            ("delete", f"/api/v1/games/{world['game']}/"),
            ("post", f"/api/v1/matches/{world['match']}/games/"),
        ]:
            authed = client_as(owner)
            response = getattr(authed, method)(url, body, format="json", **headers)
            assert_no_500(response, (method, url, headers))


def test_options_and_the_browsable_api(world, owner, as_user):
    """The browsable API renders forms for every serializer: none may crash."""
    for client in (APIClient(), as_user(owner)):
        for url in reads(world) + [u for _m, u in writes(world)]:
            assert_no_500(client.options(url), ("OPTIONS", url))
            html = client.get(url, HTTP_ACCEPT="text/html")
            assert_no_500(html, ("HTML", url))


# ----------------------------------------------------------------------------- fuzzing

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["", "R5", "J", "R14", "K13 K13 K13", "rummikub", "pool_exhausted", "J J J"]),
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)
rack_values = st.fixed_dictionaries(
    {},
    optional={
        "player": json_values,
        "tiles": json_values,
        "points": json_values,
        "jokers": json_values,
    },
)
game_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "ending": json_values,
            "racks": st.one_of(
                json_values, st.lists(st.one_of(rack_values, json_values), max_size=6)
            ),
            "rules": st.one_of(
                json_values,
                st.fixed_dictionaries(
                    {}, optional={"joker_penalty": json_values, "pool_tie": json_values}
                ),
            ),
        },
    ),
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(body=game_bodies)
def test_fuzz_the_calculator(anon, body):
    before = (Game.objects.count(), Rack.objects.count(), AuditEvent.objects.count())
    response = anon.post("/api/v1/score/", json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400), (body, response.content[:300])
    assert (Game.objects.count(), Rack.objects.count(), AuditEvent.objects.count()) == before


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(body=game_bodies)
def test_fuzz_recording_a_game(world, owner, body):
    response = client_as(owner).post(
        f"/api/v1/matches/{world['match']}/games/",
        json.dumps(body),
        content_type="application/json",
    )
    assert response.status_code in (201, 400, 409), (body, response.content[:300])


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None, max_examples=40
)
@given(body=json_values)
def test_fuzz_creating_a_tournament(owner, body):
    response = client_as(owner).post(
        "/api/v1/tournaments/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code in (201, 400), (body, response.content[:300])
