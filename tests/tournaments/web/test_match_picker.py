"""The tile picker and live preview on the match page and the calculator: the
page carries the picker config (the tournament's rules for the calculator) and
the script; without a form to fill there is neither."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import match_seated
from tests.tournaments.web.support import play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _config(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="picker-config" type="application/json">(.*?)</script>', html)
    assert found, "no picker config on the page"
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def test_match_page_sends_the_tournaments_rules(client: Client) -> None:
    match = match_seated(players=4, joker_penalty=50, pool_tie="fewest_tiles")
    html = client.get(f"/m/{match.token}/").content.decode()
    config = _config(html)
    assert config["rules"]["joker_penalty"] == 50
    assert config["rules"]["pool_tie"] == "fewest_tiles"
    assert "js/picker.js" in html
    # The preview names players as the form does.
    assert 'data-player="' in html


def test_a_table_with_every_game_recorded_has_no_picker(client: Client) -> None:
    match = match_seated(players=2, games_per_round=1)
    play(match, games=1)
    html = client.get(f"/m/{match.token}/").content.decode()
    assert "picker-config" not in html and "js/picker.js" not in html


def test_a_finished_tournament_has_no_picker(client: Client) -> None:
    match = match_seated(players=2)
    Tournament.objects.filter(pk=match.round.tournament_id).update(status="finished")
    html = client.get(f"/m/{match.token}/").content.decode()
    assert "picker-config" not in html


def test_calculator_reads_its_own_rule_inputs(client: Client) -> None:
    html = client.get("/calculator/").content.decode()
    config = _config(html)
    assert "rules" not in config
    for name in config["rulesFrom"]:
        assert f'name="{name}"' in html, name
