"""``manage.py ratings_recompute [--fix]``: recompute every rating and compare.

Rates every rated game again from the start, in the rating order, and
reports each difference from the stored ratings (there should be none: the
services keep them equal). ``--fix`` stores the recomputation; run it once
after upgrading a database that has games from before ratings. Exits with
status 1 when a difference was found and not fixed.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.services.ratings import ratings_recompute

SHOWN = 20


def _differences(count: int) -> str:
    return "1 difference" if count == 1 else f"{count} differences"


class Command(BaseCommand):
    help = "Recompute every rating from the start and report any difference from the stored ones."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--fix", action="store_true", help="Store the recomputation when it differs."
        )

    def handle(self, *args: Any, fix: bool = False, **options: Any) -> None:
        report = ratings_recompute(fix=fix)
        summary = f"{report.rows} rating rows, {report.players} players recomputed"
        if not report.differences:
            self.stdout.write(self.style.SUCCESS(f"{summary}: no difference."))
            return
        for line in report.differences[:SHOWN]:
            self.stdout.write(line)
        found = _differences(len(report.differences))
        more = len(report.differences) - SHOWN
        if more > 0:
            self.stdout.write(f"… and {more} more.")
        if fix:
            self.stdout.write(self.style.WARNING(f"{summary}: {found}, now stored as recomputed."))
            return
        raise CommandError(f"{summary}: {found} (run with --fix to store).")
