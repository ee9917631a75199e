"""``manage.py import_tournament FILE.json [--slug NEW] [--owner USERNAME]
[--map-players SOURCE=ID,...]``: restore a backup as a new tournament.

The owner is ``--owner``, else the backup's owner when that user exists here.
The backup's players are made anew as the owner's, except those
``--map-players`` maps (the backup's player id = the id of one of the owner's
own players). A slug in use is refused unless ``--slug`` gives a new one; any
refusal names its reason and stores nothing.
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.errors import UserError
from tournaments.backups.checks import document_read
from tournaments.backups.restore import tournament_import
from tournaments.selectors.people import user_named


def _player_map_read(text: str) -> dict[int, int]:
    """``12=345,13=346`` as ``{12: 345, 13: 346}``."""
    pairs: dict[int, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        source, _sep, target = part.partition("=")
        if not (source.strip().isdigit() and target.strip().isdigit()) or len(part) > 40:
            raise CommandError(f"--map-players takes SOURCE=ID pairs, not {part[:40]!r}.")
        if int(source) in pairs:
            raise CommandError(f"--map-players maps player {int(source)} twice.")
        pairs[int(source)] = int(target)
    return pairs


class Command(BaseCommand):
    help = "Restore a tournament's backup (a JSON document) as a new tournament."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="The backup file (.json).")
        parser.add_argument("--slug", help="The new tournament's slug (default: the backup's).")
        parser.add_argument("--owner", help="The owner's username (default: the backup's owner).")
        parser.add_argument(
            "--map-players",
            default="",
            help=(
                "Use the owner's own players for some of the backup's: SOURCE=ID pairs, "
                "comma-separated (the player's id in the backup = the owner's player's id)."
            ),
        )

    def handle(
        self,
        *args: Any,
        file: str,
        slug: str | None = None,
        owner: str | None = None,
        map_players: str = "",
        **options: Any,
    ) -> None:
        player_map = _player_map_read(map_players)
        path = Path(file)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from error
        try:
            document = document_read(data)
            username = owner or str(document.get("tournament", {}).get("owner") or "")
            user = user_named(username=username)
            if user is None:
                raise CommandError(
                    f"No user {username!r} to own the tournament: name one with --owner."
                    if username
                    else "The backup names no owner: name one with --owner."
                )
            tournament = tournament_import(
                document=document, owner=user, slug=slug, source=path.name, player_map=player_map
            )
        except UserError as error:
            raise CommandError(error.render()) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored “{tournament.name}” at /t/{tournament.slug}/ "
                f"(owner {user.get_username()})."
            )
        )
