"""Print reads: a tournament's rows as the plain data :mod:`printing` prints.

Vocabulary: a round's *sheet set* has a sheet per match, by table, with the
match's private entry link; the *standings lines* are standings rows with
their numbers set in monospaced columns, the ranking's first; the *report* is the current
ranking (the final placings once decided: ``standings.ranking_current``),
each round's results by table and the adjustments. Every read has a fixed
number of queries. Words (stages, kinds of adjustment) come in the
tournament's language; numbers are written as the pages write them
(``tournaments.numbers``: "3,50" in Danish), the report's in the
tournament's language, the standings lines in the active one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from printing.data import (
    AdjustmentLine,
    MatchResult,
    RoundResults,
    Sheet,
    SheetSet,
    StandingsLine,
)
from printing.layout import NUMBER_COLUMNS, NUMBER_WIDTHS
from tournaments.models import Adjustment, Match, Rack, Round, Seat, Tournament
from tournaments.numbers import number_text
from tournaments.selectors.standings import ranking_current
from tournaments.selectors.unconfirmed import Unconfirmed
from tournaments.standings.current import RankingCurrent
from tournaments.standings.ranking import COLUMN_LABELS, StandingRow, columns_ranking_first

ZERO = Decimal(0)


def scoresheets_data(*, round_: Round, base_url: str, paper: str | None = None) -> SheetSet:
    """Every match of a round as sheet data, by table; two queries.

    ``base_url`` is the site's address (``https://host``): the QR code of a
    sheet links to ``<base_url>/m/<token>/``, the match's private entry page,
    under the tournament's language prefix (``<base_url>/da/m/<token>/``).
    ``paper`` overrides the tournament's paper size.
    """
    tournament = round_.tournament
    paper = paper or tournament.paper
    matches = (
        Match.objects.filter(round=round_)
        .order_by("table")
        .only("id", "table", "token", "round_id")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player__club")
                .only("match_id", "position", "player__name", "player__club__name")
                .order_by("position"),
            )
        )
    )
    root = base_url.rstrip("/")
    with translation.override(tournament.language):  # the sheets' language, not the request's
        stage = round_.get_stage_display() if round_.stage != Round.Stage.QUALIFYING else ""
        first_to = tournament.final_first_to if round_.stage == Round.Stage.FINAL else 0
        if first_to:
            # The sheet says how the final ends; its header carries the stage's words.
            stage = ngettext(
                "%(stage)s, first to %(count)s win", "%(stage)s, first to %(count)s wins", first_to
            ) % {"stage": stage, "count": first_to}
        title = gettext("%(tournament)s, round %(round)s: score sheets") % {
            "tournament": tournament.name,
            "round": round_.number,
        }
    sheets: list[Sheet] = [
        {
            "tournament": tournament.name,
            "round": round_.number,
            "stage": str(stage),
            "table": match.table,
            "date": round_.date or tournament.date,
            "players": [
                {
                    "seat": seat.position,
                    "name": seat.player.name,
                    "club": seat.player.club.name if seat.player.club else "",
                }
                for seat in match.seats.all()
            ],
            # To N wins: the rows the longest such final can need (all but one
            # player one short of N, then the decider), never more than planned.
            "games": min(
                round_.games_per_match,
                len(match.seats.all()) * (first_to - 1) + 1 if first_to else round_.games_per_match,
            ),
            "joker_penalty": tournament.joker_penalty,
            "loss_cap": tournament.loss_cap,
            "winner_bonus": tournament.winner_bonus,
            "runner_up_bonus": tournament.runner_up_bonus,
            "url": root + _match_path(token=match.token, language=tournament.language),
            "paper": paper,
        }
        for match in matches
    ]
    return {
        "language": tournament.language,
        "paper": paper,
        "title": title,
        "sheets": sheets,
    }


def _match_path(*, token: str, language: str) -> str:
    """A table's page in its tournament's language (``/da/m/<token>/``, English
    unprefixed): the QR code opens it so, whatever the phone asks for."""
    with translation.override(language):
        return reverse("web:match", kwargs={"token": token})


def standings_columns(*, tournament: Tournament) -> list[str]:
    """The printed number columns in order: the tournament's ranking key first."""
    return columns_ranking_first(
        ranking=tournament.ranking, columns=[name for name, _width in NUMBER_COLUMNS]
    )


def standings_headings(columns: Sequence[str]) -> list[str]:
    """The columns' headings, in the active language."""
    return [gettext(COLUMN_LABELS[name]) for name in columns]


def _cell(row: StandingRow, name: str) -> str:
    if name == "adjustments" and not row.adjustments:
        return "".rjust(NUMBER_WIDTHS[name])
    return number_text(getattr(row, name)).rjust(NUMBER_WIDTHS[name])


def standings_lines(
    rows: Sequence[StandingRow],
    *,
    columns: Sequence[str] | None = None,
    unconfirmed: Unconfirmed | None = None,
) -> list[StandingsLine]:
    """Rows as printed lines; ``columns`` (default: the six, score first) sets
    the numbers and their order, the first being the bold lead. With
    ``unconfirmed``, a player with games awaiting confirmation gets a ``*``
    after the name (the footnote says what it means)."""
    lead, *rest = columns or [name for name, _width in NUMBER_COLUMNS]
    return [
        StandingsLine(
            rank=row.rank,
            name=f"{row.name} *"
            if unconfirmed is not None and unconfirmed.of(row.player_id)
            else row.name,
            club=row.club,
            withdrawn=row.withdrawn,
            lead=_cell(row, lead),
            numbers="".join(_cell(row, name) for name in rest),
        )
        for row in rows
    ]


@dataclass(frozen=True)
class Report:
    tournament: Tournament
    # The order of ``standings`` and the stage it comes from.
    ranking: RankingCurrent
    standings: list[StandingsLine]
    rounds: list[RoundResults]
    adjustments: list[AdjustmentLine]


def rounds_played(*, tournament: Tournament) -> int:
    """How many of the tournament's rounds have at least one game recorded; one query."""
    return (
        Round.objects.filter(tournament=tournament, matches__games__isnull=False).distinct().count()
    )


def report_data(*, tournament: Tournament) -> Report:
    """Final places, each round's results by table and the adjustments.

    A fixed number of queries: the current ranking's (see ``ranking_current``),
    one for the racks, three for the rounds with their tables and players,
    one for the adjustments. Match totals are summed here from the racks, so
    the report agrees with the standings to the cent. Labels (stages, kinds of
    adjustment) are in the tournament's language.
    """
    totals: dict[tuple[int, int], tuple[Decimal, int]] = {}
    games: dict[int, set[int]] = {}
    for match_id, player_id, score, winner, game_id in (
        Rack.objects.filter(game__match__round__tournament=tournament)
        .values_list("game__match_id", "player_id", "score", "winner", "game_id")
        .order_by()
    ):
        total, wins = totals.get((match_id, player_id), (Decimal(0), 0))
        totals[match_id, player_id] = (total + score, wins + int(winner))
        games.setdefault(match_id, set()).add(game_id)
    # Value rows, not model instances: a large event has 10,000 seats, and building
    # their models cost most of the report's reads.
    rounds_qs = list(
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("id", "number", "stage", "date")
    )
    tables: dict[int, list[tuple[int, int]]] = {}
    for match_id, round_id, table in (
        Match.objects.filter(round__tournament=tournament)
        .order_by("round_id", "table")
        .values_list("id", "round_id", "table")
    ):
        tables.setdefault(round_id, []).append((match_id, table))
    seated: dict[int, list[tuple[int, str]]] = {}
    for match_id, player_id, name in (
        Seat.objects.filter(match__round__tournament=tournament)
        .order_by("match_id", "position")
        .values_list("match_id", "player_id", "player__name")
    ):
        seated.setdefault(match_id, []).append((player_id, name))
    adjustments_qs = (
        Adjustment.objects.filter(tournament=tournament)
        .select_related("player", "round")
        .order_by("created", "id")
    )
    ranking = ranking_current(tournament=tournament)
    with translation.override(tournament.language):
        shown = {key: (number_text(total), wins) for key, (total, wins) in totals.items()}
        unplayed = (number_text(ZERO), 0)
        rounds = [
            RoundResults(
                number=number,
                stage=str(Round.Stage(stage).label) if stage != Round.Stage.QUALIFYING else "",
                date=date,
                matches=[
                    MatchResult(
                        table=table,
                        games=len(games.get(match_id, ())),
                        players=[
                            (name, *shown.get((match_id, player_id), unplayed))
                            for player_id, name in seated.get(match_id, ())
                        ],
                    )
                    for match_id, table in tables.get(round_id, ())
                ],
            )
            for round_id, number, stage, date in rounds_qs
        ]
        adjustments = [
            AdjustmentLine(
                player=a.player.name,
                round=a.round.number if a.round else None,
                kind=a.get_kind_display(),
                points=number_text(a.points),
                reason=a.reason,
            )
            for a in adjustments_qs
        ]
        standings = standings_lines(ranking.rows, columns=standings_columns(tournament=tournament))
    return Report(
        tournament=tournament,
        ranking=ranking,
        standings=standings,
        rounds=rounds,
        adjustments=adjustments,
    )
