"""Eight tables post their first game at once, in a tournament not yet running.

Every game of a tournament reads its row (on PostgreSQL in share mode) and
the first one moves it to ``running``: ``race_tables`` checks that the
writers neither lose a game nor deadlock. Run as a script it builds a fresh
SQLite *file* first (see ``concurrent_idempotency``) and prints one JSON line.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django

TABLES = 8


def tables_seated() -> list[tuple[int, str, list[int]]]:
    """One planned tournament with TABLES matches of 4 in one round: (id, token, players)."""
    from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TournamentFactory
    from tournaments.models import Entry, Seat

    tournament = TournamentFactory(owner__password=None, games_per_round=4)
    round_ = RoundFactory(tournament=tournament, number=1)
    out = []
    for table in range(1, TABLES + 1):
        match = MatchFactory(round=round_, table=table)
        players = PlayerFactory.create_batch(4)
        Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
        for position, player in enumerate(players, start=1):
            Seat.objects.create(match=match, round=round_, player=player, position=position)
        out.append((match.pk, match.token, [p.pk for p in players]))
    return out


def race_tables(tables: list[tuple[int, str, list[int]]]) -> dict[str, Any]:
    """Post every table's game 1 at once; what came back and was stored."""
    from django.db import connection
    from rest_framework.test import APIClient

    from tournaments.models import Game, Tournament

    start = threading.Barrier(len(tables))

    def post(table: tuple[int, str, list[int]]) -> int:
        match_id, token, players = table
        client = APIClient()
        client.credentials(HTTP_X_MATCH_TOKEN=token)
        body = {
            "number": 1,
            "ending": "rummikub",
            "racks": [{"player": p, "points": 0 if i == 0 else 7} for i, p in enumerate(players)],
        }
        try:
            start.wait()
            return client.post(
                f"/api/v1/matches/{match_id}/games/",
                body,
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            ).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(tables)) as pool:
        statuses = list(pool.map(post, tables))
    return {
        "statuses": statuses,
        "games": Game.objects.filter(match_id__in=[t[0] for t in tables]).count(),
        "status": Tournament.objects.get().status,
    }


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    tables = tables_seated()
    connection.close()
    print(json.dumps(race_tables(tables)))


if __name__ == "__main__":
    main()
