"""Seating quality and speed: repeats next to the lower bound, and seconds.

Balanced schedules for the social-golfer instances of the spec (16×5, 20×4 and
32×9 must have no repeat; 32×10 is the known optimum and a bonus), the same
seated round by round as the service does, a few fields no design fits, and
1,000-player rounds for every method (swiss for 5 rounds with simulated
scores; each round must take under 1 s). Prints a plain-text table; exits 1
when a target is missed.

Run it with ``make bench`` or ``python bench/bench_seating.py`` from the
project root.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.tournaments.seating.support import play
from tournaments.seating import (
    RoundPlan,
    repeat_lower_bound,
    round_seat,
    schedule_balanced,
    schedule_quality,
)

Round = Sequence[Sequence[int]]
ROUND_SECONDS = 1.0  # one round of 1,000 players, any method


@dataclass
class Row:
    instance: str
    method: str
    players: int
    rounds: int
    repeats: int
    bound: int
    seconds: float
    note: str = ""
    ok: bool = True


def balanced(players: int, rounds: int, *, must_be_perfect: bool, note: str = "") -> Row:
    started = time.perf_counter()
    plans = schedule_balanced(players=list(range(1, players + 1)), rounds=rounds, seed=0)
    seconds = time.perf_counter() - started
    quality = schedule_quality(rounds=[p.tables for p in plans])
    ok = quality.repeats == 0 or not must_be_perfect
    return Row(
        f"{players}x{rounds}",
        "balanced",
        players,
        rounds,
        quality.repeats,
        quality.lower_bound,
        seconds,
        note or f"max meetings {quality.max_meetings}",
        ok,
    )


def balanced_by_round(players: int, rounds: int) -> Row:
    ids = list(range(1, players + 1))
    history: list[Round] = []
    started = time.perf_counter()
    for number in range(1, rounds + 1):
        plan = round_seat(
            players=ids, method="balanced", history=history, seed=number, rounds_total=rounds
        )
        history.append(plan.tables)
    seconds = time.perf_counter() - started
    quality = schedule_quality(rounds=history)
    return Row(
        f"{players}x{rounds} by round",
        "balanced",
        players,
        rounds,
        quality.repeats,
        quality.lower_bound,
        seconds,
        "round_seat per round, seed varies",
        quality.repeats == 0,
    )


def spreads(tables: Sequence[Sequence[int]], standings: dict[int, float]) -> tuple[float, int]:
    """Mean and largest table spread in standings places; tied players share their places.

    A player tied with others may be placed anywhere among them, so a table's
    spread is the distance from its best player's last possible place to its
    worst player's first possible place (4 consecutive players: at most 3).
    """
    scores = sorted(standings.values(), reverse=True)
    first: dict[float, int] = {}
    last: dict[float, int] = {}
    for i, score in enumerate(scores):
        first.setdefault(score, i)
        last[score] = i
    values = [
        max(0, max(first[standings[p]] for p in t) - min(last[standings[p]] for p in t))
        for t in tables
    ]
    return sum(values) / len(values), max(values)


def thousand(method: str, rounds: int) -> Row:
    """Seat ``rounds`` rounds of 1,000 players; the slowest round is what counts."""
    ids = list(range(1, 1001))
    standings = dict.fromkeys(ids, 0.0)
    rnd = random.Random(5)
    history: list[Round] = []
    slowest = 0.0
    worst_mean, worst_max = 0.0, 0
    for _ in range(rounds):
        started = time.perf_counter()
        plan: RoundPlan = round_seat(
            players=ids, method=method, history=history, standings=standings, seed=1
        )
        slowest = max(slowest, time.perf_counter() - started)
        if history:
            mean, largest = spreads(plan.tables, standings)
            worst_mean, worst_max = max(worst_mean, mean), max(worst_max, largest)
        history.append(plan.tables)
        play(plan.tables, standings, rnd)
    quality = schedule_quality(rounds=history)
    note = "slowest round"
    if method == "swiss":
        note += f"; table spread: mean {worst_mean:.1f}, max {worst_max} places"
    ok = slowest < ROUND_SECONDS and (quality.repeats == 0 or method in ("random", "manual"))
    return Row(
        "1000 players",
        method,
        1000,
        rounds,
        quality.repeats,
        repeat_lower_bound(players=1000, rounds=rounds),
        slowest,
        note,
        ok,
    )


def balanced_after(rounds_before: int) -> Row:
    """One balanced round of 1,000 players after swiss rounds (history to avoid)."""
    ids = list(range(1, 1001))
    standings = dict.fromkeys(ids, 0.0)
    rnd = random.Random(9)
    history: list[Round] = []
    for _ in range(rounds_before):
        plan = round_seat(players=ids, method="swiss", history=history, standings=standings)
        history.append(plan.tables)
        play(plan.tables, standings, rnd)
    started = time.perf_counter()
    plan = round_seat(players=ids, method="balanced", history=history, seed=1)
    seconds = time.perf_counter() - started
    quality = schedule_quality(rounds=[*history, plan.tables])
    return Row(
        "1000 players",
        "balanced",
        1000,
        rounds_before + 1,
        quality.repeats,
        repeat_lower_bound(players=1000, rounds=rounds_before + 1),
        seconds,
        f"round {rounds_before + 1} after {rounds_before} swiss rounds",
        quality.repeats == 0 and seconds < ROUND_SECONDS,
    )


def main() -> int:
    cases: list[Callable[[], Row]] = [
        lambda: balanced(16, 5, must_be_perfect=True),
        lambda: balanced(20, 4, must_be_perfect=True),
        lambda: balanced(32, 9, must_be_perfect=True),
        lambda: balanced(32, 10, must_be_perfect=False, note="known optimum 10; search"),
        lambda: balanced(28, 7, must_be_perfect=True, note="transversal design"),
        lambda: balanced(16, 6, must_be_perfect=False, note="past (N-1)/3: bound met"),
        lambda: balanced(24, 6, must_be_perfect=False, note="no design; search"),
        lambda: balanced(30, 8, must_be_perfect=False, note="tables of 4 and 3; search"),
        lambda: balanced(40, 10, must_be_perfect=False, note="no design; search"),
        lambda: balanced_by_round(32, 9),
        lambda: thousand("random", 1),
        lambda: thousand("swiss", 5),
        lambda: balanced_after(5),
    ]
    header = ("instance", "method", "players", "rounds", "repeats", "bound", "seconds", "ok")
    widths = (18, 9, 8, 7, 8, 6, 8, 3)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + "  note")
    failed = 0
    for case in cases:
        row = case()
        failed |= not row.ok
        cells = (
            row.instance,
            row.method,
            str(row.players),
            str(row.rounds),
            str(row.repeats),
            str(row.bound),
            f"{row.seconds:.3f}",
            "yes" if row.ok else "NO",
        )
        line = "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
        print(f"{line}  {row.note}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
