"""``manage.py print_scoresheets TOURNAMENT ROUND --out FILE.pdf``: a round's score sheets.

TOURNAMENT is a slug or an id. The QR codes link to ``<base-url>/<lang>/m/<token>/`` (the
tournament's language; English without a prefix): ``--base-url``, else the
``RACKSCORE_BASE_URL`` environment variable, else
``http://127.0.0.1:8000``. A progress bar shows on a terminal for large rounds.
"""

from __future__ import annotations

import sys
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from printing.layout import PAPER_MM
from tournaments.documents.files import BASE_URL_DEFAULT, base_url_default, scoresheets_pdf
from tournaments.models import Tournament
from tournaments.selectors.rounds import round_numbered, round_tables_count
from tournaments.selectors.tournaments import tournament_by_ref

# From this many tables on, the pages come in chunks of this size for the bar to move.
PROGRESS_MIN_PAGES = 40
PROGRESS_CHUNK_PAGES = 32


class Command(BaseCommand):
    help = "Print a round's score sheets (one page per table) to a PDF file."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("tournament", help="The tournament's slug or id.")
        parser.add_argument("round", type=int, help="The round's number.")
        parser.add_argument("--out", required=True, help="The PDF file to write.")
        parser.add_argument(
            "--base-url",
            default=None,
            help="The site's address for the QR codes (default: $RACKSCORE_BASE_URL, "
            f"else {BASE_URL_DEFAULT}).",
        )
        parser.add_argument(
            "--paper", choices=list(PAPER_MM), help="Override the tournament's paper size."
        )
        parser.add_argument(
            "--no-progress", action="store_true", help="No progress bar, even on a terminal."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = tournament_by_ref(ref=options["tournament"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament with slug or id {options['tournament']!r}.") from exc
        round_ = round_numbered(tournament=tournament, number=options["round"])
        if round_ is None:
            raise CommandError(f"{tournament.slug} has no round {options['round']}.")
        tables = round_tables_count(round=round_)
        if not tables:
            raise CommandError(f"Round {round_.number} of {tournament.slug} has no tables.")
        base_url = (options["base_url"] or base_url_default()).rstrip("/")
        if not base_url.startswith(("http://", "https://")):
            raise CommandError("--base-url must start with http:// or https://.")
        out = Path(options["out"])
        if not out.parent.is_dir():
            raise CommandError(f"No directory {out.parent} to write {out.name} in.")

        show = not options["no_progress"] and tables >= PROGRESS_MIN_PAGES and sys.stderr.isatty()
        bar = tqdm(total=tables, unit="page", desc="score sheets", disable=not show)
        start = time.perf_counter()
        try:
            pdf = scoresheets_pdf(
                round_=round_,
                base_url=base_url,
                paper=options["paper"],
                chunk_pages=PROGRESS_CHUNK_PAGES if show else None,
                progress=lambda done: bar.update(done - bar.n),
            )
        finally:
            bar.close()
        out.write_bytes(pdf)
        self.stdout.write(
            self.style.SUCCESS(
                f"{tables} score sheets of round {round_.number} written to {out} "
                f"({len(pdf) // 1024} kB, {time.perf_counter() - start:.1f} s)."
            )
        )
