"""The ``random`` and ``swiss`` methods: one round drawn, or seated by standings.

Vocabulary (the package docstring has the rest):

* **rank**: a player's place in this round's standings order (0 is the
  leader; equal standings are ordered by a seeded draw).
* **table cost**: the repeat costs of a table's pairs plus its spread in ranks.
* **descent**: single swaps with nearby tables, each lowering the total cost.
* **kick**: a random swap or two out of a table with a repeat, after which the
  descent runs again (an iterated local search).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from tournaments.seating.order import _chunk, _pick_byes, _plan, _rng
from tournaments.seating.sizes import (
    REPEAT_COST,
    History,
    RoundPlan,
    Tables,
    _meetings,
    _repeats_added,
    table_sizes,
)


def _seat_random(
    players: Sequence[int],
    history: History,
    max_size: int,
    seed: int,
    bye_history: Collection[int],
) -> RoundPlan:
    rng = _rng("random", seed, len(history))
    sizes, bye_count = table_sizes(players=len(players), max_size=max_size)
    byes = _pick_byes(players, bye_count, bye_history, rng)
    bye_set = set(byes)
    seated = [p for p in players if p not in bye_set]
    rng.shuffle(seated)
    return _plan(_chunk(seated, sizes), byes, history, rng)


def _table_cost(
    table: Sequence[int], met: Mapping[int, Counter[int]], rank: Mapping[int, int]
) -> int:
    cost = 0
    for a, b in itertools.combinations(table, 2):
        row = met.get(a)
        if row is not None:
            k = row[b]
            cost += REPEAT_COST[min(k, len(REPEAT_COST) - 1)]
    ranks = [rank[p] for p in table]
    return cost + max(ranks) - min(ranks)


def _has_repeat(table: Sequence[int], met: Mapping[int, Counter[int]]) -> bool:
    return any(a in met and met[a][b] > 0 for a, b in itertools.combinations(table, 2))


def _swiss_descend(
    tables: Tables, met: Mapping[int, Counter[int]], rank: Mapping[int, int]
) -> None:
    """Remove repeats by swapping players with nearby tables, widening the reach only if stuck.

    Tables are in standings order, so a swap with a neighbouring table moves a
    player a few places only. Each accepted swap lowers the total cost, so the
    loop ends; it stops when no table holds a repeat.
    """
    costs = [_table_cost(t, met, rank) for t in tables]
    window = 1
    while True:
        bad = [i for i, t in enumerate(tables) if _has_repeat(t, met)]
        if not bad:
            return
        moved = False
        for i in bad:
            table = tables[i]
            if not _has_repeat(table, met):
                continue
            culprits = {
                p
                for a, b in itertools.combinations(table, 2)
                if a in met and met[a][b] > 0
                for p in (a, b)
            }
            best_delta = 0
            best_move: tuple[int, int, int] | None = None
            for j in range(max(0, i - window), min(len(tables), i + window + 1)):
                if j == i:
                    continue
                other = tables[j]
                for ai, a in enumerate(table):
                    if a not in culprits:
                        continue
                    for bi, b in enumerate(other):
                        table[ai], other[bi] = b, a
                        delta = (
                            _table_cost(table, met, rank)
                            + _table_cost(other, met, rank)
                            - costs[i]
                            - costs[j]
                        )
                        table[ai], other[bi] = a, b
                        if delta < best_delta:
                            best_delta, best_move = delta, (j, ai, bi)
            if best_move is not None:
                j, ai, bi = best_move
                other = tables[j]
                table[ai], other[bi] = other[bi], table[ai]
                costs[i] = _table_cost(table, met, rank)
                costs[j] = _table_cost(other, met, rank)
                moved = True
        if not moved:
            if window >= len(tables):
                return  # no swap helps any more: the repeats left are forced
            window *= 2


# Kicks tried when single swaps leave repeats: enough for a club field to
# find a repeat-free round where one exists. A count, never a clock, so the
# same seed gives the same seating; fewer for big fields, where each descent
# costs more and single swaps rarely get stuck.
SWISS_KICK_WORK = 40_000
# Kicks in a row without a better seating before the search accepts the
# repeats it has: late rounds of a small field have forced repeats.
SWISS_KICK_PATIENCE = 40


def _swiss_repair(
    tables: Tables,
    met: Mapping[int, Counter[int]],
    rank: Mapping[int, int],
    rng: random.Random,
) -> None:
    """Single swaps first; if repeats are left, kick and descend again (an
    iterated local search), keeping the best seating: fewest repeats, then
    the smallest standings spread."""
    _swiss_descend(tables, met, rank)
    if not _repeats_added(tables, met) or len(tables) < 2:
        return

    def key(candidate: Tables) -> tuple[int, int]:
        return (
            _repeats_added(candidate, met),
            sum(_table_cost(t, met, rank) for t in candidate),
        )

    best, best_key = [list(t) for t in tables], key(tables)
    players = sum(len(t) for t in tables)
    stale = 0
    for _kick in range(max(10, min(400, SWISS_KICK_WORK // players))):
        if best_key[0] == 0 or stale >= SWISS_KICK_PATIENCE:
            break
        stale += 1
        trial = [list(t) for t in best]
        for _swap in range(2):
            bad = [i for i, t in enumerate(trial) if _has_repeat(t, met)]
            if not bad:
                break
            i = rng.choice(bad)
            j = rng.randrange(len(trial) - 1)
            j += j >= i
            a, b = rng.randrange(len(trial[i])), rng.randrange(len(trial[j]))
            trial[i][a], trial[j][b] = trial[j][b], trial[i][a]
        _swiss_descend(trial, met, rank)
        trial_key = key(trial)
        if trial_key < best_key:
            best, best_key, stale = trial, trial_key, 0
    tables[:] = best


def _seat_swiss(
    players: Sequence[int],
    history: History,
    standings: Mapping[int, float],
    max_size: int,
    seed: int,
    bye_history: Collection[int],
) -> RoundPlan:
    rng = _rng("swiss", seed, len(history))
    sizes, bye_count = table_sizes(players=len(players), max_size=max_size)
    byes = _pick_byes(players, bye_count, bye_history, rng, standings)
    bye_set = set(byes)
    draw = {p: rng.random() for p in players}  # equal standings: a seeded draw decides
    order = sorted(
        (p for p in players if p not in bye_set),
        key=lambda p: (-standings.get(p, 0.0), draw[p]),
    )
    rank = {p: i for i, p in enumerate(order)}
    tables = _chunk(order, sizes)
    met = _meetings(history)
    _swiss_repair(tables, met, rank, rng)
    return _plan(tables, byes, history, rng, met)
