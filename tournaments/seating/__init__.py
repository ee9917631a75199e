"""Seating: who sits at which table, and in which seat, round by round.

Plain Python (no Django): the services hand in plain data and store the plan.

Vocabulary:

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

Modules: ``sizes`` (table sizes, lower bounds, meeting counts, quality),
``order`` (seat order within a table, byes, seeded streams), ``swiss``
(``random`` and ``swiss``), ``designs`` and ``balanced`` (``balanced``),
``manual`` (:func:`plan_check`), ``ratings`` (the first round seated by
rating). This module holds the entry point,
:func:`round_seat`, and the names the rest of the code imports.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from tournaments.seating.balanced import _seat_balanced, schedule_balanced
from tournaments.seating.manual import plan_check
from tournaments.seating.order import start_order
from tournaments.seating.ratings import rating_of, spread_first_round
from tournaments.seating.sizes import (
    REPEAT_COST,
    History,
    Quality,
    RoundPlan,
    pair_counts,
    repeat_lower_bound,
    schedule_quality,
    table_sizes,
)
from tournaments.seating.swiss import _seat_random, _seat_swiss

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
    ratings: Mapping[int, float] | None = None,
) -> RoundPlan:
    """Seat the next round of ``players`` (active ids) with ``method``.

    ``history`` are the earlier rounds (tables in seat order): they count for
    repeats and for who starts. ``standings`` (higher is better) steer
    ``swiss`` and the choice of byes. ``rounds_total`` lets ``balanced`` plan
    the whole event and return the next round of that plan. ``bye_history``
    lists who had a bye (once per bye). ``manual`` gives the ``random`` plan
    for the organiser to edit. The order of ``players`` does not matter.
    ``ratings`` (given when the tournament seeds by rating) seat the first
    round: ``swiss`` by them as by standings, ``balanced`` spreading them over
    the tables (``seating.ratings``); later rounds ignore them.
    """
    if method not in METHODS:
        raise ValueError(f"unknown seating method {method!r}; expected one of {METHODS}")
    ids = sorted(set(players))
    if len(ids) != len(players):
        raise ValueError("players must be distinct")
    table_sizes(players=len(ids), max_size=max_size)  # validates max_size
    first_by_rating = ratings is not None and not history
    if method == "swiss":
        if first_by_rating:
            standings = {p: rating_of(ratings or {}, p) for p in ids}
        return _seat_swiss(ids, history, standings or {}, max_size, seed, bye_history)
    if method == "balanced":
        plan = _seat_balanced(ids, history, max_size, seed, rounds_total, bye_history, time_limit)
        return spread_first_round(plan, ratings or {}, seed) if first_by_rating else plan
    return _seat_random(ids, history, max_size, seed, bye_history)
