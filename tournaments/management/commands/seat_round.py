"""``manage.py seat_round TOURNAMENT``: seat the next round and print its tables.

TOURNAMENT is a slug or an id. ``--stage semifinal|final`` seats a stage
instead of a qualifying round; ``--reseat`` seats the last round again (only
while it has no results).
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.errors import UserError
from scoring.rules import starting_seat
from tournaments.management.commands.standings import text_table, tournament_arg
from tournaments.models import Round
from tournaments.selectors.rounds import round_detail, round_last, seating_quality_for
from tournaments.services import rounds


def round_text(round_: Round) -> str:
    """A round's tables as the organiser reads them out: table, seats in order, byes."""
    detail = round_detail(round_id=round_.pk)
    lines = [
        f"{detail.tournament.name} – round {detail.number} ({detail.get_stage_display()}), "
        f"{detail.games_per_match} games a table"
    ]
    rows = []
    for match in detail.matches.all():
        seats = list(match.seats.all())
        for seat in seats:
            rows.append(
                [
                    str(match.table) if seat is seats[0] else "",
                    str(seat.position),
                    seat.player.name,
                    seat.player.club.name if seat.player.club else "",
                ]
            )
    lines.append(text_table(["Table", "Seat", "Player", "Club"], rows, right={0, 1}))
    # The start rotates (rules.starting_seat): seat 1 starts game 1.
    second = starting_seat(game_number=2, table_size=4)
    lines.append(f"Seat 1 starts game 1, seat {second} game 2, and so on round the table.")
    byes = sorted(a.player.name for a in getattr(detail, "byes", []))
    if byes:
        lines.append("Bye: " + ", ".join(byes))
    quality = seating_quality_for(tournament=detail.tournament)
    lines.append(
        f"Repeat meetings so far: {quality.repeats} (lower bound {quality.lower_bound}); "
        f"the most any two players met: {quality.max_meetings}."
    )
    return "\n".join(lines)


class Command(BaseCommand):
    help = "Seat the next round of a tournament (or a semi-final/final) and print the tables."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("tournament", help="slug or id")
        parser.add_argument(
            "--stage",
            choices=[s.value for s in Round.Stage],
            default=Round.Stage.QUALIFYING.value,
            help="qualifying (default), semifinal or final",
        )
        parser.add_argument(
            "--reseat",
            action="store_true",
            help="seat the last round again instead (only while it has no results)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = tournament_arg(options["tournament"])
        try:
            if options["reseat"]:
                last = round_last(tournament=tournament)
                if last is None:
                    raise CommandError("No round is seated yet.")
                round_ = rounds.round_reseat(round=last)
            else:
                round_ = rounds.round_seat_next(tournament=tournament, stage=options["stage"])
        except UserError as exc:
            raise CommandError(exc.render()) from exc
        self.stdout.write(round_text(round_))
