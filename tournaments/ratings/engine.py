"""The rating of one game: Plackett–Luce as ``openskill`` 6.2.0 computes it.

Vocabulary: a player's rating is a normal belief about their skill, mean
``mu`` (μ) and standard deviation ``sigma`` (σ); every player starts at μ 25,
σ 25/3. A *game* here is its seated players, each a team of one, and their
zero-sum scores: higher is better, equal scores share a rank. The parameters
are openskill's defaults (β 25/6, τ 25/300, κ 0.0001, no sigma limit, no
margin, no balance); with them openskill 6.2.0 leaves a tie's own updates as
they are (its averaging over a tied group compares each player with itself),
and so does this. The *shown* rating is ``round(1500 + 24 × (μ − 3σ))`` (the
scale of openskill's ``ordinal``), *provisional* below ``PROVISIONAL_GAMES``
rated games.

Written out for the one case Rackscore has (teams of one, scores, default
parameters), so that a full recomputation costs a fraction of openskill's
general ``rate`` (which copies its arguments, sorts and unwinds per game);
the tests hold it equal to openskill to 1e-9.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
PROVISIONAL_GAMES = 20

_BETA_SQUARED = BETA**2
_TAU_SQUARED = TAU * TAU


def shown(mu: float, sigma: float) -> int:
    """The shown rating: 1500 for a new player."""
    return round(1500 + 24 * (mu - 3 * sigma))


def rate(
    mus: Sequence[float], sigmas: Sequence[float], scores: Sequence[float]
) -> tuple[list[float], list[float]]:
    """The players' (μ, σ) after one game, in the order given.

    openskill's sums run over every player ranked at or above a player; the
    players of one rank share their terms, so here they run over the ranks
    (best first) with the same result, up to rounding."""
    n = len(mus)
    # τ widens every belief a little before the game (openskill's order of operations).
    sig = [math.sqrt(s * s + _TAU_SQUARED) for s in sigmas]
    sig2 = [s * s for s in sig]
    c = math.sqrt(sum(sig2) + n * _BETA_SQUARED)
    e = [math.exp(mu / c) for mu in mus]
    # The ranks, best first: each the players with one score.
    groups: list[list[int]] = []
    last: float | None = None
    for i in sorted(range(n), key=scores.__getitem__, reverse=True):
        if scores[i] == last:
            groups[-1].append(i)
        else:
            groups.append([i])
            last = scores[i]
    # Each rank's sum over the players ranked at it or below (openskill's sum_q).
    below = 0.0
    sums = [0.0] * len(groups)
    for g in range(len(groups) - 1, -1, -1):
        for i in groups[g]:
            below += e[i]
        sums[g] = below
    new_mus = list(mus)
    new_sigmas = list(sig)
    c3 = c * c * c
    p1 = 0.0
    p2 = 0.0
    for g, members in enumerate(groups):
        inverse = 1.0 / sums[g]
        p1 += inverse
        p2 += inverse * inverse
        tied = len(members)
        for i in members:
            ei = e[i]
            omega = 1.0 / tied - ei * p1
            delta = ei * p1 - ei * ei * p2
            s2 = sig2[i]
            new_mus[i] = mus[i] + omega * s2 / c
            new_sigmas[i] = sig[i] * math.sqrt(max(1 - delta * s2 * sig[i] / c3, KAPPA))
    return new_mus, new_sigmas
