"""Formats: each preset fills the settings not given on create, explicit settings
win, an unknown format is refused at ``format``; the API and the web form take
one; the new tournament remembers it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from scoring.errors import UserError
from tests.factories import TournamentFactory, UserFactory
from tests.tournaments.api.conftest import client_as
from tests.tournaments.web.test_settings import form_post
from tournaments.formats import FORMATS, format_settings, format_tournament
from tournaments.models import Tournament
from tournaments.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

NAMES = [
    "club_night",
    "belgian_club",
    "german_city",
    "dutch_championship",
    "japanese_qualifier",
    "two_player_swiss",
    "bonus_league",
]
# Presets whose settings the standings or the engine of this checkout may not
# know yet are created only when they do (countback: the ranking's work).
EXPECTED: dict[str, dict[str, Any]] = {
    "club_night": {"seating": "swiss", "rounds": 3, "games_per_round": 4, "joker_penalty": 30},
    "belgian_club": {
        "joker_penalty": 25,
        "rounds": 1,
        "games_per_round": 3,
        "semifinal_players": 8,
        "semifinal_games": 2,
        "final_games": 1,
        "final_from": "stage_points",
        "carry_over": "0",
    },
    "german_city": {"ranking": "table_points", "turn_seconds": 60, "max_table_size": 4},
    "dutch_championship": {"rounds": 2, "semifinal_players": 8, "final_first_to": 4},
    "japanese_qualifier": {
        "joker_penalty": 50,
        "games_per_round": 3,
        "ranking": "wins",
        "carry_over": "0.5",
    },
    "two_player_swiss": {"max_table_size": 2, "rounds": 5, "games_per_round": 1},
    "bonus_league": {"loss_cap": 25, "winner_bonus": 50, "runner_up_bonus": 5},
}


def countback_known() -> bool:
    from scoring.tie_breaks import TIE_BREAK_NAMES

    return "countback" in TIE_BREAK_NAMES


def test_there_are_the_seven_formats_each_described_with_its_source():
    assert list(FORMATS) == NAMES
    for preset in FORMATS.values():
        assert str(preset.title) and str(preset.description) and str(preset.source)


@pytest.mark.parametrize("name", NAMES)
def test_a_format_fills_every_setting_not_given_and_is_remembered(name):
    if name == "japanese_qualifier" and not countback_known():
        pytest.skip("the countback tie-break is not in this checkout yet")
    t = tournament_create(owner=UserFactory(), name="Cup", format=name)
    assert t.format == name
    for setting, value in EXPECTED[name].items():
        assert getattr(t, setting) == value, setting


def test_german_city_keeps_the_default_points_of_other_table_sizes():
    t = tournament_create(owner=UserFactory(), name="Cup", format="german_city")
    assert t.table_points["4"] == [4, 3, 1, 0] and t.table_points["3"] == [4, 2, 0]


def test_explicit_settings_override_the_format():
    settings = format_settings(
        settings={"format": "belgian_club", "joker_penalty": 30, "table_points": {"3": [3, 1, 0]}}
    )
    assert settings["joker_penalty"] == 30 and settings["semifinal_players"] == 8
    t = tournament_create(owner=UserFactory(), name="Cup", format="dutch_championship", rounds=4)
    assert (t.rounds, t.final_first_to) == (4, 4)


@pytest.mark.parametrize("given", [{}, {"format": ""}])
def test_no_format_leaves_the_settings_as_given(given):
    assert format_settings(settings={"name": "x", **given}) == {"name": "x", **given}
    t = tournament_create(owner=UserFactory(), name="Cup", **given)
    assert t.format == "" and t.joker_penalty == 30


@pytest.mark.parametrize("bad", ["world_cup", "Club_Night", 7])
def test_an_unknown_format_is_refused_at_its_field_and_nothing_is_stored(bad):
    with pytest.raises(UserError) as refused:
        tournament_create(owner=UserFactory(), name="Cup", format=bad)
    assert refused.value.field == "format"
    assert "club_night" in str(refused.value.render(str))
    assert not Tournament.objects.exists()


def test_format_tournament_starts_a_form_from_the_format_or_the_defaults():
    assert format_tournament(name="two_player_swiss").max_table_size == 2
    assert format_tournament(name="nonsense").max_table_size == 4


# ----------------------------------------------------------------------------- API


def test_the_api_creates_from_a_format_and_refuses_an_unknown_one():
    user = UserFactory()
    api = client_as(user)
    made = api.post(
        "/api/v1/tournaments/", {"name": "Cup", "format": "bonus_league", "loss_cap": 30}, "json"
    )
    assert made.status_code == 201, made.content
    assert (made.json()["format"], made.json()["loss_cap"], made.json()["winner_bonus"]) == (
        "bonus_league",
        30,
        50,
    )
    bad = api.post("/api/v1/tournaments/", {"name": "Cup 2", "format": "world_cup"}, "json")
    assert bad.status_code == 400 and "format" in bad.content.decode()
    assert Tournament.objects.count() == 1


def test_the_api_keeps_the_format_once_created():
    t = TournamentFactory(format="club_night")
    api = client_as(t.owner)
    url = f"/api/v1/tournaments/{t.pk}/"
    assert api.patch(url, {"format": "club_night"}, "json").status_code == 200
    changed = api.patch(url, {"format": "bonus_league"}, "json")
    assert changed.status_code == 200 and changed.json()["format"] == "club_night"
    t.refresh_from_db()
    assert t.format == "club_night" and t.loss_cap is None


# ----------------------------------------------------------------------------- web


def test_the_new_tournament_page_lists_the_formats_and_fills_the_form_from_one(client: Client):
    client.force_login(UserFactory())
    page = client.get("/t/new/").content.decode()
    for preset in FORMATS.values():
        assert f'value="{preset.name}"' in page and escape(str(preset.source)) in page
    filled = client.get("/t/new/?format=two_player_swiss").content.decode()
    assert 'name="format" value="two_player_swiss"' in filled
    assert '<option value="2" selected>' in filled
    unknown = client.get("/t/new/?format=world_cup")
    assert unknown.status_code == 200 and 'name="format" value="world_cup"' not in (
        unknown.content.decode()
    )


def test_the_web_form_creates_a_tournament_remembering_its_format(client: Client):
    client.force_login(UserFactory())
    response = client.post("/t/new/", form_post(format="german_city", ranking="table_points"))
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert (t.format, t.ranking) == ("german_city", "table_points")
    bad = client.post("/t/new/", form_post(name="Other", format="world_cup"))
    assert bad.status_code == 400 and "world_cup" in bad.content.decode()
    assert Tournament.objects.count() == 1
