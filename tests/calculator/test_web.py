"""The score calculator page: scores from the query string, the rules
engine's own refusals, blank rows as emptied racks."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import rules

pytestmark = pytest.mark.django_db


def test_calculator_blank_and_scored(client: Client) -> None:
    assert client.get("/calculator/").status_code == 200
    response = client.get(
        "/calculator/",
        {
            "ending": "rummikub",
            "joker_penalty": "30",
            "pool_tie": "share",
            "p1_name": "Anna",
            "p2_name": "Ben",
            "p2_tiles": "R5 J",
            "p3_name": "Cleo",
            "p3_points": "16",
            "p4_name": "Dan",
            "p4_points": "3",
        },
    )
    assert response.status_code == 200
    assert [(r["player"], r["score"]) for r in response.context["rows"]] == [
        ("Anna", 54),
        ("Ben", -35),
        ("Cleo", -16),
        ("Dan", -3),
    ]


def test_calculator_refusal_uses_the_rules_engine_message(client: Client) -> None:
    params = {"ending": "rummikub", "joker_penalty": "30", "pool_tie": "share"}
    two_empty = client.get("/calculator/", {**params, "players": "2", "p1_name": "Anna"})
    assert two_empty.status_code == 400
    with pytest.raises(rules.RuleError) as refused:
        rules.game_score(
            ending="rummikub",
            racks=[rules.RackIn(player="Anna", tiles=""), rules.RackIn(player="B", tiles="")],
        )
    assert two_empty.context["form"].non_field_errors() == [refused.value.render()]
    negative = client.get("/calculator/", {**params, "joker_penalty": "-1", "p1_name": "A"})
    assert "cannot be negative" in negative.context["form"].errors["joker_penalty"][0]


def test_calculator_blank_rows_are_empty_racks_up_to_the_number_of_players(client) -> None:
    params = {"ending": "rummikub", "joker_penalty": "30", "pool_tie": "share"}
    # No names typed, the winner's row (2) left blank, three players at the table.
    response = client.get(
        "/calculator/", {**params, "players": "3", "p1_points": "5", "p3_points": "3"}
    )
    assert response.status_code == 200
    assert [(r["player"], r["score"]) for r in response.context["rows"]] == [
        ("Player 1", -5),
        ("Player 2", 8),
        ("Player 3", -3),
    ]
