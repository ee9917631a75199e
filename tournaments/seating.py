"""Seating: who sits at which table, and in which seat, round by round.

Plain Python (no Django): the services hand in plain data and store the plan.

Vocabulary (design §1 has the rest):

* **active players**: the player ids to seat this round (integers).
* **table**: one match of a round; a tuple of player ids in *seat order*. Seat 1
  (the first id) starts game 1; within a match the service rotates the start, so
  game *g* is started by seat ``((g - 1) mod size) + 1``.
* **bye**: an active player who is not seated this round (only when a player
  would otherwise sit alone); the service books the tournament's bye score.
* **meeting**: two players sharing a table in one round. A **repeat** is every
  meeting of a pair beyond its first: a pair that met three times counts 2.
* **history**: the earlier rounds, each a sequence of tables in seat order.
* **standings**: a score per player, higher is better (``swiss`` only).
* **schedule**: several rounds planned together (``balanced``).
* **lower bound**: the fewest repeats any schedule of that size can have
  (``repeat_lower_bound``); a schedule is optimal when it reaches it.
* **spread** of a table: the distance in standings places between its best and
  its worst player (``swiss``); a table of 4 consecutive players has spread 3.

Methods: ``random`` draws tables; ``swiss`` seats players of similar standing
together and repairs repeats by swaps with nearby tables; ``balanced`` ignores
standings and minimises repeats over the whole event (a social-golfer schedule:
a known design where one fits the field, tabu search otherwise);
``manual`` starts from a random draw that the organiser edits and
:func:`plan_check` validates.

Every method is deterministic: the same players, history, standings and seed
give the same plan (``balanced`` only while its search ends within its time
limit, a safety net that the iteration budget normally keeps it inside). The
round number (the length of the history) is mixed into the seed, so one seed
can serve a whole event. ``balanced`` plans all remaining rounds and returns
the next one; when the rounds so far follow a known design, it goes on with
that design whatever the seed.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import UserError, _

__all__ = [
    "METHODS",
    "REPEAT_COST",
    "Quality",
    "RoundPlan",
    "pair_counts",
    "plan_check",
    "repeat_lower_bound",
    "round_seat",
    "schedule_balanced",
    "schedule_quality",
    "start_order",
    "table_sizes",
]

METHODS = ("random", "swiss", "balanced", "manual")

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


# --------------------------------------------------------------------------
# Manual seating
# --------------------------------------------------------------------------


def plan_check(
    *,
    players: Collection[int],
    tables: Sequence[Sequence[int]],
    byes: Sequence[int] = (),
    max_size: int = 4,
) -> None:
    """Validate an organiser's seating; raise a ``UserError`` naming the player or table.

    Every active player is seated exactly once or has a bye, nobody else is
    seated, and every table seats 2 to ``max_size``. Tables are numbered from 1.
    """
    active = set(players)
    seen: dict[int, int] = {}  # player -> table number (0: the bye list)
    for number, table in enumerate(tables, start=1):
        for player in table:
            if player not in active:
                raise UserError(
                    _("Player %(player)s at table %(table)s is not an active player."),
                    field="tables",
                    player=player,
                    table=number,
                )
            if player in seen:
                raise UserError(
                    _("Player %(player)s is seated twice: at tables %(first)s and %(table)s."),
                    field="tables",
                    player=player,
                    first=seen[player],
                    table=number,
                )
            seen[player] = number
        if not 2 <= len(table) <= max_size:
            raise UserError(
                _("Table %(table)s has %(size)s players; a table seats 2 to %(max_size)s."),
                field="tables",
                table=number,
                size=len(table),
                max_size=max_size,
            )
    for player in byes:
        if player not in active:
            raise UserError(
                _("Player %(player)s has a bye but is not an active player."),
                field="tables",
                player=player,
            )
        if player in seen:
            where = seen[player]
            if where == 0:
                raise UserError(_("Player %(player)s has two byes."), field="tables", player=player)
            raise UserError(
                _("Player %(player)s has a bye and is also seated at table %(table)s."),
                field="tables",
                player=player,
                table=where,
            )
        seen[player] = 0
    for player in sorted(active - seen.keys()):
        raise UserError(
            _("Player %(player)s has no seat: seat them at a table or give them a bye."),
            field="tables",
            player=player,
        )


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


# --------------------------------------------------------------------------
# random and swiss
# --------------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# balanced: constructions
# --------------------------------------------------------------------------

# Multiplication by ω in GF(4) = {0, 1, ω, ω²} written as 2-bit numbers with
# ω = 0b10 and ω² = ω + 1 = 0b11.
_TIMES_OMEGA = (0, 2, 3, 1)


def _omega(x: int, pairs: int) -> int:
    return sum(_TIMES_OMEGA[(x >> (2 * i)) & 3] << (2 * i) for i in range(pairs))


def _spread_even(bits: int) -> list[tuple[int, int]]:
    """A full spread of lines of PG(bits-1, 2) for even ``bits``: (4^k − 1)/3 lines.

    GF(2)^(2k) is GF(4)^k; the 1-dimensional GF(4)-subspaces {0, v, ωv, ω²v}
    are 2-dimensional over GF(2) and meet pairwise only in 0 (Desarguesian spread).
    """
    covered = [False] * (1 << bits)
    lines: list[tuple[int, int]] = []
    for v in range(1, 1 << bits):
        if covered[v]:
            continue
        w = _omega(v, bits // 2)
        lines.append((v, w))
        covered[v] = covered[w] = covered[v ^ w] = True
    return lines


def _spread_search(bits: int, want: int, rng: random.Random, budget: int) -> list[tuple[int, int]]:
    """A partial spread of ``want`` lines of PG(bits-1, 2) by depth-first search.

    Points of the projective space are the nonzero vectors; a line {u, v, u^v}
    is a 2-dim subspace. Branch on the first uncovered point: cover it with a
    line through uncovered points, or leave it as one of the allowed holes.
    The best partial spread found within ``budget`` nodes is returned.
    """
    n = 1 << bits
    covered = [False] * n
    order = list(range(1, n))
    rng.shuffle(order)
    holes_allowed = (n - 1) - 3 * want
    chosen: list[tuple[int, int]] = []
    best: list[tuple[int, int]] = []
    nodes = 0

    def search(index: int, holes: int) -> bool:
        nonlocal nodes, best
        nodes += 1
        if len(chosen) > len(best):
            best = list(chosen)
        if len(chosen) == want:
            return True
        if nodes > budget:
            return False
        while index < len(order) and covered[order[index]]:
            index += 1
        if index == len(order):
            return False
        p = order[index]
        covered[p] = True
        for q in order[index + 1 :]:
            r = p ^ q
            if covered[q] or covered[r] or q > r:
                continue
            covered[q] = covered[r] = True
            chosen.append((p, q))
            if search(index + 1, holes):
                return True
            chosen.pop()
            covered[q] = covered[r] = False
        if holes > 0 and search(index + 1, holes - 1):
            return True
        covered[p] = False
        return False

    search(0, holes_allowed)
    return best


def _affine_flats(n: int, rounds: int, rng: random.Random) -> list[Tables]:
    """Rounds without repeats for n = 2^k players (k ≥ 4) at tables of 4, from AG(k, 2).

    Each 2-dim subspace S of GF(2)^k gives a round: its cosets x + S (the
    2-flats parallel to S) are 2^(k−2) tables of 4. Two rounds from subspaces
    that meet only in 0 share no pair, so a partial spread of m lines of
    PG(k−1, 2) gives m rounds without a repeat: 5 for 16 players, 9 (the most
    there is) for 32, 21 for 64.
    """
    bits = n.bit_length() - 1
    if n < 16 or n != 1 << bits:
        return []
    if bits % 2 == 0:
        lines = _spread_even(bits)[:rounds]
    elif bits <= 9:  # the search recurses once per point
        # The largest partial spread of lines in PG(2m, 2) has (2^(2m+1) − 5)/3 lines.
        want = min(rounds, (n - 5) // 3)
        lines = _spread_search(bits, want, rng, budget=20_000)
    else:
        return []
    return [_cosets(n, (0, u, v, u ^ v), lambda x, y: x ^ y) for u, v in lines]


def _cosets(n: int, subgroup: Sequence[int], add: Callable[[int, int], int]) -> Tables:
    seen = [False] * n
    tables: Tables = []
    for x in range(n):
        if not seen[x]:
            points = [add(x, s) for s in subgroup]
            for point in points:
                seen[point] = True
            tables.append(points)
    return tables


def _affine_lines3(n: int, rounds: int) -> list[Tables]:
    """Rounds without repeats for n = 3^k players at tables of 3: the lines of AG(k, 3).

    Each direction d (a 1-dim subspace {0, d, 2d} of GF(3)^k) gives a round of
    parallel lines; (3^k − 1)/2 directions, a Kirkman schedule (9 players: 4 rounds).
    """
    k = 0
    while 3**k < n:
        k += 1
    if n < 9 or 3**k != n:
        return []

    def digits(x: int) -> list[int]:
        return [(x // 3**i) % 3 for i in range(k)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * 3**i for i, d in enumerate(ds))

    def add(x: int, y: int) -> int:
        return number([(a + b) % 3 for a, b in zip(digits(x), digits(y), strict=True)])

    result: list[Tables] = []
    for d in range(1, n):
        ds = digits(d)
        if next(x for x in reversed(ds) if x) != 1:  # one of {d, 2d}: leading digit 1
            continue
        result.append(_cosets(n, (0, d, number([2 * x % 3 for x in ds])), add))
        if len(result) == rounds:
            break
    return result


def _prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with q = p^k for a prime p, or None."""
    for p in range(2, q + 1):
        if q % p == 0:
            k = 0
            while q % p == 0:
                q //= p
                k += 1
            return (p, k) if q == 1 else None
    return None


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), q = p^k with k ≤ 3, else None.

    Elements are the numbers 0..q−1 read as polynomials in base p; products are
    taken modulo a monic irreducible polynomial of degree k (for k ≤ 3 one
    without a root in GF(p)).
    """
    pk = _prime_power(q)
    if pk is None or pk[1] > 3:
        return None
    p, k = pk

    def coeffs(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    def number(cs: Sequence[int]) -> int:
        return sum(c * p**i for i, c in enumerate(cs))

    modulus = [0] * k  # x^k = -(modulus[0] + modulus[1] x + ...)
    for low in range(p**k):
        cs = coeffs(low)
        if k == 1 or all((sum(c * r**i for i, c in enumerate(cs)) + r**k) % p for r in range(p)):
            modulus = cs
            break

    def mul(x: int, y: int) -> int:
        prod = [0] * (2 * k - 1)
        for i, a in enumerate(coeffs(x)):
            for j, b in enumerate(coeffs(y)):
                prod[i + j] = (prod[i + j] + a * b) % p
        for top in range(2 * k - 2, k - 1, -1):  # reduce x^top with x^k = -modulus
            c = prod[top]
            if c:
                prod[top] = 0
                for i, m in enumerate(modulus):
                    prod[top - k + i] = (prod[top - k + i] - c * m) % p
        return number(prod[:k])

    add = [
        [number([(a + b) % p for a, b in zip(coeffs(x), coeffs(y), strict=True)]) for y in range(q)]
        for x in range(q)
    ]
    return add, [[mul(x, y) for y in range(q)] for x in range(q)]


def _transversal(n: int, size: int, rounds: int) -> list[Tables]:
    """Rounds without repeats for n = size·q players, q a prime power ≥ size.

    A resolvable transversal design: player (i, y) for i < size, y in GF(q).
    For each slope a, the tables {(i, a·i + b) : i < size}, one per b, seat
    everyone once; two players of different i meet on exactly one line, and
    those with the same i never. That is q rounds (q + 1 when q = size: the
    groups themselves are then a round): 28 players get 7, 44 get 11.
    """
    if n % size or n // size < size:
        return []
    q = n // size
    field = _field(q)
    if field is None:
        return []
    add, mul = field
    result: list[Tables] = []
    for a in range(q):
        result.append([[i * q + add[mul[a][i]][b] for i in range(size)] for b in range(q)])
    if q == size:
        result.append([[i * q + y for y in range(q)] for i in range(size)])
    return result[:rounds]


def _round_robin(n: int, rounds: int) -> list[Tables]:
    """The circle method: n − 1 rounds of pairs, everyone meets everyone once (n even)."""
    if n % 2:
        return []
    result: list[Tables] = []
    ring = list(range(1, n))
    for _r in range(min(rounds, n - 1)):
        line = [0, *ring]
        result.append([[line[i], line[n - 1 - i]] for i in range(n // 2)])
        ring = ring[-1:] + ring[:-1]
    return result


def _design(n: int, sizes: Sequence[int], rounds: int) -> list[Tables]:
    """The longest repeat-free schedule a known design gives for n players, or [].

    Only when every table has the same size. The rounds are over the points
    0..n−1 of the design and do not depend on any seed (the search for a
    partial spread uses a fixed one), so the rounds of an event already played
    can be recognised again (see :func:`_design_labels`).
    """
    if not sizes or len(set(sizes)) != 1:
        return []
    size = sizes[0]
    candidates = [_transversal(n, size, rounds)]
    if size == 4:
        candidates.append(_affine_flats(n, rounds, random.Random("rackscore:design")))
    elif size == 3:
        candidates.append(_affine_lines3(n, rounds))
    elif size == 2:
        candidates.append(_round_robin(n, rounds))
    return max(candidates, key=len)


def _design_labels(design_round: Tables, played_round: Sequence[Sequence[int]]) -> list[int] | None:
    """Put players on the design's points so that its first round is ``played_round``.

    Any first round with the design's table sizes will do: the design is then
    relabelled around it. The labelling depends only on the tables (as sets),
    so every later round recomputes the same one from the first round and so
    continues the same plan, whatever the seed of that call.
    """
    ours = sorted((sorted(t) for t in design_round), key=lambda t: (len(t), t))
    theirs = sorted((sorted(t) for t in played_round), key=lambda t: (len(t), t))
    if [len(t) for t in ours] != [len(t) for t in theirs]:
        return None
    labels = [-1] * sum(len(t) for t in ours)
    for point_table, player_table in zip(ours, theirs, strict=True):
        for point, player in zip(point_table, player_table, strict=True):
            labels[point] = player
    return labels


def _relabel(rounds: Sequence[Tables], labels: Sequence[int]) -> list[Tables]:
    return [[[labels[x] for x in table] for table in tables] for tables in rounds]


# --------------------------------------------------------------------------
# balanced: tabu search
# --------------------------------------------------------------------------


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


# --------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------


def round_seat(
    *,
    players: Sequence[int],
    method: str,
    history: History = (),
    standings: Mapping[int, float] | None = None,
    max_size: int = 4,
    seed: int = 0,
    rounds_total: int | None = None,
    bye_history: Collection[int] = (),
    time_limit: float = 5.0,
) -> RoundPlan:
    """Seat the next round of ``players`` (active ids) with ``method``.

    ``history`` are the earlier rounds (tables in seat order): they count for
    repeats and for who starts. ``standings`` (higher is better) steer
    ``swiss`` and the choice of byes. ``rounds_total`` lets ``balanced`` plan
    the whole event and return the next round of that plan. ``bye_history``
    lists who had a bye (once per bye). ``manual`` gives the ``random`` plan
    for the organiser to edit. The order of ``players`` does not matter.
    """
    if method not in METHODS:
        raise ValueError(f"unknown seating method {method!r}; expected one of {METHODS}")
    ids = sorted(set(players))
    if len(ids) != len(players):
        raise ValueError("players must be distinct")
    table_sizes(players=len(ids), max_size=max_size)  # validates max_size
    if method == "swiss":
        return _seat_swiss(ids, history, standings or {}, max_size, seed, bye_history)
    if method == "balanced":
        return _seat_balanced(ids, history, max_size, seed, rounds_total, bye_history, time_limit)
    return _seat_random(ids, history, max_size, seed, bye_history)
