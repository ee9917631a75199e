"""Web pages of a 1,000-player tournament (10 rounds × 4 games) on SQLite:
time, queries and size of each public page, as a visitor's browser gets it.

Builds the same tournament as bench_standings (in its own temporary SQLite
database), then fetches each page through Django's test client: one warm-up,
then the median of REPEATS. Public pages are cached by tournament version:
*cold* is a request right after a write (the cache emptied before each try),
*warm* the next visitor's; the target (200 ms) is for warm, beside cold as
the anchor. Exits 1 when a warm page misses it.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_standings
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

REPEATS = 3
LIMIT_MS = 200.0


def main() -> int:
    tournament, _timings = bench_standings.build()
    client = Client()
    slug = tournament.slug
    pages = [
        ("home", "/"),
        ("tournament (latest round, top 10)", f"/t/{slug}/"),
        ("one round (250 tables)", f"/t/{slug}/rounds/5/"),
        ("standings, page 1 of 10", f"/t/{slug}/standings/"),
        ("standings CSV export (1,000 rows)", f"/t/{slug}/standings/?_export=csv"),
        ("standings XLSX export", f"/t/{slug}/standings/?_export=xlsx"),
        ("API standings (1,000 rows)", f"/api/v1/tournaments/{tournament.pk}/standings/"),
        ("API tournaments list", "/api/v1/tournaments/"),
        ("API players list (page 1)", "/api/v1/players/"),
    ]
    print(
        f"{'page':36} {'status':>6} {'cold ms':>8} {'warm ms':>8} {'queries':>7} "
        f"{'target':>6} {'kB':>5}  verdict"
    )
    failed = 0
    for name, url in pages:
        cold = []
        for _ in range(REPEATS):
            caches["default"].clear()
            start = time.perf_counter()
            client.get(url)
            cold.append((time.perf_counter() - start) * 1000)
        warm = []
        for _ in range(REPEATS):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url)
                warm.append((time.perf_counter() - start) * 1000)
        ok = statistics.median(warm) < LIMIT_MS and response.status_code == 200
        failed |= not ok
        print(
            f"{name:36} {response.status_code:>6} {statistics.median(cold):>8.0f} "
            f"{statistics.median(warm):>8.0f} {len(queries.captured_queries):>7} "
            f"{LIMIT_MS:>6.0f} {len(response.content) // 1024:>5}  {'ok' if ok else 'MISSED'}"
        )
    return failed


if __name__ == "__main__":
    sys.exit(main())
