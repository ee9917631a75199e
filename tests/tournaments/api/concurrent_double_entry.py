"""Sixteen clients holding one match token post game 2 at once under double
entry, each with its own ``Idempotency-Key``: one entry is stored, and no other
confirms it (a match token is never a game's second entry).

``race`` runs the threads against the configured database; run as a script it
first builds a fresh SQLite file, as ``concurrent_idempotency`` does, and
prints one JSON line with what was answered and stored.
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django

THREADS = 16


def race(*, match_id: int, token: str, players: list[int]) -> dict[str, Any]:
    """Post game 2 ``THREADS`` times at once, one key each; what came back and was stored."""
    from django.db import connection
    from rest_framework.test import APIClient

    from tournaments.models import AuditEvent, Game

    body = {
        "number": 2,
        "ending": "rummikub",
        "racks": [{"player": p, "points": 0 if i == 0 else 5} for i, p in enumerate(players)],
    }
    start = threading.Barrier(THREADS)

    def post(n: int) -> int:
        client = APIClient()
        client.credentials(HTTP_X_MATCH_TOKEN=token)
        try:
            start.wait()
            response = client.post(
                f"/api/v1/matches/{match_id}/games/",
                body,
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"phone-{n}",
            )
            return response.status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        statuses = list(pool.map(post, range(THREADS)))
    return {
        "statuses": sorted(statuses),
        "states": sorted(Game.objects.filter(match_id=match_id).values_list("state", flat=True)),
        "refusals": AuditEvent.objects.filter(
            match_id=match_id, action=AuditEvent.Action.GAME_REFUSED
        ).count(),
    }


def seated() -> Any:
    """A table of a running tournament (its first game's start is another race)."""
    from tests.factories import match_seated
    from tournaments.models import Tournament

    match = match_seated(players=4, games_per_round=6, confirmation="double_entry")
    Tournament.objects.filter(pk=match.round.tournament_id).update(status=Tournament.Status.RUNNING)
    return match


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from tests.factories import seated_ids

    call_command("migrate", verbosity=0)
    match = seated()
    players = seated_ids(match)
    connection.close()
    print(json.dumps(race(match_id=match.pk, token=match.token, players=players)))


if __name__ == "__main__":
    main()
