"""``manage.py import_players FILE.csv``: create players from a ``name,club`` CSV.

A header row (``name,club``, any order) is optional; commas, semicolons or
tabs separate the columns (as the first line shows); UTF-8, with or without a
BOM. Every bad line is reported with its number and nothing is imported until
the file is clean.
Players that already exist with the same name and club are not created twice.
``--tournament`` also enters every listed player in that tournament.
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.errors import UserError
from tournaments.management.commands.standings import tournament_arg
from tournaments.services.players import PlayersFileError, players_import


class Command(BaseCommand):
    help = "Import players from a CSV file with the columns name, club."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="CSV file: name,club")
        parser.add_argument("--tournament", help="also enter the players in this tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise CommandError(
                f"{path}: line {line} is not UTF-8 text; save the file as UTF-8 CSV."
            ) from exc
        tournament = tournament_arg(options["tournament"]) if options["tournament"] else None
        try:
            # Players imported for a tournament are its owner's to change; else staff's.
            owner = tournament.owner if tournament is not None else None
            result = players_import(text=text, tournament=tournament, created_by=owner)
        except PlayersFileError as exc:
            for problem in exc.lines():
                self.stderr.write(f"{path}: {problem}")
            raise CommandError(exc.render()) from exc
        except UserError as exc:
            raise CommandError(exc.render()) from exc
        count = len(result.created)
        summary = f"Imported {count} player{'' if count == 1 else 's'}"
        if result.existing:
            summary += f" ({len(result.existing)} already known, not created again)"
        if tournament is not None:
            summary += f"; {result.entered} entered in {tournament.name}"
        self.stdout.write(self.style.SUCCESS(summary + "."))
