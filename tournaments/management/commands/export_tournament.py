"""``manage.py export_tournament TOURNAMENT --out FILE.json``: write a tournament's backup.

TOURNAMENT is a slug or an id; without ``--out`` the document goes to
standard output.
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.backups.document import document_text, tournament_document
from tournaments.management.commands.standings import tournament_arg


class Command(BaseCommand):
    help = "Write a tournament's backup (one JSON document) to a file or standard output."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("tournament", help="The tournament's slug or id.")
        parser.add_argument("--out", help="The file to write (default: standard output).")

    def handle(self, *args: Any, tournament: str, out: str | None = None, **options: Any) -> None:
        found = tournament_arg(tournament)
        text = document_text(tournament_document(tournament=found))
        if out is None:
            self.stdout.write(text, ending="")
            return
        path = Path(out)
        if not path.parent.is_dir():
            raise CommandError(f"Cannot write {out}: the folder {path.parent} does not exist.")
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {out}: {error.strerror}.") from error
        self.stderr.write(self.style.SUCCESS(f"Backup of “{found.name}” written to {out}."))
