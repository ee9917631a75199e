"""A tournament's rounds: as lines of a list, with their tables, as the seating
engine reads them.

Vocabulary: a round's *tables* are its matches with their seats (players in
seat order) and its *byes* (the players a round left out, each with a bye's
score); a *seating history* is the rounds so far as the seating engine reads
them (each a list of tables, each the player ids in seat order). A round
*listed* is a line: its number, stage and counts, no tables loaded.

Each selector runs a fixed number of queries, whatever the size of the
tournament.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, QuerySet

from tournaments import seating
from tournaments.models import Adjustment, Game, Match, Rack, Round, Seat, Tournament


def round_tables() -> tuple[Prefetch[Any], Prefetch[Any]]:
    """Prefetches for a round's tables (seats, players in seat order) and its
    byes (as ``round.byes``); shared by the pages, the API and the commands."""
    return (
        Prefetch(
            "matches",
            queryset=Match.objects.order_by("table").prefetch_related(
                Prefetch(
                    "seats",
                    queryset=Seat.objects.select_related("player__club").order_by("position"),
                )
            ),
        ),
        Prefetch(
            "adjustments",
            queryset=Adjustment.objects.filter(kind=Adjustment.Kind.BYE)
            .select_related("player")
            .order_by("player_id"),
            to_attr="byes",
        ),
    )


def round_detail(*, round_id: int) -> Round:
    """One round with its tables and its byes; three queries."""
    return (
        Round.objects.select_related("tournament")
        .prefetch_related(*round_tables())
        .get(pk=round_id)
    )


def round_numbered(*, tournament: Tournament, number: int) -> Round | None:
    """The tournament's round with this number, with the tournament (None: there is
    none); one query."""
    return (
        Round.objects.filter(tournament=tournament, number=number)
        .select_related("tournament")
        .first()
    )


def round_last(*, tournament: Tournament) -> Round | None:
    """The tournament's last round, alone (None: none seated yet); one query."""
    return tournament.round_set.order_by("-number").first()


def round_bye_ids(*, round: Round) -> list[int]:
    """The ids of the players the round gave a bye, in id order; one query."""
    return list(
        Adjustment.objects.filter(round=round, kind=Adjustment.Kind.BYE)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def rounds_seated(*, tournament: Tournament) -> bool:
    """Whether any round of the tournament is seated; one query."""
    return tournament.round_set.exists()


def seating_history(*, tournament: Tournament, stage: str | None = None) -> list[list[list[int]]]:
    """The rounds so far as the seating engine reads them: each a list of
    tables, each the player ids in seat order; one query."""
    seats = Seat.objects.filter(round__tournament=tournament)
    if stage is not None:
        seats = seats.filter(round__stage=stage)
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table, player_id in seats.order_by(
        "round__number", "match__table", "position"
    ).values_list("round__number", "match__table", "player_id"):
        rounds.setdefault(round_number, {}).setdefault(table, []).append(player_id)
    return [list(tables.values()) for _number, tables in sorted(rounds.items())]


def seating_quality_for(*, tournament: Tournament) -> seating.Quality:
    """Repeat meetings of the qualifying rounds so far, next to the lower bound
    no seating could beat for this many players and rounds."""
    return seating.schedule_quality(
        rounds=seating_history(tournament=tournament, stage=Round.Stage.QUALIFYING),
        max_size=tournament.max_table_size,
    )


@dataclass(frozen=True)
class RoundListed:
    """A round as a line in a list: no tables or games loaded."""

    number: int
    stage: str
    stage_label: str
    tables: int
    games_played: int


def rounds_listed(*, tournament: Tournament) -> list[RoundListed]:
    """A tournament's rounds, light, with their counts of tables and games; one query."""
    labels = dict(Round.Stage.choices)
    return [
        RoundListed(
            number=r["number"],
            stage=r["stage"],
            stage_label=str(labels.get(r["stage"], r["stage"])),
            tables=r["tables"],
            games_played=r["games_played"],
        )
        for r in tournament.round_set.order_by("number")
        .values("number", "stage")
        .annotate(
            tables=Count("matches", distinct=True),
            games_played=Count("matches__games", distinct=True),
        )
    ]


def rounds_for(
    *, tournament: Tournament, numbers: Collection[int] | None = None
) -> QuerySet[Round]:
    """A tournament's rounds (or those numbered ``numbers``) with their matches,
    seats, games and racks; five queries."""
    rounds = tournament.round_set.order_by("number")
    if numbers is not None:
        rounds = rounds.filter(number__in=numbers)
    return rounds.prefetch_related(
        Prefetch(
            "matches",
            queryset=Match.objects.order_by("table").prefetch_related(
                # The rating beside each name at the desk: a join, no query of its own.
                Prefetch(
                    "seats",
                    queryset=Seat.objects.select_related("player__rating").order_by("position"),
                ),
                Prefetch(
                    "games",
                    queryset=Game.objects.order_by("number").prefetch_related(
                        Prefetch("racks", queryset=Rack.objects.order_by("position"))
                    ),
                ),
            ),
        )
    )


def round_tables_count(*, round: Round) -> int:
    """How many tables (matches) the round has; one query."""
    return round.matches.count()
