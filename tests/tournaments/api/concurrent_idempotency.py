"""Eight clients post the same game with the same ``Idempotency-Key`` at once.

``race`` runs the threads (each with its own database connection) against the
configured database; run as a script it first builds a fresh SQLite *file*
(WAL, IMMEDIATE), so that the threads really compete for the write lock as
web workers do:

    DATABASE_URL=sqlite:////tmp/x.sqlite3 python -m tests.tournaments.api.concurrent_idempotency

and prints one JSON line with what was answered and stored; the test reads it.
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django

THREADS = 8


def race(*, match_id: int, token: str, players: list[int]) -> dict[str, Any]:
    """Post one game ``THREADS`` times at once with one key; what came back and was stored."""
    from django.db import connection
    from rest_framework.test import APIClient

    from tournaments.models import Game, IdempotencyKey

    body = {
        "ending": "rummikub",
        "racks": [{"player": p, "points": 0 if i == 0 else 5} for i, p in enumerate(players)],
    }
    start = threading.Barrier(THREADS)

    def post(_: int) -> tuple[int, bool, int]:
        client = APIClient()
        client.credentials(HTTP_X_MATCH_TOKEN=token)
        try:
            start.wait()
            response = client.post(
                f"/api/v1/matches/{match_id}/games/",
                body,
                format="json",
                HTTP_IDEMPOTENCY_KEY="one-game-please",
            )
            return (
                response.status_code,
                response.has_header("Idempotent-Replayed"),
                response.json()["id"],
            )
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        answers = list(pool.map(post, range(THREADS)))
    return {
        "statuses": sorted({status for status, _replayed, _id in answers}),
        "replayed": sum(replayed for _status, replayed, _id in answers),
        "ids": sorted({game_id for _status, _replayed, game_id in answers}),
        "games": Game.objects.filter(match_id=match_id).count(),
        "keys": IdempotencyKey.objects.count(),
    }


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from tests.factories import match_seated, seated_ids

    call_command("migrate", verbosity=0)
    match = match_seated(players=4, games_per_round=6)
    players = seated_ids(match)
    connection.close()
    print(json.dumps(race(match_id=match.pk, token=match.token, players=players)))


if __name__ == "__main__":
    main()
