"""The calculator with the event variants: the bonus league example, draws,
``time_up``, and a 400 naming the rule for every bad variant setting."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/v1/score/"
RACKS = [
    {"player": "A", "points": 0},
    {"player": "B", "points": 31},
    {"player": "C", "points": 15},
    {"player": "D", "points": 10},
]


def score(
    client: Any, *, rules: dict[str, Any], ending: str = "rummikub", racks: Any = RACKS
) -> Any:
    return client.post(URL, {"rules": rules, "ending": ending, "racks": racks}, format="json")


def test_the_bonus_league_example(anon) -> None:
    answer = score(anon, rules={"loss_cap": 25, "winner_bonus": 50, "runner_up_bonus": 5})
    assert answer.status_code == 200, answer.content
    assert [(s["score"], s["bonus"]) for s in answer.json()["scores"]] == [
        (50, 50),
        (-25, 0),
        (-15, 0),
        (-10, 5),
    ]
    assert answer.json()["winners"] == ["A"]


def test_a_draw_at_time_up_has_no_winner(anon) -> None:
    racks = [
        {"player": "A", "points": 4},
        {"player": "B", "points": 4},
        {"player": "C", "points": 9},
    ]
    answer = score(
        anon,
        rules={"pool_tie": "draw", "winner_bonus": 10, "runner_up_bonus": 2},
        ending="time_up",
        racks=racks,
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["ending"] == "time_up" and body["winners"] == []
    assert [(s["score"], s["bonus"]) for s in body["scores"]] == [(2.5, 0), (2.5, 0), (-5, 2)]


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"loss_cap": 0}, "loss_cap"),
        ({"loss_cap": -1}, "loss_cap"),
        ({"loss_cap": 1.5}, "loss_cap"),
        ({"loss_cap": "ten"}, "loss_cap"),
        ({"loss_cap": 10001}, "loss_cap"),
        ({"winner_bonus": -5}, "winner_bonus"),
        ({"winner_bonus": 1001}, "winner_bonus"),
        ({"runner_up_bonus": -1}, "runner_up_bonus"),
        ({"runner_up_bonus": 2.5}, "runner_up_bonus"),
        ({"pool_tie": "coin"}, "pool_tie"),
    ],
)
def test_bad_variant_settings_are_a_400_naming_the_rule(
    anon, rules: dict[str, Any], field: str
) -> None:
    answer = score(anon, rules=rules)
    assert answer.status_code == 400
    body = answer.json()
    assert field in str(body), body


def test_time_up_with_an_empty_rack_is_refused(anon) -> None:
    answer = score(anon, rules={}, ending="time_up")
    assert answer.status_code == 400 and "racks" in answer.json()
