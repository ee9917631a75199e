"""Racks as entered and as checked.

Vocabulary:

* **rack** -- the tiles a player still holds when a game ends. It is entered
  either as a tile list (``"R7 R8 J"``) or as ``points`` (face values summed
  by hand) plus ``jokers`` (a count). Points alone mean no jokers; jokers
  alone mean no numbered tiles. ``RackIn`` is the one type for a rack as
  entered, on every path (forms, the admin, the API, the calculator).
* **rack value** -- face values of the numbered tiles plus ``joker_penalty``
  per joker.

Plain Python (stdlib only), like the rest of the rules engine.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import RuleError, _
from scoring.tiles import TILE_SET_FACE_TOTAL, Tile, is_int, tiles_read


def rack_value(*, points: int, jokers: int, joker_penalty: int) -> int:
    """What a rack costs its holder: face points plus the penalty per joker."""
    return points + jokers * joker_penalty


# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class RackIn:
    """One player's rack as entered: a tile list, or points (and jokers) summed by hand."""

    player: Hashable
    tiles: str | None = None
    points: int | None = None
    jokers: int | None = None


def rack_as_json(rack: RackIn) -> dict[str, Any]:
    """A rack entry as JSON keeps it (a game's second entry, its history): the
    tile list, or points and jokers."""
    if rack.tiles is not None:
        return {"player": rack.player, "tiles": rack.tiles}
    return {"player": rack.player, "points": rack.points, "jokers": rack.jokers}


def rack_from_json(data: Mapping[str, Any]) -> RackIn:
    """A rack entry back from JSON; a tile list wins over the points a history
    snapshot keeps beside it."""
    if data.get("tiles") is not None:
        return RackIn(player=data["player"], tiles=data["tiles"])
    return RackIn(player=data["player"], points=data.get("points"), jokers=data.get("jokers"))


def rack_entered(
    *,
    player: Hashable,
    tiles: str | None = None,
    points: int | None = None,
    jokers: int | None = None,
) -> RackIn:
    """A rack as a scorer typed it on any form or sent it to the API.

    A blank tile list with no points or jokers is an emptied rack (usually the
    winner's: a form row left blank); next to points it counts as not typed.
    Whether an empty rack is allowed is the engine's call, so every path
    refuses the same input with the same message.
    """
    if tiles is not None and not tiles.strip():
        tiles = "" if points is None and jokers is None else None
    return RackIn(player=player, tiles=tiles, points=points, jokers=jokers)


@dataclass(frozen=True)
class RackChecked:
    """A rack that passed its own checks, before the game-wide ones."""

    player: Hashable
    tiles: tuple[Tile, ...] | None
    points: int
    jokers: int

    @property
    def is_empty(self) -> bool:
        return self.points == 0 and self.jokers == 0


def rack_checked(rack: RackIn, *, seat: int) -> RackChecked:
    label: dict[str, Any] = {"field": "racks", "rack": seat, "player": str(rack.player)}
    if rack.tiles is None and rack.points is None and rack.jokers is None:
        raise RuleError(_("Rack %(rack)s (%(player)s): give its tiles or its points."), **label)
    if rack.tiles is not None and not isinstance(rack.tiles, str):
        raise RuleError(_("Rack %(rack)s (%(player)s): the tiles must be text."), **label)
    # Each count's own messages: a word put into a translated message would
    # stay English ("points" in a German sentence).
    counts = (
        (
            rack.points,
            _("Rack %(rack)s (%(player)s): points must be a whole number."),
            _("Rack %(rack)s (%(player)s): points cannot be negative (%(given)s was given)."),
        ),
        (
            rack.jokers,
            _("Rack %(rack)s (%(player)s): jokers must be a whole number."),
            _("Rack %(rack)s (%(player)s): jokers cannot be negative (%(given)s was given)."),
        ),
    )
    for count, not_whole, negative in counts:
        if count is None:
            continue
        if not is_int(count):
            raise RuleError(not_whole, **label)
        if count < 0:
            raise RuleError(negative, given=count, **label)
    if rack.points is not None and rack.points > TILE_SET_FACE_TOTAL:
        raise RuleError(
            _(
                "Rack %(rack)s (%(player)s): %(given)s points is more than the whole tile set "
                "holds (%(most)s)."
            ),
            given=rack.points,
            most=TILE_SET_FACE_TOTAL,
            **label,
        )
    if rack.tiles is None:
        return RackChecked(rack.player, None, rack.points or 0, rack.jokers or 0)

    tiles = tiles_read(rack.tiles, field="racks", rack=seat, player=label["player"])
    points = sum(tile.face_value for tile in tiles)
    jokers = sum(tile.is_joker for tile in tiles)
    if rack.points is not None and rack.points != points:
        raise RuleError(
            _(
                "Rack %(rack)s (%(player)s): the tiles add up to %(counted)s points, "
                "but the points given are %(given)s."
            ),
            counted=points,
            given=rack.points,
            **label,
        )
    if rack.jokers is not None and rack.jokers != jokers:
        raise RuleError(
            _(
                "Rack %(rack)s (%(player)s): the tiles hold %(counted)s joker(s), "
                "but the jokers given are %(given)s."
            ),
            counted=jokers,
            given=rack.jokers,
            **label,
        )
    return RackChecked(rack.player, tiles, points, jokers)
