"""Every number a client sets through the API is bounded by the rules engine's
constants: at its limit it is accepted, one past it is a 400 naming the field
with nothing stored, never a 500 (SQLite stores any integer, so the bound must
come from validation; PostgreSQL's smallint, integer and bigint columns would
overflow). The OpenAPI document declares the same limits."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from scoring import rules
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, match_seated, seated_ids
from tests.test_bounds_variants import VARIANT_LIMITS
from tests.tournaments.api.conftest import client_as
from tournaments.api.id_fields import ID_MAX
from tournaments.models import Adjustment, Entry, Game, Rack, Tournament

pytestmark = pytest.mark.django_db

SCORE_MAX = rules.SCORE_SETTING_MAX
CENT = Decimal("0.01")


@pytest.fixture
def owner() -> Any:
    return UserFactory(username="owner", password=None)


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


def _json(value: Any) -> Any:
    return float(value) if isinstance(value, Decimal) else value


def _stored(tournament: Tournament) -> dict[str, Any]:
    return {
        f.name: getattr(tournament, f.name)
        for f in Tournament._meta.concrete_fields
        if f.name not in ("created",)
    }


# ----------------------------------------------------------------------------- settings

# (field, value at the limit, value one past it); a fresh tournament for each row.
SETTINGS: list[tuple[str, Any, Any]] = [
    ("joker_penalty", rules.JOKER_PENALTY_MAX, rules.JOKER_PENALTY_MAX + 1),
    ("joker_penalty", 0, -1),
    ("joker_penalty", rules.JOKER_PENALTY_MAX, 32768),  # the column's smallint overflow
    ("rounds", rules.ROUNDS_MAX, rules.ROUNDS_MAX + 1),
    ("rounds", 0, -1),
    ("games_per_round", rules.GAMES_PER_ROUND_MAX, rules.GAMES_PER_ROUND_MAX + 1),
    ("games_per_round", rules.GAMES_PER_ROUND_MIN, rules.GAMES_PER_ROUND_MIN - 1),
    ("max_table_size", rules.PLAYERS_MAX, rules.PLAYERS_MAX + 1),
    ("max_table_size", rules.PLAYERS_MIN, rules.PLAYERS_MIN - 1),
    ("min_games", rules.MIN_GAMES_MAX, rules.MIN_GAMES_MAX + 1),
    ("min_games", 0, -1),
    ("seed", rules.SEED_MAX, rules.SEED_MAX + 1),
    ("seed", 0, -1),
    # Semi-finals fill whole tables of 4: the largest multiple of 4 in range.
    ("semifinal_players", rules.SEMIFINAL_PLAYERS_MAX // 4 * 4, rules.SEMIFINAL_PLAYERS_MAX + 1),
    ("bye_score", SCORE_MAX, SCORE_MAX + CENT),
    ("bye_score", -SCORE_MAX, -SCORE_MAX - CENT),
    ("table_points", {"4": [rules.TABLE_POINTS_MAX, 0, 0, 0]}, {"4": [1001, 0, 0, 0]}),
    ("table_points", {"2": [rules.TABLE_POINTS_MAX, 0]}, {"2": [10_000, 0]}),
    ("table_points", {"3": [0, 0, 0]}, {"3": [0, 0, -1]}),
    ("table_points", {"4": [4, 3, 1, 0]}, {"4": [2**63, 0, 0, 0]}),
]


@pytest.mark.parametrize(("name", "limit", "past"), SETTINGS, ids=lambda v: str(v)[:24])
def test_a_tournament_setting_at_its_limit_and_past_it(name, limit, past):
    tournament = TournamentFactory(owner__password=None)
    client = client_as(tournament.owner)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    before = _stored(Tournament.objects.get(pk=tournament.pk))

    refused = client.patch(url, {name: _json(past)}, format="json")
    assert refused.status_code == 400, refused.content
    assert name in refused.json()
    assert _stored(Tournament.objects.get(pk=tournament.pk)) == before

    accepted = client.patch(url, {name: _json(limit)}, format="json")
    assert accepted.status_code == 200, accepted.content
    stored = getattr(Tournament.objects.get(pk=tournament.pk), name)
    if name == "table_points":
        size, vector = next(iter(limit.items()))
        assert stored[size] == vector
    else:
        assert stored == limit


def test_a_new_tournament_past_a_limit_is_not_created(owner):
    client = client_as(owner)
    for name, _limit, past in SETTINGS:
        response = client.post(
            "/api/v1/tournaments/", {"name": "Cup", name: _json(past)}, format="json"
        )
        assert response.status_code == 400, (name, response.content)
        assert name in response.json()
    assert not Tournament.objects.exists()


def test_table_points_at_their_limit_score_and_read_back(owner):
    """The issue's 500: table points of 10,000 overflowed every game record after."""
    match = match_seated(players=4, owner=owner)
    tournament = match.round.tournament
    client = client_as(owner)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    top = rules.TABLE_POINTS_MAX
    assert client.patch(url, {"table_points": {"4": [top] * 4}}, format="json").status_code == 200
    ids = seated_ids(match)
    body = {
        "ending": "pool_exhausted",
        "racks": [{"player": p, "points": 5} for p in ids],  # a four-way tie shares the max
    }
    recorded = client.post(f"/api/v1/matches/{match.pk}/games/", body, format="json")
    assert recorded.status_code == 201, recorded.content
    assert {r.table_points for r in Rack.objects.all()} == {Decimal(top)}
    for read in (f"/api/v1/games/{recorded.json()['id']}/", f"{url}standings/"):
        assert client.get(read).status_code == 200


# ----------------------------------------------------------------------------- games


def _game_post(match_id: int, body: dict[str, Any], client: Any) -> Any:
    return client.post(
        f"/api/v1/matches/{match_id}/games/", json.dumps(body), content_type="application/json"
    )


def _racks(ids: list[int], second: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"player": ids[0], "tiles": ""}, {"player": ids[1], **second}]


# (what, the game's fields at the limit, one past it, the field named)
GAMES: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    (
        "points",
        {"racks": {"points": rules.TILE_SET_FACE_TOTAL}},
        {"racks": {"points": rules.TILE_SET_FACE_TOTAL + 1}},
        "racks",
    ),
    ("points huge", {"racks": {"points": 1}}, {"racks": {"points": 2**63}}, "racks"),
    ("points negative", {"racks": {"points": 1}}, {"racks": {"points": -1}}, "racks"),
    (
        "jokers",
        {"racks": {"points": 0, "jokers": rules.JOKERS_IN_SET}},
        {"racks": {"points": 0, "jokers": rules.JOKERS_IN_SET + 1}},
        "racks",
    ),
    ("jokers huge", {"racks": {"jokers": 1}}, {"racks": {"jokers": 2**70}}, "racks"),
    ("number", {"number": rules.GAME_NUMBER_MAX}, {"number": rules.GAME_NUMBER_MAX + 1}, "number"),
    ("number low", {"number": 1}, {"number": 0}, "number"),
    ("number huge", {"number": 1}, {"number": 2**63}, "number"),
]


@pytest.mark.parametrize(("what", "limit", "past", "field"), GAMES, ids=[g[0] for g in GAMES])
def test_a_game_at_its_limit_and_past_it(owner, what, limit, past, field):
    match = match_seated(players=2, owner=owner, games_per_round=rules.GAMES_PER_ROUND_MAX)
    ids = seated_ids(match)
    client = client_as(owner)

    def body(given: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"ending": "rummikub", "racks": _racks(ids, {"points": 3})}
        if "racks" in given:
            out["racks"] = _racks(ids, given["racks"])
        if "number" in given:
            out["number"] = given["number"]
        return out

    refused = _game_post(match.pk, body(past), client)
    assert refused.status_code == 400, refused.content
    assert field in refused.json()
    assert not Game.objects.exists() and not Rack.objects.exists()

    accepted = _game_post(match.pk, body(limit), client)
    assert accepted.status_code == 201, accepted.content


@pytest.mark.parametrize("count", [1, 5, 51, 10_000])
def test_racks_are_two_to_four(owner, count):
    match = match_seated(players=4, owner=owner)
    ids = seated_ids(match)
    racks = [{"player": ids[i % 4], "points": 1} for i in range(count)]
    response = _game_post(match.pk, {"ending": "pool_exhausted", "racks": racks}, client_as(owner))
    assert response.status_code == 400
    assert "2 to 4 racks" in response.json()["racks"][0]
    assert not Game.objects.exists()


@pytest.mark.parametrize("player", [ID_MAX, ID_MAX + 1, 10**30, 0, -1])
def test_a_rack_names_a_player_by_id_in_range(owner, player):
    match = match_seated(players=2, owner=owner)
    ids = seated_ids(match)
    racks = [{"player": ids[0], "tiles": ""}, {"player": player, "points": 3}]
    response = _game_post(match.pk, {"ending": "rummikub", "racks": racks}, client_as(owner))
    assert response.status_code == 400, response.content
    assert "racks" in response.json()
    assert not Game.objects.exists()


# ----------------------------------------------------------------------------- the rest


@pytest.mark.parametrize(
    ("kind", "limit", "past"),
    [("penalty", -SCORE_MAX, -SCORE_MAX - CENT), ("bonus", SCORE_MAX, SCORE_MAX + CENT)],
)
def test_an_adjustment_at_its_limit_and_past_it(owner, kind, limit, past):
    match = match_seated(players=2, owner=owner)
    tournament = match.round.tournament
    url = f"/api/v1/tournaments/{tournament.pk}/adjustments/"
    client = client_as(owner)
    body = {"player": seated_ids(match)[0], "kind": kind, "reason": "x"}
    for points in (past, past * 10**20):
        refused = client.post(url, {**body, "points": str(points)}, format="json")
        assert refused.status_code == 400, refused.content
        assert "points" in refused.json()
    assert not Adjustment.objects.exists()
    accepted = client.post(url, {**body, "points": str(limit)}, format="json")
    assert accepted.status_code == 201, accepted.content
    assert Adjustment.objects.get().points == limit


@pytest.mark.parametrize("player", [ID_MAX, ID_MAX + 1, 10**30, 0])
def test_ids_in_bodies_are_in_range(owner, player):
    tournament = TournamentFactory(owner=owner)
    client = client_as(owner)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    # An id in range that names no player is the service's refusal, on the list of ids.
    for path, body, fields in [
        ("entries/", {"player": player}, {"player", "players"}),
        ("entries/", {"players": [player]}, {"players"}),
        ("adjustments/", {"player": player, "points": -1, "reason": "x"}, {"player"}),
    ]:
        response = client.post(url + path, body, format="json")
        assert response.status_code == 400, (path, response.content)
        assert fields & set(response.json()), response.json()
    assert not Entry.objects.exists() and not Adjustment.objects.exists()


def test_a_list_of_ids_at_its_limit_and_past_it(owner):
    tournament = TournamentFactory(owner=owner)
    people = [p.pk for p in PlayerFactory.create_batch(1000, created_by=owner)]
    client = client_as(owner)
    url = f"/api/v1/tournaments/{tournament.pk}/entries/"
    refused = client.post(url, {"players": [*people, people[0]]}, format="json")
    assert refused.status_code == 400 and "players" in refused.json()
    assert not Entry.objects.exists()
    accepted = client.post(url, {"players": people}, format="json")
    assert accepted.status_code == 201, accepted.content[:300]
    assert Entry.objects.count() == 1000


@pytest.mark.parametrize(
    ("tables", "field"),
    [([[1] * 51], "tables"), ([[1, 2]] * 1001, "tables"), ([[ID_MAX + 1, 1]], "tables")],
)
def test_seating_lists_are_bounded(owner, tables, field):
    match = match_seated(players=4, owner=owner)
    response = client_as(owner).put(
        f"/api/v1/rounds/{match.round_id}/seating/", {"tables": tables}, format="json"
    )
    assert response.status_code == 400, response.content[:300]
    assert field in response.json()


@pytest.mark.parametrize(
    ("query", "ok"),
    [
        (f"club={ID_MAX}", True),
        (f"club={ID_MAX + 1}", False),
        ("club=0", False),
        (f"club={10**40}", False),
    ],
)
def test_id_filters_are_in_range(owner, query, ok):
    client = client_as(owner)
    for path in ("/api/v1/players/", "/api/v1/tournaments/"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == (200 if ok else 400), (path, response.content)
        if not ok:
            assert "club" in response.json()
    for name in ("tournament", "round", "match", "player"):
        big = client.get(f"/api/v1/games/?{name}={ID_MAX + 1}")
        assert big.status_code == 400 and name in big.json()


@pytest.mark.parametrize("digits", [18, 19, 40])
def test_ids_in_paths_never_overflow(owner, digits):
    client = client_as(owner)
    for path in ("tournaments", "players", "games", "matches", "rounds"):
        response = client.get(f"/api/v1/{path}/{'9' * digits}/")
        assert response.status_code == 404, (path, response.status_code)


# ----------------------------------------------------------------------------- calculator

CALCULATOR: list[tuple[str, Any, Any]] = [
    ("rules.joker_penalty", rules.JOKER_PENALTY_MAX, rules.JOKER_PENALTY_MAX + 1),
    ("rules.joker_penalty", 0, -1),
    ("points", rules.TILE_SET_FACE_TOTAL, rules.TILE_SET_FACE_TOTAL + 1),
    ("jokers", rules.JOKERS_IN_SET, rules.JOKERS_IN_SET + 1),
    ("racks", 4, 5),
    ("racks", 2, 1),
]


@pytest.mark.parametrize(("name", "limit", "past"), CALCULATOR)
def test_the_calculator_at_its_limits(anon, name, limit, past):
    def body(value: Any) -> dict[str, Any]:
        racks = [{"player": "A", "tiles": ""}, {"player": "B", "points": 0, "jokers": 1}]
        out: dict[str, Any] = {"ending": "rummikub", "racks": racks}
        if name == "rules.joker_penalty":
            out["rules"] = {"joker_penalty": value}
        elif name == "racks":
            out["racks"] = [racks[0]] + [{"player": str(i), "points": 1} for i in range(value - 1)]
        else:
            racks[1] = {"player": "B", "points": 0, name: value}
        return out

    assert anon.post("/api/v1/score/", body(limit), format="json").status_code == 200
    refused = anon.post("/api/v1/score/", body(past), format="json")
    assert refused.status_code == 400, refused.content
    # A rack's refusal names the racks (and, in words, the rack and the player).
    assert (name.split(".")[0] if name.startswith("rules") else "racks") in refused.json()


# ----------------------------------------------------------------------------- the document


def _schema(tmp_path: Any) -> dict[str, Any]:
    out = tmp_path / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(out))
    schema: dict[str, Any] = json.loads(out.read_text())
    return schema


# A tournament's whole-number settings and the engine's limits for each.
SETTING_LIMITS = {
    "joker_penalty": (0, rules.JOKER_PENALTY_MAX),
    "rounds": (0, rules.ROUNDS_MAX),
    "games_per_round": (rules.GAMES_PER_ROUND_MIN, rules.GAMES_PER_ROUND_MAX),
    "max_table_size": (rules.PLAYERS_MIN, rules.PLAYERS_MAX),
    "min_games": (0, rules.MIN_GAMES_MAX),
    "seed": (0, rules.SEED_MAX),
    "semifinal_players": (0, rules.SEMIFINAL_PLAYERS_MAX),
    **VARIANT_LIMITS,
}


def test_the_openapi_document_declares_the_limits(tmp_path):
    schemas = _schema(tmp_path)["components"]["schemas"]
    settings = schemas["TournamentRequest"]["properties"]
    expected = {
        **SETTING_LIMITS,
        "bye_score": (-SCORE_MAX, SCORE_MAX),
    }
    for name, (low, high) in expected.items():
        bounds = (Decimal(str(settings[name]["minimum"])), Decimal(str(settings[name]["maximum"])))
        assert bounds == (low, high), name
    for vector in settings["table_points"]["properties"].values():
        assert (vector["items"]["minimum"], vector["items"]["maximum"]) == (
            0,
            rules.TABLE_POINTS_MAX,
        )
    for rack in ("RackInRequest", "GameRackInRequest"):
        props = schemas[rack]["properties"]
        assert props["points"]["maximum"] == rules.TILE_SET_FACE_TOTAL
        assert props["jokers"]["maximum"] == rules.JOKERS_IN_SET
    for game in ("CalculatorInRequest", "GameInRequest", "GameRecordInRequest"):
        racks = schemas[game]["properties"]["racks"]
        assert (racks["minItems"], racks["maxItems"]) == (rules.PLAYERS_MIN, rules.PLAYERS_MAX)
    assert schemas["GameRecordInRequest"]["properties"]["number"]["maximum"] == (
        rules.GAME_NUMBER_MAX
    )
    assert schemas["RulesInRequest"]["properties"]["joker_penalty"]["maximum"] == (
        rules.JOKER_PENALTY_MAX
    )
    points = schemas["AdjustmentInRequest"]["properties"]["points"]
    assert (Decimal(str(points["minimum"])), Decimal(str(points["maximum"]))) == (
        -SCORE_MAX,
        SCORE_MAX,
    )
