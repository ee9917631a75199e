"""Standings rows read from the database and ranked: what every standings selector builds on.

Vocabulary as in ``selectors.standings`` (the *scope*: rounds, stages, players)
and ``standings.ranking`` (rows, tie-breaks, ranks). Three queries, four with
a tie-break that compares single games, whatever the size of the tournament.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, Field, Q, QuerySet, Sum

from tournaments.models import Adjustment, Entry, Game, Rack, Round, Tournament
from tournaments.selectors.standings_by_game import game_scores_fill
from tournaments.standings.ranking import (
    CENT,
    GAME_SCORE_TIE_BREAKS,
    MEETING_TIE_BREAKS,
    ZERO,
    Meetings,
    StandingRow,
    TieBreak,
    opponents_average_fill,
    primary_key,
    standings_rank,
)

QUALIFYING = Round.Stage.QUALIFYING.value


def tie_breaks_of(tournament: Tournament) -> list[str]:
    """The tournament's tie-breaks in order (stored checked: see ``fields.TieBreaksField``)."""
    return list(tournament.tie_breaks)


def standings_read(
    *,
    tournament: Tournament,
    rounds: Sequence[int] | None = None,
    stages: tuple[str, ...] | None = None,
    players: Collection[int] | None = None,
    extra: Sequence[TieBreak] = (),
) -> list[StandingRow]:
    """Build, restrict to ``players`` and rank; three queries (four with a game-score tie-break)."""
    rows: dict[int, StandingRow] = {}
    # Plain values, not model instances: three instances per player cost more
    # than all the rest of the standings for a large field.
    for player_id, name, club, status, category in (
        Entry.objects.filter(tournament=tournament)
        .order_by("player__name", "player_id")
        .values_list("player_id", "player__name", "player__club__name", "status", "category")
    ):
        if players is not None and player_id not in players:
            continue
        rows[player_id] = StandingRow(
            player_id=player_id,
            name=name,
            club=club or "",
            withdrawn=status == Entry.Status.WITHDRAWN,
            absent=status == Entry.Status.ABSENT,
            category=category,
        )

    racks = Rack.objects.filter(game__match__round__tournament=tournament)
    if tournament.standings_unconfirmed == Tournament.Unconfirmed.EXCLUDE:
        # Only what was confirmed counts; ``unconfirmed`` counts the rest for the page.
        racks = racks.filter(game__state=Game.State.CONFIRMED)
    adjustments = Adjustment.objects.filter(tournament=tournament)
    if rounds is not None:
        racks = racks.filter(game__match__round__number__in=rounds)
        adjustments = adjustments.filter(round__number__in=rounds)
    if stages is not None:
        racks = racks.filter(game__match__round__stage__in=stages)
        in_stage = Q(round__stage__in=stages)
        if QUALIFYING in stages:
            in_stage |= Q(round__isnull=True)
        adjustments = adjustments.filter(in_stage)
    tie_breaks: list[TieBreak] = [*tie_breaks_of(tournament), *extra]
    meetings: Meetings | None = None
    if MEETING_TIE_BREAKS.intersection(t for t in tie_breaks if isinstance(t, str)):
        # Head-to-head compares what the tied players made of a shared table, in
        # the currency of the ranking.
        by_points = tournament.ranking == Tournament.Ranking.TABLE_POINTS
        meetings = _totals_by_match(racks=racks, rows=rows, by_points=by_points)
    else:
        _totals_by_player(racks=racks, rows=rows)
    if GAME_SCORE_TIE_BREAKS.intersection(t for t in tie_breaks if isinstance(t, str)):
        game_scores_fill(racks=racks, rows=rows)  # one query more
    for agg in adjustments.order_by().values("player_id").annotate(points=Sum("points")):
        if agg["player_id"] in rows:
            rows[agg["player_id"]].adjustments = agg["points"] or ZERO
    if meetings is not None:
        opponents_average_fill(rows=rows, meetings=meetings)  # averages include adjustments
    if tournament.ranking == Tournament.Ranking.AVERAGE:
        for row in rows.values():
            row.below_min_games = row.games < tournament.min_games

    return standings_rank(
        rows=list(rows.values()),
        primary=primary_key(ranking=tournament.ranking, min_games=tournament.min_games),
        tie_breaks=tie_breaks,
        meetings=meetings,
    )


def _totals_by_player(*, racks: QuerySet[Rack], rows: dict[int, StandingRow]) -> None:
    """Sum each player's games in the database; one query."""
    for agg in (
        racks.order_by()
        .values("player_id")
        .annotate(
            # A player's total counts each game's bonus on top of its zero-sum score.
            game_score=Sum(F("score") + F("bonus")),
            games=Count("id"),
            wins=Count("id", filter=Q(winner=True)),
            rack_total=Sum("rack_value"),
            table_points=Sum("table_points"),
        )
    ):
        row = rows.get(agg["player_id"])
        if row is None:  # not entered (any more), or outside ``players``
            continue
        row.game_score = agg["game_score"] or ZERO
        row.games = agg["games"]
        row.wins = agg["wins"]
        row.rack_total = agg["rack_total"] or 0
        row.table_points = agg["table_points"] or ZERO


def _cents(value: Any) -> Decimal:
    """A database sum as a Decimal to the cent (SQLite sums decimals as floats)."""
    if isinstance(value, Decimal):
        return value
    return Decimal(value or 0).quantize(CENT)


def _totals_by_match(
    *, racks: QuerySet[Rack], rows: dict[int, StandingRow], by_points: bool
) -> Meetings:
    """Sum each player's games per match, then per player; one query.

    The per-match sums are what head-to-head and opponents' average need, so
    the meeting tie-breaks cost no extra query. Raw database numbers (no
    conversion per row: 10,000 rows for a large event); Decimals at the end.
    """
    raw: Field[Any, Any] = Field()
    meetings = Meetings()
    by_match, by_player = meetings.by_match, meetings.by_player
    totals: dict[int, list[Any]] = {}
    for match_id, player_id, score, games, wins, rack_total, table_points in (
        racks.order_by()
        .values("game__match_id", "player_id")
        .annotate(
            s=Sum(F("score") + F("bonus"), output_field=raw),
            n=Count("id", output_field=raw),
            w=Count("id", filter=Q(winner=True), output_field=raw),
            r=Sum("rack_value", output_field=raw),
            tp=Sum("table_points", output_field=raw),
        )
        .values_list("game__match_id", "player_id", "s", "n", "w", "r", "tp")
    ):
        by_match.setdefault(match_id, []).append(
            (player_id, (table_points if by_points else score) or 0)
        )
        by_player.setdefault(player_id, []).append(match_id)
        total = totals.get(player_id)
        if total is None:
            totals[player_id] = [score or 0, games, wins, rack_total or 0, table_points or 0]
        else:
            total[0] += score or 0
            total[1] += games
            total[2] += wins
            total[3] += rack_total or 0
            total[4] += table_points or 0
    for player_id, (score, games, wins, rack_total, table_points) in totals.items():
        row = rows.get(player_id)
        if row is None:
            continue
        row.game_score = _cents(score)
        row.games = int(games)
        row.wins = int(wins)
        row.rack_total = int(rack_total)
        row.table_points = _cents(table_points)
    return meetings
