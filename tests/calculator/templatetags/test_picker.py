"""The picker config: the set and the words from the server, the calculator's
address, and the rules a preview sends (a tournament's, or the page's inputs)."""

from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from calculator.api import RulesInSerializer
from calculator.templatetags.picker import picker_config
from scoring import tiles


def test_the_set_comes_from_the_engine() -> None:
    config = picker_config()
    assert config["endpoint"] == "/api/v1/score/"
    assert [c["code"] for c in config["colours"]] == list(tiles.TILE_COLOURS)
    assert config["joker"]["code"] == tiles.JOKER
    assert config["numbers"] == [tiles.NUMBER_MIN, tiles.NUMBER_MAX]
    assert (config["copies"], config["jokers"]) == (tiles.TILE_COPIES, tiles.JOKERS_IN_SET)
    assert config["aliases"] == dict(tiles.COLOUR_ALIASES)


def test_without_a_tournament_the_page_rule_inputs_are_read() -> None:
    config = picker_config()
    assert "rules" not in config
    assert {"joker_penalty", "pool_tie"} <= set(config["rulesFrom"])


def test_the_preview_sends_every_rule_the_calculator_takes() -> None:
    assert picker_config()["rulesFrom"] == list(RulesInSerializer().fields)


def test_a_tournament_gives_its_rules_leaving_unset_ones_out() -> None:
    settings = SimpleNamespace(joker_penalty=50, pool_tie="fewest_tiles", loss_cap=None)
    rules = picker_config(settings)["rules"]
    assert rules["joker_penalty"] == 50 and rules["pool_tie"] == "fewest_tiles"
    assert "loss_cap" not in rules
    assert "rulesFrom" not in picker_config(settings)


def test_every_word_is_given_by_the_server() -> None:
    config = picker_config()
    words = config["text"]
    assert words["tile"] % {"colour": "red", "number": 7} == "red 7"
    assert all(isinstance(word, str) and word for word in words.values())
    assert {c["name"] for c in config["colours"]} == {"black", "blue", "orange", "red"}


def test_words_follow_the_active_language() -> None:
    # The catalogue may not have these words yet: they must at least be looked up.
    with translation.override("de"):
        assert picker_config()["joker"]["name"] == translation.gettext("joker")
