"""A backup document's numbers are bounded like every other input: the format's
JSON Schema declares the rules engine's limits, and a restore takes a setting
at its limit and refuses one past it (400 naming the place in the file,
nothing stored), never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring import rules
from tests.factories import UserFactory
from tests.test_bounds import SETTING_LIMITS
from tests.tournaments.api.conftest import client_as
from tests.tournaments.backups.big import big_document
from tournaments.backups.checks import SCHEMA_PATH
from tournaments.backups.document import checksum_of
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db

IMPORT = "/api/v1/tournaments/import/?slug=copy"

# (setting, value at the limit, value one past it)
SETTINGS: list[tuple[str, Any, Any]] = [
    ("joker_penalty", rules.JOKER_PENALTY_MAX, rules.JOKER_PENALTY_MAX + 1),
    ("rounds", rules.ROUNDS_MAX, rules.ROUNDS_MAX + 1),
    ("games_per_round", rules.GAMES_PER_ROUND_MAX, rules.GAMES_PER_ROUND_MAX + 1),
    ("games_per_round", rules.GAMES_PER_ROUND_MIN, rules.GAMES_PER_ROUND_MIN - 1),
    ("max_table_size", rules.PLAYERS_MAX, rules.PLAYERS_MAX + 1),
    ("min_games", rules.MIN_GAMES_MAX, rules.MIN_GAMES_MAX + 1),
    ("seed", rules.SEED_MAX, rules.SEED_MAX + 1),
    ("semifinal_players", rules.SEMIFINAL_PLAYERS_MAX // 4 * 4, rules.SEMIFINAL_PLAYERS_MAX + 1),
    (
        "table_points",
        {"2": [4, 0], "3": [4, 2, 0], "4": [rules.TABLE_POINTS_MAX, 0, 0, 0]},
        {"2": [4, 0], "3": [4, 2, 0], "4": [rules.TABLE_POINTS_MAX + 1, 0, 0, 0]},
    ),
    ("loss_cap", rules.LOSS_CAP_MAX, rules.LOSS_CAP_MAX + 1),
    ("loss_cap", 1, 0),
    ("winner_bonus", rules.BONUS_MAX, rules.BONUS_MAX + 1),
    ("runner_up_bonus", rules.BONUS_MAX, rules.BONUS_MAX + 1),
    ("semifinal_games", rules.GAMES_PER_ROUND_MAX, rules.GAMES_PER_ROUND_MAX + 1),
    ("final_games", rules.GAMES_PER_ROUND_MIN, rules.GAMES_PER_ROUND_MIN - 1),
    ("final_first_to", rules.FINAL_FIRST_TO_MAX, rules.FINAL_FIRST_TO_MAX + 1),
    ("round_minutes", rules.ROUND_MINUTES_MAX, rules.ROUND_MINUTES_MAX + 1),
    ("turn_seconds", 120, 121),
    ("carry_over", "0.5", "0.25"),
]


def _document(**settings: Any) -> dict[str, Any]:
    document = big_document(players=4, rounds=1, games=0)
    document["tournament"] = {**document["tournament"], **settings}
    document["checksum"] = checksum_of(document)
    return document


@pytest.mark.parametrize(("name", "limit", "past"), SETTINGS, ids=lambda v: str(v)[:20])
def test_a_restored_setting_at_its_limit_and_past_it(name, limit, past):
    client = client_as(UserFactory(password=None))
    refused = client.post(
        IMPORT, json.dumps(_document(**{name: past})), content_type="application/json"
    )
    assert refused.status_code == 400, refused.content[:300]
    assert "document" in refused.json() or name in refused.json()
    assert not Tournament.objects.exists()

    accepted = client.post(
        IMPORT, json.dumps(_document(**{name: limit})), content_type="application/json"
    )
    assert accepted.status_code == 201, accepted.content[:300]
    assert getattr(Tournament.objects.get(), name) == limit


@pytest.mark.parametrize(
    ("place", "past"),
    [
        ("points", rules.TILE_SET_FACE_TOTAL + 1),
        ("points", 2**63),
        ("jokers", rules.JOKERS_IN_SET + 1),
        ("position", rules.PLAYERS_MAX + 1),
        ("player", 10**30),
    ],
)
def test_a_restored_rack_past_its_limit_is_refused(place, past):
    document = big_document(players=4, rounds=1, games=1)
    document["games"][0]["racks"][1][place] = past
    document["checksum"] = checksum_of(document)
    response = client_as(UserFactory(password=None)).post(
        IMPORT, json.dumps(document), content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    assert "document" in response.json()
    assert not Tournament.objects.exists() and not Game.objects.exists()


def test_the_format_declares_the_engines_limits():
    schema = json.loads(SCHEMA_PATH.read_text())
    settings = schema["properties"]["tournament"]["properties"]
    expected = SETTING_LIMITS
    for name, bounds in expected.items():
        assert (settings[name]["minimum"], settings[name]["maximum"]) == bounds, name
    rack = schema["properties"]["games"]["items"]["properties"]["racks"]["items"]["properties"]
    assert rack["points"]["maximum"] == rules.TILE_SET_FACE_TOTAL
    assert rack["jokers"]["maximum"] == rules.JOKERS_IN_SET
    assert rack["position"]["maximum"] == rules.PLAYERS_MAX
