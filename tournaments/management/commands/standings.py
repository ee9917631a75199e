"""``manage.py standings TOURNAMENT``: the standings as an aligned table in the terminal.

TOURNAMENT is a slug or an id. Without options: the current ranking, as every
page orders players (the qualifying standings, then the placings once a stage
is seated, then the final placings), named by its stage. ``--stage`` limits the
table to one stage's games (``qualifying``: the qualifying table);
``--places`` is kept for scripts and shows the same placings as the default.
"""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.errors import UserError
from tournaments.models import Tournament
from tournaments.selectors.standings import ranking_current, standings_for
from tournaments.selectors.tournaments import tournament_by_ref
from tournaments.standings.current import STAGES
from tournaments.standings.ranking import StandingRow


def tournament_arg(ref: str) -> Tournament:
    try:
        return tournament_by_ref(ref=ref)
    except Tournament.DoesNotExist as exc:
        raise CommandError(f"No tournament with slug or id {ref!r}.") from exc


def numbers(values: Sequence[Decimal | int], *, blank_zero: bool = False) -> list[str]:
    """A column of scores as people write them: no decimals unless some value has cents."""
    cents = any(isinstance(v, Decimal) and v != v.to_integral_value() for v in values)
    return ["" if blank_zero and not v else (f"{v:.2f}" if cents else str(int(v))) for v in values]


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """Columns padded to their widest cell; the columns in ``right`` aligned right."""
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def standings_table(rows: Sequence[StandingRow], *, places: bool = False) -> str:
    headers = ["#", "Player", "Club", "Score", "Adj.", "Games", "Won", "Avg", "Racks", "TP"]
    if places:
        headers.append("Placed by")
    columns = [
        [str(r.rank) for r in rows],
        [
            r.name + (" (withdrawn)" if r.withdrawn else "") + (" *" if r.below_min_games else "")
            for r in rows
        ],
        [r.club for r in rows],
        numbers([r.score for r in rows]),
        numbers([r.adjustments for r in rows], blank_zero=True),
        [str(r.games) for r in rows],
        [str(r.wins) for r in rows],
        [f"{r.average:.2f}" for r in rows],
        [str(r.rack_total) for r in rows],
        numbers([r.table_points for r in rows]),
    ]
    if places:
        columns.append([r.stage for r in rows])
    body = [list(cells) for cells in zip(*columns, strict=True)]
    return text_table(headers, body, right={0, 3, 4, 5, 6, 7, 8, 9})


class Command(BaseCommand):
    help = "Print a tournament's standings (or final places) as a table."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("tournament", help="slug or id")
        parser.add_argument(
            "--stage", choices=STAGES, help="count only this stage's games (default: all)"
        )
        parser.add_argument(
            "--places",
            action="store_true",
            help="the placings (the default): final table, then semi-finalists, then the rest",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = tournament_arg(options["tournament"])
        try:
            stage = options["stage"]
            placed = False
            if stage is None or stage == "qualifying":
                current = ranking_current(tournament=tournament, stage=stage)
                rows = current.rows
                placed = current.staged and not current.qualifying
                title = current.label if current.staged or current.decided else "Standings"
            else:
                rows = standings_for(tournament=tournament, stage=stage)
                title = f"Standings ({stage})"
        except UserError as exc:
            raise CommandError(exc.render()) from exc
        ranking = tournament.get_ranking_display()
        self.stdout.write(f"{tournament.name} – {title}, ranked by {ranking}")
        if not rows:
            self.stdout.write("No players entered.")
            return
        self.stdout.write(standings_table(rows, places=placed))
        if any(r.below_min_games for r in rows):
            self.stdout.write(
                f"* fewer than {tournament.min_games} games: ranked after everyone who played "
                "enough."
            )
