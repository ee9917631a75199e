"""What trusting results costs a result entry: ``POST /api/v1/matches/{id}/games/``
without an ``Idempotency-Key`` (the anchor), with a fresh key, a retry that
replays its key, and an entry naming its game ``number``; on SQLite.

Each case records 100 games of 4 players (25 tables × 4 games), through the
API as an organiser's client sends them, and reports the median and the
95th percentile per request and the queries one request runs.

Run it with ``make bench`` (or ``python bench/bench_trust.py`` from the
project root).
"""

from __future__ import annotations

import statistics
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

from scratch import django_on_scratch_sqlite

WORKDIR = django_on_scratch_sqlite()

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from tests.factories import match_seated, seated_ids  # noqa: E402
from tournaments.models import Match, Tournament  # noqa: E402

TABLES, GAMES = 25, 4


def body(match: Match, number: int | None = None) -> dict[str, Any]:
    ids = seated_ids(match)
    racks = [{"player": ids[0], "tiles": ""}] + [{"player": p, "points": 9} for p in ids[1:]]
    return {"ending": "rummikub", "racks": racks, **({"number": number} if number else {})}


def run(
    client: APIClient, matches: list[Match], send: Callable[[Match, int], Any]
) -> tuple[list[float], int]:
    times: list[float] = []
    queries = 0
    for match in matches:
        for number in range(1, GAMES + 1):
            reset_queries()  # the log keeps 9,000 at most
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                response = send(match, number)
                times.append((time.perf_counter() - start) * 1000)
            assert response.status_code in (200, 201), response.content
            queries = len(captured.captured_queries)
    return times, queries


def main() -> int:
    call_command("migrate", verbosity=0)
    tournament: Tournament | None = None
    tables: dict[str, list[Match]] = {}
    for case in ("anchor", "key", "replay", "number"):
        tables[case] = []
        for _ in range(TABLES):
            match = match_seated(players=4, tournament=tournament, games_per_round=GAMES)
            match.round.games_per_match = GAMES
            match.round.save()
            tournament = match.round.tournament
            tables[case].append(match)
    assert tournament is not None
    client = APIClient()
    client.force_authenticate(user=tournament.owner)

    def post(match: Match, data: dict[str, Any], **headers: Any) -> Any:
        return client.post(f"/api/v1/matches/{match.pk}/games/", data, format="json", **headers)

    keys: dict[tuple[int, int], str] = {}

    def keyed(match: Match, number: int) -> Any:
        keys[(match.pk, number)] = key = str(uuid.uuid4())
        return post(match, body(match), HTTP_IDEMPOTENCY_KEY=key)

    results = {
        "no key (anchor)": run(client, tables["anchor"], lambda m, n: post(m, body(m))),
        "a fresh Idempotency-Key": run(client, tables["key"], keyed),
        "number named": run(client, tables["number"], lambda m, n: post(m, body(m, n))),
    }
    # The retries of the keyed case: the same body, the same keys, nothing written.
    results["a retry replaying its key"] = run(
        client,
        tables["key"],
        lambda m, n: post(m, body(m), HTTP_IDEMPOTENCY_KEY=keys[(m.pk, n)]),
    )
    print(f"{TABLES * GAMES} games of 4 per case; SQLite; milliseconds per request")
    print(f"{'case':28}{'median':>8}{'p95':>8}{'queries':>9}")
    for name, (times, queries) in results.items():
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"{name:28}{statistics.median(times):>8.1f}{p95:>8.1f}{queries:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
