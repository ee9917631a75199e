"""Known designs that seat a field for many rounds without a repeat.

Vocabulary (the package docstring has the rest):

* **points**: a design seats the numbers 0..n−1; **labels** put players on
  them (``labels[point]`` is a player or a player index).
* **design**: a list of rounds over the points, each a list of tables, where
  no pair meets twice: affine geometry over GF(2) (2^k players, tables of 4)
  and GF(3) (3^k, tables of 3), resolvable transversal designs (size·q
  players, q a prime power), and the round robin (pairs).
* **spread** of PG(k−1, 2): lines (2-dim subspaces) that share no point; each
  gives one round of the affine geometry (not the swiss table spread).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tournaments.seating.sizes import Tables

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
