"""A player's statistics over 5,000 games, on SQLite.

Builds, in a temporary SQLite database (bulk inserts), one player's 5,000
games: 50 tournaments (every fifth private, half of them evenings of two
seasons) of 25 rounds × 4 games, at tables of 2, 3 and 4 with opponents drawn
from 300 players; then times the statistics selector
(``selectors.player_stats.player_stats_seen``) for a visitor and for the
private tournaments' organiser, and the player's whole page, and prints a
table, measured as a gunicorn worker runs (the loaded objects frozen, as
``config/gunicorn.py`` forks its workers). The bar: the statistics under 100
ms with a fixed number of queries.
Exits 1 when a statistics case misses it.

Run it with ``make bench`` (or ``python bench/bench_stats.py`` from the
project root).
"""

from __future__ import annotations

import datetime as dt
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from scratch import django_on_scratch_sqlite

WORKDIR = django_on_scratch_sqlite()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402

from tournaments.models import (  # noqa: E402
    Club,
    Entry,
    Game,
    Match,
    Player,
    Rack,
    Round,
    Season,
    Seat,
    Tournament,
)
from tournaments.selectors.player_stats import player_stats_seen  # noqa: E402

TOURNAMENTS = 50
ROUNDS = 25
GAMES = 4
OPPONENTS = 300
LIMIT_MS = 100.0
REPEATS = 9


def _racks(rng: random.Random, game: Game, seated: list[int]) -> list[Rack]:
    """A zero-sum game: the winner takes what the others left on their racks."""
    winner = rng.randrange(len(seated))
    left = [0 if i == winner else rng.randint(1, 60) for i in range(len(seated))]
    return [
        Rack(
            game=game,
            player_id=pid,
            position=i + 1,
            points=left[i],
            jokers=0 if i == winner else rng.choice((0, 0, 0, 1)),
            rack_value=left[i],
            score=Decimal(sum(left) if i == winner else -left[i]),
            winner=i == winner,
        )
        for i, pid in enumerate(seated)
    ]


def build() -> tuple[Player, Any, dict[str, float]]:
    timings: dict[str, float] = {}
    rng = random.Random(5000)
    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    timings["migrate"] = time.perf_counter() - start
    start = time.perf_counter()
    with transaction.atomic():
        owner = get_user_model().objects.create(username="bench")
        club = Club.objects.create(name="Bench club", slug="bench-club")
        seasons = [
            Season.objects.create(
                club=club, name=name, starts=dt.date(2026, 1, 1), ends=dt.date(2026, 12, 31)
            )
            for name in ("Spring", "Autumn")
        ]
        me = Player.objects.create(name="The player", club=club)
        others = Player.objects.bulk_create(
            Player(name=f"Opponent {i:03d}") for i in range(OPPONENTS)
        )
        other_ids = [p.pk for p in others]
        for number in range(TOURNAMENTS):
            t = Tournament.objects.create(
                name=f"Evening {number + 1}",
                slug=f"evening-{number + 1}",
                owner=owner,
                date=dt.date(2026, 1, 1) + dt.timedelta(days=7 * number),
                public=number % 5 != 4,
                season=seasons[number % 2] if number % 4 < 2 else None,
                rounds=ROUNDS,
                games_per_round=GAMES,
            )
            Entry.objects.create(tournament=t, player=me)
            for round_number in range(1, ROUNDS + 1):
                round_ = Round.objects.create(
                    tournament=t, number=round_number, games_per_match=GAMES
                )
                match = Match.objects.create(round=round_, table=1 + round_number % 7)
                seated = [me.pk, *rng.sample(other_ids, rng.choice((1, 2, 3, 3)))]
                rng.shuffle(seated)
                Seat.objects.bulk_create(
                    Seat(match=match, round=round_, player_id=pid, position=i + 1)
                    for i, pid in enumerate(seated)
                )
                games = Game.objects.bulk_create(
                    Game(match=match, number=g, ending="rummikub") for g in range(1, GAMES + 1)
                )
                Rack.objects.bulk_create(
                    [rack for game in games for rack in _racks(rng, game, seated)]
                )
            met = set(
                Seat.objects.filter(round__tournament=t)
                .exclude(player_id=me.pk)
                .values_list("player_id", flat=True)
            )
            Entry.objects.bulk_create(Entry(tournament=t, player_id=pid) for pid in met)
    timings[f"build {TOURNAMENTS * ROUNDS * GAMES} games (bulk)"] = time.perf_counter() - start
    return me, owner, timings


def measure(fn: Callable[[], Any]) -> tuple[int, float, float, float, float]:
    """Queries, then milliseconds: the least, median and most time taken, and
    the median of this process's CPU time (what a busy machine's other work
    does not add to)."""
    fn()  # warm the caches, as a running server has them warm
    times, cpu = [], []
    for _ in range(REPEATS):
        with CaptureQueriesContext(connection) as queries:
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    return (
        len(queries.captured_queries),
        min(times),
        statistics.median(times),
        max(times),
        statistics.median(cpu),
    )


def main() -> int:
    me, owner, timings = build()
    # Measured as a gunicorn worker runs: what was loaded before its requests
    # (Django, the project; here the build too) out of the cyclic collector's
    # reach, as config/gunicorn.py's pre_fork leaves it.
    gc.freeze()
    racks = Rack.objects.filter(game__racks__player=me).count()
    seen = player_stats_seen(player=me, user=None).stats.overall.games
    mine = player_stats_seen(player=me, user=owner).stats.overall.games
    print(
        f"one player: {mine} games ({seen} in public tournaments), {racks} racks at their "
        f"tables; SQLite; {REPEATS} timed runs after one warm-up"
    )
    # The page's static addresses as plain paths: a scratch run has no manifest.
    plain = override_settings(
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    )
    plain.enable()
    page = Client()
    organiser = Client()
    organiser.force_login(owner)
    cases: list[tuple[str, Callable[[], Any], bool]] = [
        ("statistics: a visitor", lambda: player_stats_seen(player=me, user=None), True),
        ("statistics: the organiser", lambda: player_stats_seen(player=me, user=owner), True),
        ("the player's page: a visitor", lambda: page.get(f"/p/{me.pk}/"), False),
        ("the player's page: the organiser", lambda: organiser.get(f"/p/{me.pk}/"), False),
    ]
    rows: list[tuple[str, int, float, float, float, float, str]] = []
    failed = False
    for name, fn, bar in cases:
        queries, best, median, worst, cpu = measure(fn)
        ok = median < LIMIT_MS
        failed |= bar and not ok
        verdict = ("ok" if ok else "SLOW") if bar else "(no bar)"
        rows.append((name, queries, best, median, worst, cpu, verdict))
    width = max(len(r[0]) for r in rows)
    print(
        f"{'case':<{width}}  queries  min ms  median ms  max ms  CPU ms  median < {LIMIT_MS:.0f} ms"
    )
    print(f"{'-' * width}  -------  ------  ---------  ------  ------  ---------------")
    for name, queries, best, median, worst, cpu, verdict in rows:
        print(
            f"{name:<{width}}  {queries:>7}  {best:>6.1f}  {median:>9.1f}  {worst:>6.1f}  "
            f"{cpu:>6.1f}  {verdict:>15}"
        )
    print()
    for name, seconds in timings.items():
        print(f"{name:<{width}}  {seconds * 1000:>9.0f} ms")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
