"""Web pages of a 1,000-player tournament (10 rounds × 4 games) on SQLite:
time, queries and size of each public page, as a visitor's browser gets it.

Builds the same tournament as bench_standings (in its own temporary SQLite
database), then fetches each page through Django's test client: one warm-up,
then the median of five.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_standings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

REPEATS = 5


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
        ("API standings (1,000 rows)", f"/api/v1/tournaments/{tournament.pk}/standings/"),
    ]
    print(f"{'page':36} {'status':>6} {'queries':>7} {'median ms':>9} {'kB':>6}")
    for name, url in pages:
        client.get(url)
        times = []
        for _ in range(REPEATS):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
        print(
            f"{name:36} {response.status_code:>6} {len(queries.captured_queries):>7} "
            f"{statistics.median(times):>9.0f} {len(response.content) // 1024:>6}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
