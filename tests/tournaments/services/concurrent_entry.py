"""Run as a script against a fresh SQLite *file* (WAL, IMMEDIATE), so that
threads really compete for the write lock as web workers do:

    DATABASE_URL=sqlite:////tmp/x.sqlite3 python -m tests.tournaments.services.concurrent_entry

Prints one JSON line with what was stored; the test reads it.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor

import django


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from scoring.errors import ConflictError
    from scoring.rules import RackIn
    from tests.factories import match_seated, seated_ids
    from tournaments.models import Game, Rack
    from tournaments.services.games import game_record

    call_command("migrate", verbosity=0)
    first = match_seated(players=4, games_per_round=6)
    tournament = first.round.tournament
    matches = [first] + [match_seated(players=4, tournament=tournament) for _ in range(3)]
    connection.close()

    def record(match_index: int) -> str:
        from django.db import connection

        match = matches[match_index % len(matches)]
        ids = seated_ids(match)
        try:
            game_record(
                match=match,
                ending="rummikub",
                racks=[RackIn(player=p, points=0 if i == 0 else 5) for i, p in enumerate(ids)],
            )
            return "ok"
        except ConflictError:
            return "full"
        finally:
            connection.close()

    # 40 entries from 8 threads for 4 matches of 6 games each.
    with ThreadPoolExecutor(max_workers=8) as pool:
        outcomes = list(pool.map(record, range(40)))
    numbers = {
        m.pk: sorted(Game.objects.filter(match=m).values_list("number", flat=True)) for m in matches
    }
    print(
        json.dumps(
            {
                "ok": outcomes.count("ok"),
                "full": outcomes.count("full"),
                "numbers": list(numbers.values()),
                "racks": Rack.objects.count(),
            }
        )
    )


if __name__ == "__main__":
    main()
