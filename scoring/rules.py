"""The Rummikub scoring rules: racks, game scores, the rule set and the start.

Vocabulary (tiles are read and written in ``scoring.tiles``, table points
placed in ``scoring.table_points``; both are part of this engine's surface):

* **rack** -- the tiles a player still holds when a game ends. It is entered
  either as a tile list (``"R7 R8 J"``) or as ``points`` (face values summed
  by hand) plus ``jokers`` (a count). Points alone mean no jokers; jokers
  alone mean no numbered tiles.
* **rack value** -- face values of the numbered tiles plus ``joker_penalty``
  per joker.
* **ending** -- ``rummikub`` (a player emptied the rack), ``pool_exhausted``
  (the pool ran out; the lowest rack wins) or ``time_up`` (the round's time ran
  out; scored exactly as ``pool_exhausted``).
* **tie policy** -- ``pool_tie``: tied lowest racks ``share`` the plus, or the
  ``fewest_tiles`` wins, or it is a ``draw`` (shared as ``share``, won by nobody).
* **score** -- what one game gives one player; every game sums to zero.
  A loss cap and bonuses (``scoring.variants``) change it; a bonus is kept apart.
* **table points** -- an alternative ranking: places by score earn a fixed
  vector (4/3/1/0, 4/2/0, 4/0); tied places share the mean.

The module is plain Python (stdlib only) so that it can be used and tested
without Django. Every refusal is a :class:`RuleError` whose template is marked
with ``_`` and whose parameters are passed separately, so the web layer can
translate it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from scoring.errors import RuleError, _, ngettext_lazy
from scoring.racks import (
    RackChecked,
    RackIn,
    rack_as_json,
    rack_checked,
    rack_entered,
    rack_from_json,
    rack_value,
)
from scoring.table_points import (
    DEFAULT_TABLE_POINTS,
    PLAYERS_MAX,
    PLAYERS_MIN,
    TABLE_POINTS_MAX,
    TABLE_SIZES,
    table_points_checked,
    table_points_for,
)
from scoring.tiles import (
    COLOUR_ALIASES,
    JOKER_TILE,
    JOKERS_IN_SET,
    TILE_COLOURS,
    TILE_COPIES,
    TILE_SET_FACE_TOTAL,
    Tile,
    is_int,
    tiles_format,
    tiles_parse,
)
from scoring.variants import (
    BONUS_MAX,
    LOSS_CAP_MAX,
    bonus_check,
    bonuses,
    loss_cap_check,
    scores_capped,
)

__all__ = [
    "BONUS_MAX",
    "COLOUR_ALIASES",
    "DEFAULT_RULES",
    "DEFAULT_TABLE_POINTS",
    "ENDINGS",
    "GAMES_PER_ROUND_MAX",
    "GAMES_PER_ROUND_MIN",
    "GAME_NUMBER_MAX",
    "JOKERS_IN_SET",
    "JOKER_PENALTY_MAX",
    "JOKER_TILE",
    "LOSS_CAP_MAX",
    "MIN_GAMES_MAX",
    "PLAYERS_MAX",
    "PLAYERS_MIN",
    "POOL_TIES",
    "ROUNDS_MAX",
    "ROUNDS_MIN",
    "SCORE_SETTING_MAX",
    "SEED_MAX",
    "SEMIFINAL_PLAYERS_MAX",
    "TABLE_POINTS_MAX",
    "TABLE_SIZES",
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
    "rack_as_json",
    "rack_entered",
    "rack_from_json",
    "rack_value",
    "racks_count_check",
    "starting_seat",
    "table_points_for",
    "tiles_format",
    "tiles_parse",
]

# ``time_up``: the round's time ran out before anybody went out; scored as ``pool_exhausted``.
ENDINGS = ("rummikub", "pool_exhausted", "time_up")
POOL_TIES = ("share", "fewest_tiles", "draw")

# No rulebook comes near it (25, 30, some events 50); the cap keeps scores in
# the range the database and JSON clients hold.
JOKER_PENALTY_MAX = 1000

# The bounds of a tournament's plan and of what is entered in it. Every input
# path (API, forms, imports, backups) declares and checks these, so that a
# number out of range is the user's mistake (400), never a database overflow;
# each also fits the column that stores it (smallint 32767, integer 2**31 - 1).
ROUNDS_MIN, ROUNDS_MAX = 0, 100
GAMES_PER_ROUND_MIN, GAMES_PER_ROUND_MAX = 1, 30
# A game's number runs from 1 to the games its round plans.
GAME_NUMBER_MAX = GAMES_PER_ROUND_MAX
# No rule limits these two; they are held to their column (a small integer), as
# the backup format has always written them.
MIN_GAMES_MAX = 32767
SEMIFINAL_PLAYERS_MAX = 32767
SEED_MAX = 2**31 - 1
# Stages: a final played until one player has won N games.
FINAL_FIRST_TO_MAX = 7
# What share of the points before a stage is carried into it.
CARRY_OVER_CHOICES = ("0", "0.5", "1")
FINAL_FROM_CHOICES = ("semifinal_winners", "stage_points")
# The turn timer's choices (seconds), and a round's time limit (minutes; 0 = none).
TURN_SECONDS_CHOICES = (40, 60, 90, 120)
ROUND_MINUTES_MAX = 600
# An entry's category (``U14``, ``Senior``): free text of this length at most.
CATEGORY_MAX_LENGTH = 40
# A bye's score or an adjustment: stored with 8 digits, 2 of them decimals.
SCORE_SETTING_MAX = Decimal("999999.99")

_CENT = Decimal("0.01")


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
    # Event variants (``scoring.variants``); the defaults are the rulebook's scoring.
    loss_cap: int | None = None
    winner_bonus: int = 0
    runner_up_bonus: int = 0

    def __post_init__(self) -> None:
        if not is_int(self.joker_penalty):
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
        object.__setattr__(self, "table_points", table_points_checked(self.table_points))
        loss_cap_check(self.loss_cap)
        bonus_check(self.winner_bonus, field="winner_bonus")
        bonus_check(self.runner_up_bonus, field="runner_up_bonus")


DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class RackOut:
    """One player's rack as scored. ``tiles`` and ``tile_count`` are None for points entry.

    ``score`` is the zero-sum game score; ``bonus`` is paid on top of it (0 when none).
    """

    player: Hashable
    tiles: tuple[Tile, ...] | None
    points: int
    jokers: int
    tile_count: int | None
    rack_value: int
    score: Decimal
    winner: bool
    bonus: Decimal = Decimal("0.00")


@dataclass(frozen=True)
class GameOut:
    """A scored game: the racks in the order given, and who won (in that order).

    A game drawn under the ``draw`` tie policy has no winners.
    """

    ending: str
    racks: tuple[RackOut, ...]
    winners: tuple[Hashable, ...]


def racks_count_check(count: int) -> None:
    """Refuse a game of other than 2 to 4 racks (input paths check it before the racks)."""
    if not PLAYERS_MIN <= count <= PLAYERS_MAX:
        one, many = ngettext_lazy(
            "A game needs 2 to 4 racks, one per player; %(count)s was given.",
            "A game needs 2 to 4 racks, one per player; %(count)s were given.",
        )
        raise RuleError(one, plural=many, field="racks", count=count)


def _game_checked(*, ending: str, racks: Sequence[RackIn]) -> tuple[RackChecked, ...]:
    """Every refusal, in a fixed order, before anything is computed."""
    if not isinstance(ending, str) or ending not in ENDINGS:
        raise RuleError(
            _("Unknown ending “%(ending)s”: use one of %(choices)s."),
            field="ending",
            ending=ending,
            choices=", ".join(ENDINGS),
        )
    racks_count_check(len(racks))
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

    checked = tuple(rack_checked(rack, seat=seat) for seat, rack in enumerate(racks, start=1))

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
    if ending != "rummikub" and empty:
        raise RuleError(
            _(
                "Rack %(rack)s (%(player)s) is empty, so the game ended in a rummikub, "
                "not with the pool exhausted or the time up."
            ),
            field="racks",
            rack=empty[0],
            player=str(checked[empty[0] - 1].player),
        )
    return checked


def game_score(*, ending: str, racks: Sequence[RackIn], rules: Rules = DEFAULT_RULES) -> GameOut:
    """Score one game; racks come back in the order given.

    Raises :class:`RuleError` for the first problem found, checking the ending,
    the number of racks, repeated players, each rack in order, the game-wide
    tile counts and then what the ending requires.
    """
    checked = _game_checked(ending=ending, racks=racks)
    values = [
        rack_value(points=rack.points, jokers=rack.jokers, joker_penalty=rules.joker_penalty)
        for rack in checked
    ]

    # ``sharers`` split the plus; ``winners`` won the game (nobody in a draw).
    if ending == "rummikub":
        sharers = [index for index, rack in enumerate(checked) if rack.is_empty]
        lowest = 0
    else:
        lowest = min(values)
        sharers = [index for index, value in enumerate(values) if value == lowest]
        if len(sharers) > 1 and rules.pool_tie == "fewest_tiles":
            sharers = _fewest_tiles(checked, sharers)
    drawn = len(sharers) > 1 and rules.pool_tie == "draw"
    winners = [] if drawn else sharers

    scores = scores_capped(values=values, lowest=lowest, sharers=sharers, loss_cap=rules.loss_cap)
    extras = bonuses(
        values=values,
        winners=winners,
        excluded=sharers,
        winner_bonus=rules.winner_bonus,
        runner_up_bonus=rules.runner_up_bonus,
    )

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
            bonus=bonus.quantize(_CENT),
        )
        for index, (rack, value, score, bonus) in enumerate(
            zip(checked, values, scores, extras, strict=True)
        )
    )
    return GameOut(
        ending=ending, racks=outs, winners=tuple(checked[index].player for index in winners)
    )


def _fewest_tiles(racks: Sequence[RackChecked], tied: list[int]) -> list[int]:
    # Tile counts only decide when every tied rack was counted tile by tile and one is
    # strictly smallest; otherwise the tie stands and is shared.
    counts = [len(tiles) for tiles in (racks[index].tiles for index in tied) if tiles is not None]
    if len(counts) != len(tied) or counts.count(min(counts)) > 1:
        return tied
    return [tied[counts.index(min(counts))]]


# --------------------------------------------------------------------------- play


def starting_seat(*, game_number: int, table_size: int) -> int:
    """The seat (1-based) that starts game ``game_number`` at a table of ``table_size``.

    The start rotates: seat 1 starts game 1, seat 2 game 2, and so on around
    the table.
    """
    if game_number < 1 or table_size < 1:
        raise ValueError("game_number and table_size must be positive")
    return (game_number - 1) % table_size + 1
