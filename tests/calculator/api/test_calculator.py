"""The stateless calculator: the design's example, number formatting, rules."""

from __future__ import annotations

import pytest

from calculator.api import ENDING_CHOICES, POOL_TIE_CHOICES
from scoring import rules
from tournaments.models import Game

pytestmark = pytest.mark.django_db

URL = "/api/v1/score/"


def test_the_design_example_scores_as_documented(anon):
    response = anon.post(
        URL,
        {
            "rules": {"joker_penalty": 30, "pool_tie": "share"},
            "ending": "rummikub",
            "racks": [
                {"player": "Anna", "tiles": ""},
                {"player": "Ben", "tiles": "R5 J"},
                {"player": "Cleo", "points": 16},
                {"player": "Dan", "points": 3, "jokers": 0},
            ],
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json() == {
        "ending": "rummikub",
        "winners": ["Anna"],
        "scores": [
            {"player": "Anna", "rack_value": 0, "score": 54, "bonus": 0},
            {"player": "Ben", "rack_value": 35, "score": -35, "bonus": 0},
            {"player": "Cleo", "rack_value": 16, "score": -16, "bonus": 0},
            {"player": "Dan", "rack_value": 3, "score": -3, "bonus": 0},
        ],
    }
    assert not Game.objects.exists()


def test_scores_are_json_numbers_with_cents_only_when_needed(anon):
    # Three-way tie for the lowest rack: 100 shared by 3 is 33.34/33.33/33.33.
    response = anon.post(
        URL,
        {
            "ending": "pool_exhausted",
            "racks": [
                {"player": "A", "points": 5},
                {"player": "B", "points": 5},
                {"player": "C", "points": 5},
                {"player": "D", "points": 105},
            ],
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.content.decode()
    assert '"score":33.34' in body and '"score":33.33' in body and '"score":-100' in body
    assert response.json()["winners"] == ["A", "B", "C"]


def test_rules_change_the_scores(anon):
    racks = [
        {"player": "A", "tiles": ""},
        {"player": "B", "tiles": "J"},
    ]
    dutch = anon.post(
        URL, {"rules": {"joker_penalty": 25}, "ending": "rummikub", "racks": racks}, format="json"
    )
    assert dutch.json()["scores"][0] == {"player": "A", "rack_value": 0, "score": 25, "bonus": 0}
    tie = anon.post(
        URL,
        {
            "rules": {"pool_tie": "fewest_tiles"},
            "ending": "pool_exhausted",
            "racks": [
                {"player": "A", "tiles": "R5 K5"},
                {"player": "B", "tiles": "R10"},
                {"player": "C", "tiles": "B13"},
            ],
        },
        format="json",
    )
    assert tie.json()["winners"] == ["B"]


def test_scores_follow_the_order_of_the_racks(anon):
    response = anon.post(
        URL,
        {
            "ending": "rummikub",
            "racks": [{"player": "Z", "points": 7}, {"player": "A", "tiles": ""}],
        },
        format="json",
    )
    assert [s["player"] for s in response.json()["scores"]] == ["Z", "A"]


def test_no_login_is_needed_and_a_session_needs_no_csrf(owner):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post(
        URL,
        {
            "ending": "rummikub",
            "racks": [{"player": "A", "tiles": ""}, {"player": "B", "points": 1}],
        },
        format="json",
    )
    assert response.status_code == 200


def test_only_post_is_allowed(anon):
    assert anon.get(URL).status_code == 405


def test_the_apis_enums_are_the_engines():
    assert [value for value, _label in ENDING_CHOICES] == list(rules.ENDINGS)
    assert [value for value, _label in POOL_TIE_CHOICES] == list(rules.POOL_TIES)


def test_an_absurd_joker_penalty_is_refused_not_a_crash(anon):
    body = {
        "rules": {"joker_penalty": 10**26},
        "ending": "rummikub",
        "racks": [{"player": "A", "tiles": ""}, {"player": "B", "tiles": "J"}],
    }
    response = anon.post("/api/v1/score/", body, format="json")
    assert response.status_code == 400
    assert "at most 1000" in str(response.json())
