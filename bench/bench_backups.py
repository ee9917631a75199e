"""A large backup's restore: 800 games (200 players × 4 rounds × 4 games, each
game with its ``game.recorded`` event, as an export has them), on SQLite, as the
task worker runs it (a request restores at most ``RACKSCORE_BACKUP_REQUEST_GAMES``).

Times, in one run: reading the document (``json.loads``, the anchor: what any
import costs before Rackscore does anything), checking it (format, schema,
references, every game scored again), restoring it into an empty database,
exporting it back, and the standings of the restored event. The bar: a
restore, file read included, within 5 s on a 2-core machine, the time one web
request may take; the cap is set with a margin below it (measured: about
2.6 to 4 ms a game with its event on a busy machine, so 800 games take 2 to
3.2 s). Exits 1 when it misses.

Run it with ``make bench`` (or ``python bench/bench_backups.py`` from the
project root).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from scratch import django_on_scratch_sqlite

WORKDIR = django_on_scratch_sqlite()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from tests.tournaments.backups.big import big_document  # noqa: E402
from tournaments.backups.checks import document_checked, document_read  # noqa: E402
from tournaments.backups.document import document_text, tournament_document  # noqa: E402
from tournaments.backups.restore import tournament_import  # noqa: E402
from tournaments.selectors.standings import standings_for  # noqa: E402

PLAYERS, ROUNDS, GAMES = 200, 4, 4
LIMIT_S = 5.0
T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main() -> int:
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create(username="bench")
    big = big_document(players=PLAYERS, rounds=ROUNDS, games=GAMES, events=True)
    assert len(big["games"]) == PLAYERS // 4 * ROUNDS * GAMES
    text = json.dumps(big, indent=1)
    _document, parse_s = timed(lambda: json.loads(text))
    _judged, check_s = timed(lambda: document_checked(json.loads(text)))
    tournament, import_s = timed(
        lambda: tournament_import(document=document_read(text.encode()), owner=owner)
    )
    exported, export_s = timed(lambda: document_text(tournament_document(tournament=tournament)))
    rows, standings_s = timed(lambda: standings_for(tournament=tournament))
    print(
        f"{PLAYERS} players × {ROUNDS} rounds × {GAMES} games ({len(big['games'])} games), "
        "each with its event; SQLite; one run each"
    )
    print(f"{'what':<44}{'seconds':>10}")
    for name, seconds in (
        (f"anchor: json.loads of the file ({len(text) / 1e6:.1f} MB)", parse_s),
        ("check: format, schema, references, rescoring", check_s),
        ("restore (read and check included)", import_s),
        (f"export ({len(exported) / 1e6:.1f} MB)", export_s),
        (f"standings of the restored event ({len(rows)} rows)", standings_s),
    ):
        print(f"{name:<44}{seconds:>10.2f}")
    ok = import_s <= LIMIT_S
    print(f"restore within {LIMIT_S:.0f} s: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
