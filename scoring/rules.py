"""The Rummikub scoring rules: tiles, racks, game scores and table points.

Vocabulary (design §1):

* **tile** -- a number 1-13 in one of four colours, or a joker. The set has 106
  tiles: every (colour, number) twice, plus two jokers.
* **colour codes** -- ``K`` black, ``B`` blue, ``O`` orange (``Y``, yellow in
  some editions, is read as ``O``), ``R`` red, ``J`` the joker. A tile is
  written colour + number (``R7``, ``K13``); the joker is written ``J`` alone
  (``J0`` or ``J5`` are refused, so that a tile has one spelling).
* **rack** -- the tiles a player still holds when a game ends. It is entered
  either as a tile list (``"R7 R8 J"``) or as ``points`` (face values summed
  by hand) plus ``jokers`` (a count). Points alone mean no jokers; jokers
  alone mean no numbered tiles.
* **rack value** -- face values of the numbered tiles plus ``joker_penalty``
  per joker.
* **ending** -- ``rummikub`` (a player emptied the rack) or ``pool_exhausted``
  (the pool ran out; the lowest rack wins).
* **score** -- what one game gives one player; every game sums to zero.
* **table points** -- an alternative ranking: places by score earn a fixed
  vector (4/3/1/0, 4/2/0, 4/0); tied places share the mean.

The module is plain Python (stdlib only) so that it can be used and tested
without Django. Every refusal is a :class:`RuleError` whose template is marked
with ``_`` and whose parameters are passed separately, so the web layer can
translate it.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from scoring.errors import UserError, _

__all__ = [
    "DEFAULT_RULES",
    "DEFAULT_TABLE_POINTS",
    "ENDINGS",
    "JOKERS_IN_SET",
    "JOKER_PENALTY_MAX",
    "JOKER_TILE",
    "POOL_TIES",
    "TABLE_POINTS_MAX",
    "TILE_COLOURS",
    "TILE_COPIES",
    "TILE_SET_FACE_TOTAL",
    "GameOut",
    "RackIn",
    "RackOut",
    "RuleError",
    "Rules",
    "Tile",
    "game_score",
    "rack_entered",
    "rack_value",
    "starting_seat",
    "table_points_for",
    "tiles_format",
    "tiles_parse",
]

ENDINGS = ("rummikub", "pool_exhausted")
POOL_TIES = ("share", "fewest_tiles")
DEFAULT_TABLE_POINTS: dict[int, tuple[int, ...]] = {2: (4, 0), 3: (4, 2, 0), 4: (4, 3, 1, 0)}

TILE_COLOURS = ("K", "B", "O", "R")  # also the order tiles are written in
JOKER = "J"
NUMBER_MIN, NUMBER_MAX = 1, 13
TILE_COPIES = 2
JOKERS_IN_SET = 2
# No rulebook comes near it (25, 30, some events 50); the cap keeps scores in
# the range the database and JSON clients hold.
JOKER_PENALTY_MAX = 1000
# A place earns at most this many table points: a game's points are stored to 9999.99.
TABLE_POINTS_MAX = 1000
TILE_SET_FACE_TOTAL = TILE_COPIES * len(TILE_COLOURS) * sum(range(NUMBER_MIN, NUMBER_MAX + 1))
PLAYERS_MIN, PLAYERS_MAX = 2, 4

_CENT = Decimal("0.01")
_TOKEN_SHOWN_MAX = 20
_TOKEN_SPLIT = re.compile(r"[\s,]+")
_TOKEN_SHAPE = re.compile(r"([A-Z])([0-9]+)?", re.ASCII)


class RuleError(UserError):
    """Input the rulebook refuses: nothing is scored or stored."""


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True jokers is a bug in the caller, not a count.
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------- tiles


@dataclass(frozen=True, order=True)
class Tile:
    """One tile: a colour code and a number, or the joker (``J``, number 0)."""

    colour: str
    number: int

    def __post_init__(self) -> None:
        if not _is_int(self.number):
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
            "Unknown tile “%(token)s”: the colours are K (black), B (blue), O or Y (orange) "
            "and R (red); J is the joker."
        ),
        _(
            "Rack %(rack)s (%(player)s): unknown tile “%(token)s”: the colours are K (black), "
            "B (blue), O or Y (orange) and R (red); J is the joker."
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


def _token_read(token: str) -> Tile | str:
    """The tile a token spells, or the key of the problem in ``_TOKEN_PROBLEMS``."""
    shape = _TOKEN_SHAPE.fullmatch(token.upper())
    if shape is None:
        return "shape"
    letter, digits = shape.groups()
    colour = "O" if letter == "Y" else letter
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


def _tiles_read(
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
    return _tiles_read(text, field=field)


def _tile_sort_key(tile: Tile) -> tuple[int, int]:
    rank = len(TILE_COLOURS) if tile.is_joker else TILE_COLOURS.index(tile.colour)
    return (rank, tile.number)


def tiles_format(tiles: Iterable[Tile]) -> str:
    """The canonical spelling: colours K, B, O, R, numbers ascending, jokers last."""
    return " ".join(str(tile) for tile in sorted(tiles, key=_tile_sort_key))


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Rules:
    """The settings that change scores: a tournament's rule set.

    ``table_points`` maps a table size (2, 3 or 4 players) to the points its
    places earn, first place first. Sizes left out keep the default vector, so
    ``rules.table_points[n]`` always exists; the mapping is read-only.
    """

    joker_penalty: int = 30
    pool_tie: str = "share"
    # Left out of the hash: a mapping is not hashable, and the other fields suffice.
    table_points: Mapping[int, tuple[int, ...]] = field(
        default_factory=lambda: DEFAULT_TABLE_POINTS, hash=False
    )

    def __post_init__(self) -> None:
        if not _is_int(self.joker_penalty):
            raise RuleError(
                _("The joker penalty must be a whole number of points."), field="joker_penalty"
            )
        if self.joker_penalty < 0:
            raise RuleError(
                _("The joker penalty cannot be negative (%(penalty)s was given)."),
                field="joker_penalty",
                penalty=self.joker_penalty,
            )
        if self.joker_penalty > JOKER_PENALTY_MAX:
            raise RuleError(
                _("The joker penalty can be at most %(max)s points (%(penalty)s was given)."),
                field="joker_penalty",
                penalty=self.joker_penalty,
                max=JOKER_PENALTY_MAX,
            )
        if self.pool_tie not in POOL_TIES:
            raise RuleError(
                _("Unknown tie policy “%(policy)s”: use one of %(choices)s."),
                field="pool_tie",
                policy=self.pool_tie,
                choices=", ".join(POOL_TIES),
            )
        object.__setattr__(self, "table_points", _table_points_checked(self.table_points))


def _table_points_checked(
    table_points: Mapping[int, Sequence[int]],
) -> Mapping[int, tuple[int, ...]]:
    if not isinstance(table_points, Mapping):
        raise RuleError(
            _("Table points must map a table size to the points of its places."),
            field="table_points",
        )
    vectors = dict(DEFAULT_TABLE_POINTS)
    for size, vector in table_points.items():
        if not _is_int(size) or not PLAYERS_MIN <= size <= PLAYERS_MAX:
            raise RuleError(
                _("Table points are for tables of 2 to 4 players, not “%(size)s”."),
                field="table_points",
                size=size,
            )
        if isinstance(vector, str | bytes) or not isinstance(vector, Sequence):
            raise RuleError(
                _("Table points for %(size)s players must be a list of numbers."),
                field="table_points",
                size=size,
            )
        if len(vector) != size or not all(_is_int(points) for points in vector):
            raise RuleError(
                _(
                    "Table points for %(size)s players need %(size)s whole numbers, "
                    "one per place; %(vector)s was given."
                ),
                field="table_points",
                size=size,
                vector="/".join(str(points) for points in vector),
            )
        if not all(0 <= points <= TABLE_POINTS_MAX for points in vector):
            raise RuleError(
                _(
                    "Table points for %(size)s players must be from 0 to %(max)s; "
                    "%(vector)s was given."
                ),
                field="table_points",
                size=size,
                max=TABLE_POINTS_MAX,
                vector="/".join(str(points) for points in vector),
            )
        if any(later > earlier for earlier, later in itertools.pairwise(vector)):
            raise RuleError(
                _(
                    "Table points for %(size)s players must not grow from first place to "
                    "last; %(vector)s was given."
                ),
                field="table_points",
                size=size,
                vector="/".join(str(points) for points in vector),
            )
        vectors[size] = tuple(vector)
    return MappingProxyType(vectors)


DEFAULT_RULES = Rules()


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
class RackOut:
    """One player's rack as scored. ``tiles`` and ``tile_count`` are None for points entry."""

    player: Hashable
    tiles: tuple[Tile, ...] | None
    points: int
    jokers: int
    tile_count: int | None
    rack_value: int
    score: Decimal
    winner: bool


@dataclass(frozen=True)
class GameOut:
    """A scored game: the racks in the order given, and who won (in that order)."""

    ending: str
    racks: tuple[RackOut, ...]
    winners: tuple[Hashable, ...]


@dataclass(frozen=True)
class _Rack:
    """A rack that passed its own checks, before the game-wide ones."""

    player: Hashable
    tiles: tuple[Tile, ...] | None
    points: int
    jokers: int

    @property
    def is_empty(self) -> bool:
        return self.points == 0 and self.jokers == 0


def _rack_checked(rack: RackIn, *, seat: int) -> _Rack:
    label: dict[str, Any] = {"field": "racks", "rack": seat, "player": str(rack.player)}
    if rack.tiles is None and rack.points is None and rack.jokers is None:
        raise RuleError(_("Rack %(rack)s (%(player)s): give its tiles or its points."), **label)
    if rack.tiles is not None and not isinstance(rack.tiles, str):
        raise RuleError(_("Rack %(rack)s (%(player)s): the tiles must be text."), **label)
    for name, count in (("points", rack.points), ("jokers", rack.jokers)):
        if count is None:
            continue
        if not _is_int(count):
            raise RuleError(
                _("Rack %(rack)s (%(player)s): %(name)s must be a whole number."),
                name=name,
                **label,
            )
        if count < 0:
            raise RuleError(
                _("Rack %(rack)s (%(player)s): %(name)s cannot be negative (%(given)s was given)."),
                name=name,
                given=count,
                **label,
            )
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
        return _Rack(rack.player, None, rack.points or 0, rack.jokers or 0)

    tiles = _tiles_read(rack.tiles, field="racks", rack=seat, player=label["player"])
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
    return _Rack(rack.player, tiles, points, jokers)


def _game_checked(*, ending: str, racks: Sequence[RackIn]) -> tuple[_Rack, ...]:
    """Every refusal, in a fixed order, before anything is computed."""
    if not isinstance(ending, str) or ending not in ENDINGS:
        raise RuleError(
            _("Unknown ending “%(ending)s”: use one of %(choices)s."),
            field="ending",
            ending=ending,
            choices=", ".join(ENDINGS),
        )
    if not PLAYERS_MIN <= len(racks) <= PLAYERS_MAX:
        raise RuleError(
            _("A game needs 2 to 4 racks, one per player; %(count)s were given."),
            field="racks",
            count=len(racks),
        )
    seats: dict[Hashable, int] = {}
    for seat, rack in enumerate(racks, start=1):
        first = seats.setdefault(rack.player, seat)
        if first != seat:
            raise RuleError(
                _("%(player)s has two racks in this game (racks %(first)s and %(second)s)."),
                field="racks",
                player=str(rack.player),
                first=first,
                second=seat,
            )

    checked = tuple(_rack_checked(rack, seat=seat) for seat, rack in enumerate(racks, start=1))

    # Counter keeps first-seen order, so the tile named is the first over-used one entered.
    copies = Counter(tile for rack in checked for tile in rack.tiles or () if not tile.is_joker)
    for tile, count in copies.items():
        if count > TILE_COPIES:
            raise RuleError(
                _("Tile %(tile)s appears %(count)s times in this game; the set has only 2."),
                field="racks",
                tile=str(tile),
                count=count,
            )
    jokers = sum(rack.jokers for rack in checked)
    if jokers > JOKERS_IN_SET:
        raise RuleError(
            _("This game has %(count)s jokers; the set has only 2."),
            field="racks",
            count=jokers,
        )
    face_total = sum(rack.points for rack in checked)
    if face_total > TILE_SET_FACE_TOTAL:
        raise RuleError(
            _(
                "The racks of this game hold %(total)s face points; the whole tile set holds "
                "only %(most)s."
            ),
            field="racks",
            total=face_total,
            most=TILE_SET_FACE_TOTAL,
        )

    empty = [seat for seat, rack in enumerate(checked, start=1) if rack.is_empty]
    if ending == "rummikub" and len(empty) != 1:
        raise RuleError(
            _(
                "A rummikub game needs exactly one empty rack, the winner's; "
                "%(count)s racks were empty."
            ),
            field="racks",
            count=len(empty),
        )
    if ending == "pool_exhausted" and empty:
        raise RuleError(
            _(
                "Rack %(rack)s (%(player)s) is empty, so the game ended in a rummikub, "
                "not with the pool exhausted."
            ),
            field="racks",
            rack=empty[0],
            player=str(checked[empty[0] - 1].player),
        )
    return checked


def _cents_split(total: int, *, shares: int) -> list[Decimal]:
    """``total`` split into ``shares`` near-equal 2-place amounts; spare cents go first."""
    whole, spare = divmod(total * 100, shares)
    return [Decimal(whole + (index < spare)).scaleb(-2) for index in range(shares)]


def game_score(*, ending: str, racks: Sequence[RackIn], rules: Rules = DEFAULT_RULES) -> GameOut:
    """Score one game (design §2); racks come back in the order given.

    Raises :class:`RuleError` for the first problem found, checking the ending,
    the number of racks, repeated players, each rack in order, the game-wide
    tile counts and then what the ending requires.
    """
    checked = _game_checked(ending=ending, racks=racks)
    values = [
        rack_value(points=rack.points, jokers=rack.jokers, joker_penalty=rules.joker_penalty)
        for rack in checked
    ]

    if ending == "rummikub":
        winners = [index for index, rack in enumerate(checked) if rack.is_empty]
        lowest = 0
    else:
        lowest = min(values)
        winners = [index for index, value in enumerate(values) if value == lowest]
        if len(winners) > 1 and rules.pool_tie == "fewest_tiles":
            winners = _fewest_tiles(checked, winners)

    scores = [Decimal(lowest - value) for value in values]
    plus = -sum(scores)
    for index, share in zip(winners, _cents_split(int(plus), shares=len(winners)), strict=True):
        scores[index] = share

    outs = tuple(
        RackOut(
            player=rack.player,
            tiles=rack.tiles,
            points=rack.points,
            jokers=rack.jokers,
            tile_count=None if rack.tiles is None else len(rack.tiles),
            rack_value=value,
            score=score.quantize(_CENT),
            winner=index in winners,
        )
        for index, (rack, value, score) in enumerate(zip(checked, values, scores, strict=True))
    )
    return GameOut(
        ending=ending, racks=outs, winners=tuple(checked[index].player for index in winners)
    )


def _fewest_tiles(racks: Sequence[_Rack], tied: list[int]) -> list[int]:
    # Tile counts only decide when every tied rack was counted tile by tile and one is
    # strictly smallest; otherwise the tie stands and is shared.
    counts = [len(tiles) for tiles in (racks[index].tiles for index in tied) if tiles is not None]
    if len(counts) != len(tied) or counts.count(min(counts)) > 1:
        return tied
    return [tied[counts.index(min(counts))]]


def table_points_for(*, scores: Sequence[Decimal], vector: Sequence[int]) -> tuple[Decimal, ...]:
    """The table points of one game, in the order of ``scores``.

    Players are placed by score, highest first; place ``i`` earns ``vector[i]``.
    Tied players share the points of the places they occupy equally, in 2-place
    decimals; spare cents go to the earliest of them, so the points handed out
    always add up to the vector's sum.
    """
    if len(scores) != len(vector):
        raise RuleError(
            _("%(count)s players need table points for %(count)s places, not %(places)s."),
            field="table_points",
            count=len(scores),
            places=len(vector),
        )
    order = sorted(range(len(scores)), key=lambda index: -scores[index])  # stable: seat order
    points = [Decimal(0)] * len(scores)
    place = 0
    while place < len(order):
        tied_end = place + 1
        while tied_end < len(order) and scores[order[tied_end]] == scores[order[place]]:
            tied_end += 1
        tied = order[place:tied_end]
        shares = _cents_split(sum(vector[place:tied_end]), shares=len(tied))
        for index, share in zip(sorted(tied), shares, strict=True):
            points[index] = share
        place = tied_end
    return tuple(points)


# --------------------------------------------------------------------------- play


def starting_seat(*, game_number: int, table_size: int) -> int:
    """The seat (1-based) that starts game ``game_number`` at a table of ``table_size``.

    The start rotates: seat 1 starts game 1, seat 2 game 2, and so on around
    the table.
    """
    if game_number < 1 or table_size < 1:
        raise ValueError("game_number and table_size must be positive")
    return (game_number - 1) % table_size + 1
