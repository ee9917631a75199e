"""Table sizes, meeting counts, and the bounds and figures that judge a schedule.

Vocabulary (the package docstring has the rest):

* **sizes**: a round's table sizes, largest first; a table of one is a bye,
  never a table.
* **meetings** (``met``): per player, how often they already shared a table
  with each opponent; the searches look pairs up here.
* **repeat cost** (``REPEAT_COST``): what one more meeting of a pair costs the
  swiss and balanced searches, by how often the pair met before.
* **quality**: a schedule's repeats next to its lower bound.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# The cost of one more meeting of a pair that has already met k times
# (index k; the last entry repeats). A second meeting outweighs any standings
# spread a swiss swap can cause (spread costs 1 per standings place, and a swap
# with a nearby table moves a player a few dozen places at most); a third
# meeting costs far more again, so repeats are spread over many pairs.
REPEAT_COST = (0, 1_000, 100_000, 10_000_000)

History = Sequence[Sequence[Sequence[int]]]
Tables = list[list[int]]


# --------------------------------------------------------------------------
# Table sizes and bounds
# --------------------------------------------------------------------------


def table_sizes(*, players: int, max_size: int = 4) -> tuple[tuple[int, ...], int]:
    """Table sizes for ``players`` active players, largest first, and the number of byes.

    As few tables as the cap allows, sizes as equal as possible: that is as many
    tables of ``max_size`` as possible and the rest one smaller (13 → 4+3+3+3),
    with tables of 2 only where nothing else fits (5 → 3+2, 2 → 2; capped at 3:
    4 → 2+2, 7 → 3+2+2). A table of one is a bye: one player alone (or, with
    tables of 2, the odd one out).
    """
    if max_size < 2:
        raise ValueError(f"max_size must be at least 2, not {max_size}")
    if players < 0:
        raise ValueError(f"players must not be negative, not {players}")
    if players == 0:
        return (), 0
    count = -(-players // max_size)
    small, big = divmod(players, count)
    sizes = (small + 1,) * big + (small,) * (count - big)
    byes = sizes.count(1)
    return tuple(s for s in sizes if s > 1), byes


def _pairs_in(sizes: Sequence[int]) -> int:
    return sum(s * (s - 1) // 2 for s in sizes)


def _min_pairs_from_groups(size: int, groups: Sequence[int]) -> int:
    """Fewest pairs a table of ``size`` must share with one earlier round.

    ``groups`` are the earlier round's table sizes (a bye is a group of 1). The
    table draws its players from these groups; spreading them as evenly as the
    group sizes allow minimises the pairs that already sat together.
    """
    taken = [0] * len(groups)
    left = size
    level = 0
    while left > 0:
        level += 1
        for i, cap in enumerate(groups):
            if left == 0:
                break
            if cap >= level:
                taken[i] += 1
                left -= 1
    return sum(k * (k - 1) // 2 for k in taken)


def repeat_lower_bound(*, players: int, rounds: int, max_size: int = 4) -> int:
    """A lower bound on the repeats of any ``rounds``-round schedule of ``players``.

    Two valid bounds, the larger wins:

    * counting: each round holds a fixed number of meetings (given the table
      sizes), and only ``players * (players - 1) / 2`` pairs exist;
    * consecutive rounds: a table of a round draws its players from the tables
      of the round before; with fewer earlier tables than seats some pair must
      sit together again. A pair that repeats in rounds *r* and *r + 1* is
      counted at most once per such step, and a pair meeting in *c* rounds
      has at most *c − 1* steps, so summing over steps never over-counts.

    Zero whenever a schedule without repeats might exist; for 4-player tables
    that needs ``rounds <= (players - 1) / 3`` (a player meets 3 new opponents
    per round).
    """
    if rounds <= 1 or players < 2:
        return 0
    sizes, byes = table_sizes(players=players, max_size=max_size)
    counting = rounds * _pairs_in(sizes) - players * (players - 1) // 2
    groups = [*sizes, *([1] * byes)]
    step = sum(_min_pairs_from_groups(s, groups) for s in sizes)
    return max(0, counting, (rounds - 1) * step)


# --------------------------------------------------------------------------
# Plans, counts and quality
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundPlan:
    """One round's seating."""

    tables: tuple[tuple[int, ...], ...]  # player ids per table, seat 1 first
    byes: tuple[int, ...]
    repeats: int  # repeat meetings this round adds given the history


@dataclass(frozen=True)
class Quality:
    """How good a schedule is: its repeats next to the bound no schedule can beat."""

    repeats: int
    lower_bound: int
    max_meetings: int  # the most times any one pair met


def pair_counts(history: History) -> Counter[frozenset[int]]:
    """How often each pair of players has shared a table."""
    counts: Counter[frozenset[int]] = Counter()
    for tables in history:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                counts[frozenset((a, b))] += 1
    return counts


def _meetings(history: History) -> dict[int, Counter[int]]:
    """Per player, how often they met each opponent (fast look-ups for the searches)."""
    met: dict[int, Counter[int]] = {}
    for tables in history:
        for table in tables:
            for a in table:
                row = met.setdefault(a, Counter())
                for b in table:
                    if b != a:
                        row[b] += 1
    return met


def _repeats_added(tables: Sequence[Sequence[int]], met: Mapping[int, Counter[int]]) -> int:
    return sum(
        1
        for table in tables
        for a, b in itertools.combinations(table, 2)
        if a in met and met[a][b] > 0
    )


def schedule_quality(*, rounds: History, max_size: int = 4) -> Quality:
    """Repeats of a whole schedule next to the lower bound for its size.

    The bound assumes every round seats the same players (those of the first).
    """
    counts = pair_counts(rounds)
    repeats = sum(c - 1 for c in counts.values())
    n = sum(len(t) for t in rounds[0]) if rounds else 0
    byes = table_sizes(players=n, max_size=max_size)[1] if n else 0
    bound = repeat_lower_bound(players=n + byes, rounds=len(rounds), max_size=max_size)
    return Quality(repeats, bound, max(counts.values(), default=0))
