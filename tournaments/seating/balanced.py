"""The ``balanced`` method: every remaining round planned with as few repeats as possible.

Vocabulary (the package docstring has the rest):

* **fixed** rounds: those already played (they count, but never change);
  **free** rounds: those being planned.
* **count**: ``count[a][b]`` is how often players a and b (indices 0..n−1 into
  the sorted ids) meet over the fixed and free rounds.
* **conflict**: a player in a free round who sits with someone they meet more
  than once; only moving such a player can lower the cost.
* **target**: the cost of a schedule at the lower bound, where the search stops.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Collection, Sequence

from tournaments.seating.designs import _design, _design_labels, _relabel
from tournaments.seating.order import _chunk, _pick_byes, _plan, _rng
from tournaments.seating.sizes import (
    REPEAT_COST,
    History,
    RoundPlan,
    Tables,
    repeat_lower_bound,
    table_sizes,
)


class _Tabu:
    """Tabu search over the free rounds of a schedule (rounds in ``fixed`` never change).

    Players are indexed 0..n−1. ``count[a][b]`` is how often a and b meet over
    all rounds; the cost of a pair that met c times is the sum of
    ``REPEAT_COST[0..c−1]``. A move swaps two players of different tables in
    one free round, one of whom sits with someone they meet more than once
    (only such players can lower the cost). A swapped player may not go back to
    the table they left for 10–25 iterations unless that beats the best cost so
    far. When the best stops improving, the search restarts from the best
    schedule with a few random swaps (perturbation).
    """

    def __init__(self, n: int, fixed: Sequence[Tables], free: list[Tables], rng: random.Random):
        self.n = n
        self.rng = rng
        self.free = free
        depth = len(fixed) + len(free) + 2
        self.inc = [REPEAT_COST[min(k, len(REPEAT_COST) - 1)] for k in range(depth)]
        self.base = [[0] * n for _ in range(n)]
        for tables in fixed:
            self._add(self.base, tables, 1)
        self._recount()

    @staticmethod
    def _add(count: list[list[int]], tables: Tables, sign: int) -> None:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                count[a][b] += sign
                count[b][a] += sign

    def _recount(self) -> None:
        self.count = [row[:] for row in self.base]
        for tables in self.free:
            self._add(self.count, tables, 1)
        self.where = []
        for tables in self.free:
            where = [-1] * self.n
            for t, table in enumerate(tables):
                for p in table:
                    where[p] = t
            self.where.append(where)
        self.cost = self._cost()

    def _cost(self) -> int:
        inc = self.inc
        total = 0
        for a in range(self.n):
            row = self.count[a]
            for b in range(a + 1, self.n):
                c = row[b]
                if c > 1:
                    total += sum(inc[:c])
        return total

    def conflicts(self) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = []
        count = self.count
        for r, tables in enumerate(self.free):
            for table in tables:
                for a in table:
                    row = count[a]
                    if any(row[b] > 1 for b in table if b != a):
                        found.append((r, a))
        return found

    def swap(self, r: int, a: int, b: int) -> None:
        where = self.where[r]
        ta, tb = where[a], where[b]
        table_a, table_b = self.free[r][ta], self.free[r][tb]
        count = self.count
        for x in table_a:
            if x != a:
                count[a][x] -= 1
                count[x][a] -= 1
                count[b][x] += 1
                count[x][b] += 1
        for y in table_b:
            if y != b:
                count[b][y] -= 1
                count[y][b] -= 1
                count[a][y] += 1
                count[y][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta

    def delta(self, r: int, a: int, b: int) -> int:
        where = self.where[r]
        table_a, table_b = self.free[r][where[a]], self.free[r][where[b]]
        inc = self.inc
        ca, cb = self.count[a], self.count[b]
        d = 0
        for x in table_a:
            if x != a:
                d += inc[cb[x]] - inc[ca[x] - 1]
        for y in table_b:
            if y != b:
                d += inc[ca[y]] - inc[cb[y] - 1]
        return d

    def run(self, *, target: int, max_iters: int, patience: int, deadline: float) -> list[Tables]:
        rng = self.rng
        best_cost = self.cost
        best = [[t[:] for t in tables] for tables in self.free]
        tabu: dict[tuple[int, int, int], int] = {}
        stall = 0
        improved_at = 0
        stall_limit = 60 + 4 * self.n
        sample = 64  # candidate partners per conflicted player, for large fields
        for it in range(max_iters):
            if best_cost <= target or it - improved_at > patience:
                break
            if it & 63 == 0 and time.monotonic() > deadline:
                break
            conflicts = self.conflicts()
            if not conflicts:
                break
            if len(conflicts) > 48:
                conflicts = rng.sample(conflicts, 48)
            move: tuple[int, int, int] | None = None
            move_delta = math.inf
            ties = 0
            for r, a in conflicts:
                where = self.where[r]
                ta = where[a]
                if self.n <= sample:
                    candidates: Sequence[int] = range(self.n)
                else:  # a large field: a random handful of partners is enough
                    candidates = [rng.randrange(self.n) for _ in range(sample)]
                for b in candidates:
                    if where[b] < 0 or where[b] == ta:
                        continue
                    d = self.delta(r, a, b)
                    if d > move_delta:
                        continue
                    if (
                        tabu.get((r, a, where[b]), -1) >= it or tabu.get((r, b, ta), -1) >= it
                    ) and self.cost + d >= best_cost:
                        continue
                    if d < move_delta:
                        move, move_delta, ties = (r, a, b), d, 1
                    else:  # an equal move: keep one of them uniformly at random
                        ties += 1
                        if rng.randrange(ties) == 0:
                            move = (r, a, b)
            if move is None:
                tabu.clear()
                continue
            r, a, b = move
            where = self.where[r]
            tabu[(r, a, where[a])] = it + rng.randint(10, 25)
            tabu[(r, b, where[b])] = it + rng.randint(10, 25)
            self.swap(r, a, b)
            self.cost += int(move_delta)
            if self.cost < best_cost:
                best_cost = self.cost
                best = [[t[:] for t in tables] for tables in self.free]
                stall = 0
                improved_at = it
            else:
                stall += 1
            if stall > stall_limit:
                # Perturb: restart from the best schedule with a few random swaps.
                self.free = [[t[:] for t in tables] for tables in best]
                self._recount()
                for _ in range(rng.randint(1, 3)):
                    r, a = rng.choice(self.conflicts() or [(0, 0)])
                    where = self.where[r]
                    others = [b for b in range(self.n) if where[b] >= 0 and where[b] != where[a]]
                    if others:
                        b = rng.choice(others)
                        self.cost += self.delta(r, a, b)
                        self.swap(r, a, b)
                tabu.clear()
                stall = 0
        self.free = best
        self._recount()
        return best


def _greedy_round(
    seated: Sequence[int], sizes: Sequence[int], count: list[list[int]], rng: random.Random
) -> Tables:
    """One round built player by player, each at the open table where they met fewest."""
    order = list(seated)
    rng.shuffle(order)
    if len(order) > 200:
        return _chunk(order, sizes)  # many players: a draw has few repeats already
    inc = REPEAT_COST
    tables: Tables = [[] for _ in sizes]
    for p in order:
        row = count[p]
        best_t = -1
        best_c = math.inf
        for t, table in enumerate(tables):
            if len(table) < sizes[t]:
                c = sum(inc[min(row[x], len(inc) - 1)] for x in table)
                if c < best_c:
                    best_t, best_c = t, c
        tables[best_t].append(p)
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            count[a][b] += 1
            count[b][a] += 1
    return tables


def _canonical(tables: Sequence[Sequence[int]]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(t) for t in tables)


def schedule_balanced(
    *,
    players: Sequence[int],
    rounds: int,
    max_size: int = 4,
    seed: int = 0,
    history: History = (),
    time_limit: float = 10.0,
    max_iters: int = 20_000,
    patience: int = 2_000,
    bye_history: Collection[int] = (),
) -> tuple[RoundPlan, ...]:
    """Plan ``rounds`` further rounds with as few repeats as possible over the whole event.

    The ``history`` rounds are fixed and count towards the repeats. Where all
    tables have one size and a known design fits the field (2^k players at
    tables of 4: affine geometry, 9 rounds for 32; size·q players with q a
    prime power: a transversal design, 7 rounds for 28; 3^k at tables of 3;
    round robin for pairs), the plan starts from the design, relabelled so
    that it continues the first round already played. The rest is built
    greedily. Tabu search then lowers the repeats until it reaches the lower
    bound, ``max_iters`` iterations, ``patience`` iterations without progress,
    or ``time_limit`` seconds. The result depends only on the arguments unless
    the time limit cuts the search short.
    """
    deadline = time.monotonic() + time_limit
    ids = sorted(set(players))
    if len(ids) != len(players):
        raise ValueError("players must be distinct")
    if rounds <= 0 or not ids:
        return ()
    rng = _rng("balanced", seed, len(history))
    sizes, bye_count = table_sizes(players=len(ids), max_size=max_size)
    index = {p: i for i, p in enumerate(ids)}
    n = len(ids)

    # Byes first, by fairness (fewest byes so far), so the search never moves them.
    had = list(bye_history)
    bye_rounds: list[list[int]] = []
    for _r in range(rounds):
        byes = _pick_byes(ids, bye_count, had, rng)
        bye_rounds.append(byes)
        had.extend(byes)

    fixed = [[[index[p] for p in table if p in index] for table in tables] for tables in history]
    fixed = [[t for t in tables if len(t) > 1] for tables in fixed]
    free: list[Tables] = []
    design = _design(n, sizes, len(fixed) + rounds) if bye_count == 0 else []
    if len(design) > len(fixed):
        if fixed:
            labels = _design_labels(design[0], fixed[0])
        else:  # a seeded first round, then labelled as every later call will see it
            seeded = list(range(n))
            rng.shuffle(seeded)
            labels = _design_labels(design[0], _relabel(design[:1], seeded)[0])
        if labels is not None and -1 not in labels:
            planned = _relabel(design, labels)
            if all(_canonical(planned[r]) == _canonical(fixed[r]) for r in range(len(fixed))):
                # The event so far follows the design: go on with it (this keeps 32
                # players repeat-free for 9 rounds when rounds are seated one by one).
                free = planned[len(fixed) : len(fixed) + rounds]
    count = [[0] * n for _ in range(n)]
    for tables in [*fixed, *free]:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                count[a][b] += 1
                count[b][a] += 1
    for r in range(len(free), rounds):
        bye_set = {index[p] for p in bye_rounds[r]}
        seated = [i for i in range(n) if i not in bye_set]
        free.append(_greedy_round(seated, sizes, count, rng))

    # The search may stop at the lower bound: every repeat costs at least
    # REPEAT_COST[1]. The bound holds only when every round seated this field.
    target = 0
    if all(sum(map(len, tables)) == n - bye_count for tables in fixed):
        total = len(fixed) + rounds
        target = REPEAT_COST[1] * repeat_lower_bound(players=n, rounds=total, max_size=max_size)
    search = _Tabu(n, fixed, free, rng)
    schedule = search.run(target=target, max_iters=max_iters, patience=patience, deadline=deadline)

    plans: list[RoundPlan] = []
    played: list[Sequence[Sequence[int]]] = list(history)
    for r, tables in enumerate(schedule):
        seated_tables = [[ids[i] for i in table] for table in tables]
        plan = _plan(seated_tables, bye_rounds[r], played, rng)
        plans.append(plan)
        played.append(plan.tables)
    return tuple(plans)


def _seat_balanced(
    players: Sequence[int],
    history: History,
    max_size: int,
    seed: int,
    rounds_total: int | None,
    bye_history: Collection[int],
    time_limit: float,
) -> RoundPlan:
    total = max(rounds_total or 0, len(history) + 1)
    plans = schedule_balanced(
        players=players,
        rounds=total - len(history),
        max_size=max_size,
        seed=seed,
        history=history,
        time_limit=time_limit,
        bye_history=bye_history,
    )
    return plans[0] if plans else RoundPlan((), (), 0)
