"""Web pages of a 1,000-player tournament (10 rounds × 4 games) on SQLite:
time, queries and size of each public page, as a visitor's browser gets it.

Builds the same tournament as bench_standings (in its own temporary SQLite
database), then fetches each page through Django's test client, the median
of REPEATS tries of each kind:

* *after a write*: a game of the page's round corrected through the service
  just before (a new tournament version, as on tournament day when a game is
  recorded every second); the target (200 ms) is for this and for warm;
* *warm*: the next visitor's request, nothing changed;
* *empty cache*: every cache emptied first, the whole page rendered: the
  anchor, what a page cost before anything was cached by parts.

Exits 1 when a page misses the target after a write or warm.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_standings
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments.models import Game, Tournament
from tournaments.racks_entered import game_racks_entered
from tournaments.services.games import game_correct

REPEATS = 3
LIMIT_MS = 200.0


def writer(tournament: Tournament, round_number: int) -> Callable[[], None]:
    """A write at one table of that round: its first game corrected to the same racks."""
    game = (
        Game.objects.filter(match__round__tournament=tournament, match__round__number=round_number)
        .order_by("match__table", "number")
        .first()
    )
    assert game is not None

    def write() -> None:
        fresh = Game.objects.get(pk=game.pk)
        game_correct(
            game=fresh, ending=fresh.ending, racks=game_racks_entered(racks=fresh.racks.all())
        )

    return write


def timed(client: Client, url: str) -> tuple[float, int, int, int]:
    """Milliseconds, queries, status and size of one request."""
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        response = client.get(url)
        ms = (time.perf_counter() - start) * 1000
    return ms, len(queries.captured_queries), response.status_code, len(response.content)


def main() -> int:
    tournament, _timings = bench_standings.build()
    client = Client()
    slug = tournament.slug
    latest = bench_standings.ROUNDS
    pages = [
        ("home", "/", 5),
        ("tournament (latest round, top 10)", f"/t/{slug}/", latest),
        ("one round (250 tables)", f"/t/{slug}/rounds/5/", 5),
        ("standings, page 1 of 10", f"/t/{slug}/standings/", 5),
        ("standings CSV export (1,000 rows)", f"/t/{slug}/standings/?_export=csv", 5),
        ("standings XLSX export", f"/t/{slug}/standings/?_export=xlsx", 5),
        ("API standings (1,000 rows)", f"/api/v1/tournaments/{tournament.pk}/standings/", 5),
        ("API tournaments list", "/api/v1/tournaments/", 5),
        ("API players list (page 1)", "/api/v1/players/", 5),
    ]
    print(
        f"{'page':36} {'status':>6} {'empty ms':>8} {'write ms':>8} {'warm ms':>8} "
        f"{'queries':>7} {'target':>6} {'kB':>5}  verdict"
    )
    failed = 0
    for name, url, round_number in pages:
        write = writer(tournament, round_number)
        empty = []
        for _ in range(REPEATS):
            caches["default"].clear()
            empty.append(timed(client, url)[0])
        after = []
        for _ in range(REPEATS):
            client.get(url)  # the page as it was, cached
            write()
            ms, queries, _status, _size = timed(client, url)
            after.append(ms)
        warm = [timed(client, url)[0] for _ in range(REPEATS)]
        _ms, _queries, status, size = timed(client, url)
        worst = max(statistics.median(after), statistics.median(warm))
        ok = worst < LIMIT_MS and status == 200
        failed |= not ok
        print(
            f"{name:36} {status:>6} {statistics.median(empty):>8.0f} "
            f"{statistics.median(after):>8.0f} {statistics.median(warm):>8.0f} {queries:>7} "
            f"{LIMIT_MS:>6.0f} {size // 1024:>5}  {'ok' if ok else 'MISSED'}"
        )
    return failed


if __name__ == "__main__":
    sys.exit(main())
