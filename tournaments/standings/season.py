"""A club season's table: plain data in, plain data out, no database.

Vocabulary (design §5):

* an *evening* is one tournament of the season; its *places* are the players
  who played it (at least one game), in the order of its current ranking,
  with the rank each holds there (tied players share one). An evening with
  no places has no recorded game yet and does not count;
* a player's *evening points* are what one evening brings them, by the
  season's ``evening_points``: ``score`` (their standings total that evening),
  ``table_points`` (their table points that evening) or ``rank_points``: of
  *n* places, place *p* earns ``1000 × (n − p) / (n − 1)``, players tied at a
  place earn the formula at the mean of the places they cover, a lone player
  earns 1000, rounded once to two places (halves up). *n* and *p* count
  every player of the evening, guests included;
* ``best_of`` N counts only each player's best N evenings (0: all of them);
  when evenings tie for the last counted place, the earlier evening counts.
  The *counted* evenings are those; *points* their sum; *best* a player's
  best single evening;
* ``min_evenings`` M: players with fewer evenings are *unranked*, listed
  apart (by evenings, then points, then name), "not yet qualified";
* ``guests`` ``exclude`` leaves players who are not members of the club out
  of the table (their evenings still count for everyone else's points);
  ``include`` ranks them like members;
* the ranked are ordered by points, then evenings played (more first), then
  best single evening; players equal on all three share a rank (the next
  rank skips the places they shared) and are listed by name, case-insensitive.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from scoring.errors import UserError, _

ZERO = Decimal(0)
CENT = Decimal("0.01")
RANK_POINTS_TOP = 1000

SCORE = "score"
RANK_POINTS = "rank_points"
TABLE_POINTS = "table_points"
EVENING_POINTS = (SCORE, RANK_POINTS, TABLE_POINTS)
GUESTS_EXCLUDE = "exclude"
GUESTS_INCLUDE = "include"
GUESTS = (GUESTS_EXCLUDE, GUESTS_INCLUDE)
# The most evenings a season's counting rules may name (a year of evenings).
EVENINGS_MAX = 366


@dataclass(frozen=True)
class Place:
    """One player's result on one evening, as its current ranking has it."""

    player_id: int
    name: str
    rank: int
    score: Decimal = ZERO
    table_points: Decimal = ZERO


@dataclass(frozen=True)
class Evening:
    """One evening: its id and the players who played it, in its order."""

    id: int
    places: tuple[Place, ...] = ()


@dataclass(frozen=True)
class SeasonRules:
    evening_points: str = RANK_POINTS
    best_of: int = 0
    min_evenings: int = 0
    guests: str = GUESTS_EXCLUDE


@dataclass
class SeasonRow:
    """One player's line in the season table; ``rank`` None: not yet qualified."""

    player_id: int
    name: str
    rank: int | None = None
    points: Decimal = ZERO
    evenings: int = 0
    best: Decimal = ZERO
    # The evening ids whose points count, in the evenings' order.
    counted: tuple[int, ...] = ()
    # Evening id -> the points that evening brought (every evening played).
    by_evening: dict[int, Decimal] = field(default_factory=dict)

    @property
    def qualified(self) -> bool:
        return self.rank is not None


@dataclass
class SeasonTable:
    ranked: list[SeasonRow]
    unranked: list[SeasonRow]

    @property
    def champion(self) -> SeasonRow | None:
        """The first of the ranked (the first name of a shared first place)."""
        return self.ranked[0] if self.ranked else None


def season_rules_check(rules: SeasonRules) -> SeasonRules:
    """The rules as given, or a ``UserError`` naming the first one out of bounds."""
    if rules.evening_points not in EVENING_POINTS:
        raise UserError(
            _("Unknown evening points %(value)s; choose from %(known)s."),
            field="evening_points",
            value=rules.evening_points,
            known=", ".join(EVENING_POINTS),
        )
    if rules.guests not in GUESTS:
        raise UserError(
            _("Unknown choice for guests %(value)s; choose from %(known)s."),
            field="guests",
            value=rules.guests,
            known=", ".join(GUESTS),
        )
    for name in ("best_of", "min_evenings"):
        value = getattr(rules, name)
        if not 0 <= value <= EVENINGS_MAX:
            raise UserError(
                _("%(value)s is out of bounds: give 0 to %(max)s evenings."),
                field=name,
                value=value,
                max=EVENINGS_MAX,
            )
    return rules


def _rounded(value: Fraction) -> Decimal:
    """A fraction rounded once to two places, halves up."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        CENT, rounding=ROUND_HALF_UP
    )


def rank_points(*, n: int, first: int, last: int) -> Decimal:
    """Rank points of the players tied at places ``first``..``last`` of ``n``."""
    if n == 1:
        return Decimal(RANK_POINTS_TOP)
    mean = Fraction(first + last, 2)
    # Decimal division of the exact fraction: one rounding, at the end.
    exact = Fraction(RANK_POINTS_TOP) * (n - mean) / (n - 1)
    return _rounded(exact)


def evening_points(evening: Evening, *, kind: str) -> dict[int, Decimal]:
    """Player id -> the points the evening brings them, by ``kind``."""
    if kind == SCORE:
        return {p.player_id: p.score for p in evening.places}
    if kind == TABLE_POINTS:
        return {p.player_id: p.table_points for p in evening.places}
    n = len(evening.places)
    # Places as the evening's own order gives them: a shared rank covers as
    # many places as players share it.
    better: dict[int, int] = {}
    tied: dict[int, int] = {}
    for place in evening.places:
        tied[place.rank] = tied.get(place.rank, 0) + 1
    position = 0
    for rank in sorted(tied):
        better[rank] = position
        position += tied[rank]
    return {
        p.player_id: rank_points(n=n, first=better[p.rank] + 1, last=better[p.rank] + tied[p.rank])
        for p in evening.places
    }


def _counted(points: dict[int, Decimal], order: dict[int, int], best_of: int) -> tuple[int, ...]:
    """The evenings that count: the best ``best_of`` (0: all), earlier first on ties."""
    chosen = sorted(points, key=lambda e: (-points[e], order[e]))
    if best_of:
        chosen = chosen[:best_of]
    return tuple(sorted(chosen, key=order.__getitem__))


def _name_key(row: SeasonRow) -> tuple[str, int]:
    return (row.name.casefold(), row.player_id)


def season_table(
    *,
    evenings: Sequence[Evening],
    rules: SeasonRules,
    members: Collection[int] = frozenset(),
) -> SeasonTable:
    """The season table of ``evenings`` (earliest first) under ``rules``;
    ``members`` are the club's players (the others are guests)."""
    order = {e.id: i for i, e in enumerate(evenings)}
    rows: dict[int, SeasonRow] = {}
    for evening in evenings:
        if not evening.places:
            continue
        earned = evening_points(evening, kind=rules.evening_points)
        for place in evening.places:
            row = rows.setdefault(place.player_id, SeasonRow(place.player_id, place.name))
            row.by_evening[evening.id] = earned[place.player_id]
    table = SeasonTable(ranked=[], unranked=[])
    for row in rows.values():
        if rules.guests == GUESTS_EXCLUDE and row.player_id not in members:
            continue
        row.counted = _counted(row.by_evening, order, rules.best_of)
        row.points = sum((row.by_evening[e] for e in row.counted), ZERO)
        row.evenings = len(row.by_evening)
        row.best = max(row.by_evening.values())
        (table.ranked if row.evenings >= rules.min_evenings else table.unranked).append(row)
    table.ranked.sort(key=_name_key)
    table.ranked.sort(key=lambda r: (r.points, r.evenings, r.best), reverse=True)
    previous: tuple[Decimal, int, Decimal] | None = None
    for index, row in enumerate(table.ranked):
        key = (row.points, row.evenings, row.best)
        row.rank = table.ranked[index - 1].rank if key == previous else index + 1
        previous = key
    table.unranked.sort(key=_name_key)
    table.unranked.sort(key=lambda r: (r.evenings, r.points), reverse=True)
    return table
