from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from tournaments.demo import demo_load


class Command(BaseCommand):
    help = "Load the demo tournament (a club, 16 players, 3 rounds seated, 2 played)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--reset", action="store_true", help="Replace an existing demo.")

    def handle(self, *args: Any, reset: bool = False, **options: Any) -> None:
        tournament = demo_load(reset=reset)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament “{tournament.name}” at /t/{tournament.slug}/ "
                "(admin: admin/admin, organiser: organiser/rackscore)"
            )
        )
