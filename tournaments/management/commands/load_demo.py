from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.demo import demo_load


class Command(BaseCommand):
    help = "Load the demo tournament (a club, 16 players, 3 rounds seated, 2 played)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--reset", action="store_true", help="Replace an existing demo.")
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load it even with DJANGO_DEBUG off (it creates the superuser admin/admin).",
        )

    def handle(self, *args: Any, reset: bool = False, force: bool = False, **options: Any) -> None:
        # The demo's superuser admin/admin would be an open door on a real server.
        if not settings.DEBUG and not force:
            raise CommandError(
                "load_demo creates the superuser admin/admin, so it runs only with "
                "DJANGO_DEBUG on (make run). To load it on this installation anyway, "
                "pass --force."
            )
        tournament = demo_load(reset=reset)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament “{tournament.name}” at /t/{tournament.slug}/ "
                "(admin: admin/admin, organiser: organiser/rackscore)"
            )
        )
