"""Seat order within a table, byes, and the steps every method shares.

Vocabulary (the package docstring has the rest):

* **seat record**: per player, how often they had each seat, how often they
  sat last, when they last did, and their **lateness** (the sum over rounds of
  seat index / (size − 1): 0 in seat 1, 1 in the last seat).
* **stream**: the ``random.Random`` one method draws from in one round, seeded
  by the method, the event's seed and the round number.
* **plan**: tables put in seat order, byes sorted and repeats counted: the
  :class:`~tournaments.seating.sizes.RoundPlan` every method returns.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tournaments.seating.sizes import History, RoundPlan, Tables, _meetings, _repeats_added

# --------------------------------------------------------------------------
# Seat order: who starts
# --------------------------------------------------------------------------


@dataclass
class _SeatRecord:
    seats: Counter[int]  # seat index (0 = seat 1) -> times
    last: int = 0  # times in the last seat of a table
    lateness: float = 0.0  # sum of index / (size - 1): 0 first, 1 last
    last_round: int = -1  # the last round (index into the history) they sat last


def _seat_records(history: History) -> dict[int, _SeatRecord]:
    records: dict[int, _SeatRecord] = {}
    for number, tables in enumerate(history):
        for table in tables:
            size = len(table)
            for index, player in enumerate(table):
                record = records.setdefault(player, _SeatRecord(Counter()))
                record.seats[index] += 1
                if size > 1:
                    record.lateness += index / (size - 1)
                    if index == size - 1:
                        record.last += 1
                        record.last_round = number
    return records


_NO_RECORD = _SeatRecord(Counter())


def _order_table(
    table: Sequence[int], records: Mapping[int, _SeatRecord], rng: random.Random, previous: int
) -> tuple[int, ...]:
    """Seat order that spreads every player over all seats across rounds.

    Each candidate order costs, per player, how often they already had that
    seat (and, for the last seat, how often they were last at any table size,
    plus one if they were last in the round before), so a player who sat in
    seat 1 before is moved on and nobody stays last.
    Ties go first to those who on the whole sat later (their average lateness),
    then to a seeded draw, not to low player ids.
    """
    members = list(table)
    rng.shuffle(members)
    size = len(members)
    if size <= 1:
        return tuple(members)

    def cost(player: int, index: int) -> float:
        record = records.get(player, _NO_RECORD)
        c = float(record.seats[index])
        if index == size - 1:
            c += record.last + (record.last_round == previous)
        # A small tie-breaker: the later someone sat so far, the earlier now.
        return c + 1e-3 * record.lateness * index / (size - 1)

    if size > 6:  # 720 orders at most; bigger tables are not Rummikub
        return tuple(sorted(members, key=lambda p: -records.get(p, _NO_RECORD).lateness))
    best: tuple[int, ...] = tuple(members)
    best_cost = math.inf
    for order in itertools.permutations(members):
        c = sum(cost(p, i) for i, p in enumerate(order))
        if c < best_cost - 1e-9:
            best, best_cost = order, c
    return best


def start_order(*, table: Sequence[int], history: History = (), seed: int = 0) -> tuple[int, ...]:
    """Seat order for one table so that who starts (and who sits last) rotates over rounds."""
    rng = _rng("order", seed, len(history))
    return _order_table(table, _seat_records(history), rng, len(history) - 1)


def _order_tables(
    tables: Sequence[Sequence[int]], history: History, rng: random.Random
) -> tuple[tuple[int, ...], ...]:
    records = _seat_records(history)
    return tuple(_order_table(t, records, rng, len(history) - 1) for t in tables)


# --------------------------------------------------------------------------
# Helpers shared by the methods
# --------------------------------------------------------------------------


def _rng(kind: str, seed: int, round_number: int) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across runs
    # and platforms, unlike hash() of a tuple.
    return random.Random(f"rackscore:{kind}:{seed}:{round_number}")


def _pick_byes(
    players: Sequence[int],
    count: int,
    bye_history: Collection[int],
    rng: random.Random,
    standings: Mapping[int, float] | None = None,
) -> list[int]:
    """Byes go to those with the fewest byes so far; then the lowest standing; then a draw."""
    if count == 0:
        return []
    had = Counter(bye_history)
    draw = {p: rng.random() for p in players}
    scores = standings or {}
    ranked = sorted(players, key=lambda p: (had[p], scores.get(p, 0.0), draw[p]))
    return ranked[:count]


def _chunk(order: Sequence[int], sizes: Sequence[int]) -> Tables:
    tables: Tables = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _plan(
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    history: History,
    rng: random.Random,
    met: Mapping[int, Counter[int]] | None = None,
) -> RoundPlan:
    ordered = _order_tables(tables, history, rng)
    if met is None:
        met = _meetings(history)
    return RoundPlan(ordered, tuple(sorted(byes)), _repeats_added(ordered, met))
