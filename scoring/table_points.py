"""Table points: places by score earn a fixed vector of points.

Vocabulary:

* **table points** -- an alternative ranking used by German clubs: in each
  game the players are placed by score (winner first) and the places earn a
  vector of points, 4/3/1/0 at a table of 4, 4/2/0 at 3, 4/0 at 2; tied places
  share the mean of their points.
* **placed by score** -- by the zero-sum game ``score``: a variant's bonuses are
  kept apart from it (design §2b) and do not move a place, so losers capped at the
  same minus share their places even when one of them has the runner-up bonus.
* **spare cents** -- a tied share that does not divide into whole cents gives
  its spare cents to the earliest seated of the tied players, the rule joint
  winners' shares and bonuses follow: 1.34/1.33/1.33 for three sharing 3+1+0,
  the 1.34 to whichever of them sits first, whatever their racks.

Plain Python (stdlib only), like the rest of the rules engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType

from scoring.errors import RuleError, _
from scoring.tiles import is_int

PLAYERS_MIN, PLAYERS_MAX = 2, 4
# Every table size a game is played at: 2, 3 or 4 players.
TABLE_SIZES = tuple(range(PLAYERS_MIN, PLAYERS_MAX + 1))
DEFAULT_TABLE_POINTS: dict[int, tuple[int, ...]] = {2: (4, 0), 3: (4, 2, 0), 4: (4, 3, 1, 0)}
# A place earns at most this many table points: a game's points are stored to 9999.99.
TABLE_POINTS_MAX = 1000


def table_points_checked(
    table_points: Mapping[int, Sequence[int]],
) -> Mapping[int, tuple[int, ...]]:
    if not isinstance(table_points, Mapping):
        raise RuleError(
            _("Table points must map a table size to the points of its places."),
            field="table_points",
        )
    vectors = dict(DEFAULT_TABLE_POINTS)
    for size, vector in table_points.items():
        if not is_int(size) or not PLAYERS_MIN <= size <= PLAYERS_MAX:
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
        if len(vector) != size or not all(is_int(points) for points in vector):
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
        shares = cents_split(sum(vector[place:tied_end]), shares=len(tied))
        for index, share in zip(sorted(tied), shares, strict=True):
            points[index] = share
        place = tied_end
    return tuple(points)


def cents_split(total: int, *, shares: int) -> list[Decimal]:
    """``total`` split into ``shares`` near-equal 2-place amounts; spare cents go first."""
    whole, spare = divmod(total * 100, shares)
    return [Decimal(whole + (index < spare)).scaleb(-2) for index in range(shares)]
