"""What the tile picker and the live preview of a game form need from the server.

Vocabulary:

* the *picker* is one player's buttons for the tiles of the set (four colour
  rows of numbers and the joker) that fill that player's tile list;
* the *preview* shows every player's rack value and score while the racks are
  typed, as the stateless calculator (``POST /api/v1/score/``) answers them;
* the *picker config* is one JSON block on the page: the set (colours, numbers,
  copies, from :mod:`scoring.tiles`), the words (translated here, so the script
  holds no text of its own), the calculator's address and the rules to send,
  either a tournament's settings or the names of the page's own rule inputs.

The script computes no score: everything it shows comes from the calculator.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext

from scoring import rules as engine
from scoring import tiles

register = template.Library()


def _colours() -> list[dict[str, str]]:
    names = {
        "K": gettext("black"),
        "B": gettext("blue"),
        "O": gettext("orange"),
        "R": gettext("red"),
    }
    return [{"code": code, "name": names[code]} for code in tiles.TILE_COLOURS]


def _words() -> dict[str, str]:
    return {
        # Translators: a tile's name for screen readers, e.g. "red 7".
        "tile": gettext("%(colour)s %(number)s"),
        "remove": gettext("Remove %(tile)s"),
        "pick": gettext("Pick tiles"),
        "chosen": gettext("Tiles chosen"),
        "emptied": gettext("Emptied the rack"),
        "preview": gettext("Preview"),
        "player": gettext("Player"),
        # The points left on a rack: its face values plus the jokers' penalty.
        "rack_value": gettext("Points left"),
        "score": gettext("Score"),
        "bonus": gettext("Bonus"),
        "winner": gettext("winner"),
        "errors": gettext("Not ready to save yet:"),
        "waiting": gettext("Enter the racks to see the scores here before saving."),
        "unavailable": gettext("The preview cannot be reached just now; saving still works."),
        "ready": gettext("These scores will be saved."),
    }


def _rule_names() -> list[str]:
    # The engine's rules but table points, which place players at a table rather
    # than score a game: what the calculator takes (a test holds the two equal).
    return [f.name for f in dataclasses.fields(engine.Rules) if f.name != "table_points"]


def _rules_of(settings: Any) -> dict[str, Any]:
    """The calculator's rules as a tournament holds them (unset ones left out)."""
    rules: dict[str, Any] = {}
    for name in _rule_names():
        value = getattr(settings, name, None)
        if value is not None:
            rules[name] = value
    return rules


@register.simple_tag
def picker_config(rules_of: Any = None) -> dict[str, Any]:
    """The picker config; ``rules_of`` a tournament, else the page's rule inputs count."""
    config: dict[str, Any] = {
        "endpoint": reverse("api-score"),
        "colours": _colours(),
        "aliases": dict(tiles.COLOUR_ALIASES),
        "joker": {"code": tiles.JOKER, "name": gettext("joker")},
        "numbers": [tiles.NUMBER_MIN, tiles.NUMBER_MAX],
        "copies": tiles.TILE_COPIES,
        "jokers": tiles.JOKERS_IN_SET,
        "text": _words(),
    }
    if rules_of is not None:
        config["rules"] = _rules_of(rules_of)
    else:
        config["rulesFrom"] = _rule_names()
    return config
