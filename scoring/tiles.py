"""Tiles: reading and writing what a player holds.

Vocabulary:

* **tile** -- a number 1-13 in one of four colours, or a joker. The set has 106
  tiles: every (colour, number) twice, plus two jokers.
* **colour codes** -- ``K`` black, ``B`` blue, ``O`` orange (``Y``, yellow in
  some editions, is read as ``O``), ``R`` red, ``J`` the joker. The black of
  the players' own languages is read too: ``S`` (schwarz, sort, svart) and
  ``Z`` (zwart) as ``K``, ``G`` (gelb, gul, geel) as ``O``. A tile is
  written colour + number (``R7``, ``K13``); the joker is written ``J`` alone
  (``J0`` or ``J5`` are refused, so that a tile has one spelling).

Plain Python (stdlib only), like the rest of the rules engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from scoring.errors import RuleError, _

TILE_COLOURS = ("K", "B", "O", "R")  # also the order tiles are written in
JOKER = "J"
NUMBER_MIN, NUMBER_MAX = 1, 13
TILE_COPIES = 2
JOKERS_IN_SET = 2
TILE_SET_FACE_TOTAL = TILE_COPIES * len(TILE_COLOURS) * sum(range(NUMBER_MIN, NUMBER_MAX + 1))

_TOKEN_SHOWN_MAX = 20
_TOKEN_SPLIT = re.compile(r"[\s,]+")
_TOKEN_SHAPE = re.compile(r"([A-Z])([0-9]+)?", re.ASCII)


def is_int(value: object) -> bool:
    # bool is an int subclass, but True jokers is a bug in the caller, not a count.
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, order=True)
class Tile:
    """One tile: a colour code and a number, or the joker (``J``, number 0)."""

    colour: str
    number: int

    def __post_init__(self) -> None:
        if not is_int(self.number):
            valid = False
        elif self.colour == JOKER:
            valid = self.number == 0
        else:
            valid = self.colour in TILE_COLOURS and NUMBER_MIN <= self.number <= NUMBER_MAX
        if not valid:
            raise RuleError(
                _("No such tile: colour “%(colour)s”, number %(number)s."),
                field="tiles",
                colour=self.colour,
                number=self.number,
            )

    @property
    def is_joker(self) -> bool:
        return self.colour == JOKER

    @property
    def face_value(self) -> int:
        return self.number  # the joker's number is 0: its value is the rules' penalty

    def __str__(self) -> str:
        return JOKER if self.is_joker else f"{self.colour}{self.number}"


JOKER_TILE = Tile(JOKER, 0)

# Why a token is not a tile; each reason has a standalone and an in-a-rack template so
# that translators get whole sentences rather than pieces glued together at runtime.
_TOKEN_PROBLEMS: dict[str, tuple[str, str]] = {
    "number": (
        _("Unknown tile “%(token)s”: numbers run from 1 to 13."),
        _("Rack %(rack)s (%(player)s): unknown tile “%(token)s”: numbers run from 1 to 13."),
    ),
    "colour": (
        _(
            "Unknown tile “%(token)s”: the colours are K, S or Z (black), B (blue), O, Y or G "
            "(orange) and R (red); J is the joker."
        ),
        _(
            "Rack %(rack)s (%(player)s): unknown tile “%(token)s”: the colours are K, S or Z "
            "(black), B (blue), O, Y or G (orange) and R (red); J is the joker."
        ),
    ),
    "joker": (
        _("Unknown tile “%(token)s”: the joker is written “J”, without a number."),
        _(
            "Rack %(rack)s (%(player)s): unknown tile “%(token)s”: the joker is written “J”, "
            "without a number."
        ),
    ),
    "shape": (
        _(
            "Unknown tile “%(token)s”: write a colour letter and a number, like “R7”, "
            "or “J” for the joker."
        ),
        _(
            "Rack %(rack)s (%(player)s): unknown tile “%(token)s”: write a colour letter and "
            "a number, like “R7”, or “J” for the joker."
        ),
    ),
}


def _token_shown(token: str) -> str:
    # A pasted paragraph must not become a paragraph-long error message.
    if len(token) <= _TOKEN_SHOWN_MAX:
        return token
    return token[: _TOKEN_SHOWN_MAX - 1] + "…"


# Letters of the players' languages for black and yellow-orange; none is another colour's.
# The pages hand them to their scripts (the tile picker, the offline queue), so that
# the browser reads a tile as the engine does.
COLOUR_ALIASES: Mapping[str, str] = MappingProxyType({"Y": "O", "G": "O", "S": "K", "Z": "K"})


def _token_read(token: str) -> Tile | str:
    """The tile a token spells, or the key of the problem in ``_TOKEN_PROBLEMS``."""
    shape = _TOKEN_SHAPE.fullmatch(token.upper())
    if shape is None:
        return "shape"
    letter, digits = shape.groups()
    colour = COLOUR_ALIASES.get(letter, letter)
    if colour == JOKER:
        return JOKER_TILE if digits is None else "joker"
    if colour not in TILE_COLOURS:
        return "colour" if digits is not None else "shape"
    if digits is None:
        return "shape"
    # Length first: int() of thousands of digits is slow and, past 4300, refused.
    significant = digits.lstrip("0")
    if len(significant) > 2 or not NUMBER_MIN <= int(digits) <= NUMBER_MAX:
        return "number"
    return Tile(colour, int(digits))


def tiles_read(
    text: str, *, field: str, rack: int | None = None, player: str = ""
) -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for token in _TOKEN_SPLIT.split(text.strip()):
        if not token:
            continue  # only for blank text: split("") yields [""]
        read = _token_read(token)
        if isinstance(read, Tile):
            tiles.append(read)
            continue
        standalone, in_rack = _TOKEN_PROBLEMS[read]
        if rack is None:
            raise RuleError(standalone, field=field, token=_token_shown(token))
        raise RuleError(in_rack, field=field, rack=rack, player=player, token=_token_shown(token))
    return tuple(tiles)


def tiles_parse(text: str, *, field: str = "tiles") -> tuple[Tile, ...]:
    """Read a tile list such as ``"r7, R8 y13 J"``; blank text is an empty rack.

    Case does not matter; tiles are separated by whitespace and/or commas; ``Y`` is
    orange; the joker is ``J``. The tiles keep the order they were written in.
    """
    return tiles_read(text, field=field)


def _tile_sort_key(tile: Tile) -> tuple[int, int]:
    rank = len(TILE_COLOURS) if tile.is_joker else TILE_COLOURS.index(tile.colour)
    return (rank, tile.number)


def tiles_format(tiles: Iterable[Tile]) -> str:
    """The canonical spelling: colours K, B, O, R, numbers ascending, jokers last."""
    return " ".join(str(tile) for tile in sorted(tiles, key=_tile_sort_key))
