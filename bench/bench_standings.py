"""Standings for a 1,000-player tournament: 10 rounds × 4 games, on SQLite.

Builds the tournament in a temporary SQLite database (bulk inserts: 1,000
players, 2,500 matches, 10,000 games, 40,000 racks), seats one swiss round
through the service to time it, adds a semi-final and a final, then times the
standings selectors and prints a table. The bar: standings under 200 ms with a
fixed number of queries. Exits 1 when a standings case misses it.

Run it with ``make bench`` (or ``python bench/bench_standings.py`` from the
project root).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, cast

from scratch import django_on_scratch_sqlite

WORKDIR = django_on_scratch_sqlite()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring import rules  # noqa: E402
from tournaments.demo import racks_scored  # noqa: E402
from tournaments.models import (  # noqa: E402
    Club,
    Entry,
    Game,
    Match,
    Player,
    Rack,
    Round,
    Seat,
    Tournament,
)
from tournaments.selectors.standings import final_places_for, standings_for  # noqa: E402
from tournaments.services import rounds, stages  # noqa: E402

PLAYERS = 1000
ROUNDS = 10
GAMES = 4
LIMIT_MS = 200.0
REPEATS = 9


def play(round_: Round, rng: random.Random, t: Tournament) -> None:
    """Bulk-record every game of a round, dealt as the tests deal them and scored
    by the rules engine (the game services would take minutes for 40,000 racks)."""
    the_rules = t.rules()
    tables: dict[int, list[int]] = {}
    for match_id, player_id in (
        Seat.objects.filter(round=round_)
        .order_by("match_id", "position")
        .values_list("match_id", "player_id")
    ):
        tables.setdefault(match_id, []).append(player_id)
    games = Game.objects.bulk_create(
        Game(match_id=m, number=g, ending="rummikub")
        for m in tables
        for g in range(1, round_.games_per_match + 1)
    )
    racks: list[Rack] = []
    for game in games:
        ending, dealt = racks_scored(rng, tables[game.match_id])
        out = rules.game_score(ending=ending, racks=dealt, rules=the_rules).racks
        points = rules.table_points_for(
            scores=[r.score for r in out], vector=the_rules.table_points[len(out)]
        )
        racks.extend(
            Rack(
                game=game,
                player_id=cast(int, r.player),
                position=pos,
                points=r.points,
                rack_value=r.rack_value,
                score=r.score,
                winner=r.winner,
                table_points=tp,
            )
            for pos, (r, tp) in enumerate(zip(out, points, strict=True), 1)
        )
    Rack.objects.bulk_create(racks, batch_size=5000)


def seat_random(t: Tournament, number: int, ids: list[int], rng: random.Random) -> Round:
    round_ = Round.objects.create(tournament=t, number=number, games_per_match=GAMES)
    order = ids[:]
    rng.shuffle(order)
    matches = Match.objects.bulk_create(
        Match(round=round_, table=i + 1) for i in range(len(order) // 4)
    )
    Seat.objects.bulk_create(
        Seat(match=matches[i // 4], round=round_, player_id=pid, position=i % 4 + 1)
        for i, pid in enumerate(order)
    )
    return round_


def build() -> tuple[Tournament, dict[str, float]]:
    timings: dict[str, float] = {}
    rng = random.Random(1000)
    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    timings["migrate"] = time.perf_counter() - start
    start = time.perf_counter()
    with transaction.atomic():
        owner = get_user_model().objects.create(username="bench")
        clubs = Club.objects.bulk_create(
            Club(name=f"Club {i}", slug=f"club-{i}") for i in range(40)
        )
        players = Player.objects.bulk_create(
            Player(name=f"Player {i:04d}", club=clubs[i % 40]) for i in range(PLAYERS)
        )
        t = Tournament.objects.create(
            name="Bench Open",
            slug="bench-open",
            owner=owner,
            rounds=ROUNDS,
            games_per_round=GAMES,
            seating=Tournament.Seating.SWISS,
            semifinal_players=8,
        )
        Entry.objects.bulk_create(Entry(tournament=t, player=p) for p in players)
        ids = [p.pk for p in players]
        for number in range(1, ROUNDS):
            play(seat_random(t, number, ids, rng), rng, t)
    timings["build 9 rounds (bulk)"] = time.perf_counter() - start
    start = time.perf_counter()
    last = rounds.round_seat_next(tournament=t)
    timings["seat round 10 (swiss, service)"] = time.perf_counter() - start
    play(last, rng, t)
    return t, timings


def measure(fn: Callable[[], Any]) -> tuple[int, float, float, float]:
    fn()  # warm the caches, as a running server has them warm
    times = []
    for _ in range(REPEATS):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
    return len(queries.captured_queries), min(times), statistics.median(times), max(times)


def main() -> int:
    t, timings = build()
    racks = Rack.objects.filter(game__match__round__tournament=t).count()
    print(
        f"{PLAYERS} players × {ROUNDS} rounds × {GAMES} games: {racks} racks; "
        f"SQLite; {REPEATS} timed runs after one warm-up"
    )

    def with_settings(**changes: Any) -> Callable[[], Any]:
        def run() -> Any:
            for key, value in changes.items():
                setattr(t, key, value)
            return standings_for(tournament=t)

        return run

    default_tb = ["wins", "table_points", "rack_total"]
    cases: list[tuple[str, Callable[[], Any], bool]] = [
        ("standings: score; wins, table points, racks", with_settings(tie_breaks=default_tb), True),
        (
            "standings: + head-to-head, opponents' avg",
            with_settings(tie_breaks=["wins", "head_to_head", "opponents_average"]),
            True,
        ),
        (
            "standings: table points ranking",
            with_settings(ranking="table_points", tie_breaks=["score", "wins"]),
            True,
        ),
        (
            "standings: league average, min 20 games",
            with_settings(ranking="average", min_games=20, tie_breaks=default_tb),
            True,
        ),
        (
            "standings: qualifying stage only",
            lambda: standings_for(tournament=t, stage="qualifying"),
            True,
        ),
    ]
    rows: list[tuple[str, int, float, float, float, str]] = []
    failed = False
    for name, fn, bar in cases:
        queries, best, median, worst = measure(fn)
        ok = median < LIMIT_MS
        failed |= bar and not ok
        rows.append((name, queries, best, median, worst, "ok" if ok else "SLOW"))
    # Stages: semi-finals and a final, then the final places.
    for key, value in {"ranking": "score", "tie_breaks": default_tb, "min_games": 0}.items():
        setattr(t, key, value)
    t.save()
    start = time.perf_counter()
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    timings["seat semi-finals (service)"] = time.perf_counter() - start
    play(semi, random.Random(1), t)
    play(stages.stage_seat(tournament=t, stage="final"), random.Random(2), t)
    queries, best, median, worst = measure(lambda: final_places_for(tournament=t))
    verdict = "ok" if median < LIMIT_MS else "SLOW"
    rows.append(("final places (3 stages)", queries, best, median, worst, verdict))

    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  queries  min ms  median ms  max ms  median < {LIMIT_MS:.0f} ms")
    print(f"{'-' * width}  -------  ------  ---------  ------  ---------------")
    for name, queries, best, median, worst, verdict in rows:
        print(
            f"{name:<{width}}  {queries:>7}  {best:>6.1f}  {median:>9.1f}  {worst:>6.1f}  "
            f"{verdict:>15}"
        )
    print()
    for name, seconds in timings.items():
        print(f"{name:<{width}}  {seconds * 1000:>9.0f} ms")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
