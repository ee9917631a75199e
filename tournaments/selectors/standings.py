"""Standings read from the database, then ranked by ``ranking``.

Vocabulary (the ranking's own is in ``ranking``):

* **scope**: which games and adjustments a standings table counts: all of them
  (the default), some round numbers, or some *stages*. The qualifying stage
  also counts the adjustments that belong to no round (an organiser's penalty
  for the event); a semi-final or final counts only its own rounds.
* **final places**: the final table first, then the other semi-finalists, then
  everyone else by the qualifying standings.

Games not confirmed yet count or not as the tournament's
``standings_unconfirmed`` says (``unconfirmed`` counts them for the page).

Each read runs a fixed number of queries, whatever the size of the
tournament; tests pin the counts. ``standings_shared`` computes the default
scope once per tournament version and hands every reader (the pages, the
exports, the API) the same rows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, Field, Q, QuerySet, Sum

from scoring.errors import UserError, _
from tournaments.caching import cached, tournament_key
from tournaments.models import Adjustment, Entry, Game, Rack, Round, Seat, Tournament
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
    ranks_shift,
    seed_key,
    standings_rank,
)
from tournaments.standings.stage_rows import carried_half_ranked, first_to_ranked

QUALIFYING = Round.Stage.QUALIFYING.value
SEMIFINAL = Round.Stage.SEMIFINAL.value
FINAL = Round.Stage.FINAL.value
STAGES = (QUALIFYING, SEMIFINAL, FINAL)


def tie_breaks_of(tournament: Tournament) -> list[str]:
    """The tournament's tie-breaks in order (stored checked: see ``fields.TieBreaksField``)."""
    return list(tournament.tie_breaks)


def _stages_of(stage: str | Sequence[str] | None) -> tuple[str, ...] | None:
    if stage is None:
        return None
    stages = (stage,) if isinstance(stage, str) else tuple(stage)
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        raise UserError(
            _("Unknown stage %(stage)s; choose from %(known)s."),
            field="stage",
            stage=", ".join(unknown),
            known=", ".join(STAGES),
        )
    return stages


def _standings(
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


def standings_for(
    *,
    tournament: Tournament,
    rounds: Sequence[int] | None = None,
    stage: str | Sequence[str] | None = None,
) -> list[StandingRow]:
    """Every entered player's standings row, ranked; three queries, whatever the
    tie-breaks (head-to-head and opponents' average read per-match sums instead
    of per-player ones).

    ``rounds`` limits the games counted to those round numbers, and the
    adjustments to those of the same rounds. ``stage`` (one stage or several)
    limits both to those stages' rounds; the qualifying stage also counts the
    adjustments that belong to no round.
    """
    return _standings(tournament=tournament, rounds=rounds, stages=_stages_of(stage))


def standings_shared(
    *, tournament: Tournament, stage: str | None = None, version: int | None = None
) -> list[StandingRow]:
    """``standings_for`` the whole tournament (or one stage), computed once per
    tournament version and shared by every page, export and API answer.
    ``version``: the tournament's, when the caller has read it already."""
    key = tournament_key(
        tournament=tournament, what="standings", parts=(stage or "",), version=version
    )
    return cached(
        cache="default",
        key=key,
        build=lambda: standings_for(tournament=tournament, stage=stage),
        # A new version replaces the rows anyway; this only frees memory.
        timeout=6 * 3600,
    )


def _seated_in_stages(tournament: Tournament) -> dict[str, dict[int, list[int]]]:
    """Per stage after qualifying, its tables (match id → player ids in seat order); one query."""
    seated: dict[str, dict[int, list[int]]] = {}
    for stage, match_id, player_id in (
        Seat.objects.filter(round__tournament=tournament, round__stage__in=(SEMIFINAL, FINAL))
        .order_by("round__number", "match__table", "position")
        .values_list("round__stage", "match_id", "player_id")
    ):
        seated.setdefault(stage, {}).setdefault(match_id, []).append(player_id)
    return seated


def stage_standings(
    *, tournament: Tournament, stage: str, carry_over: bool | None = None
) -> list[StandingRow]:
    """The players seated in a semi-final or final, ranked by that stage.

    With carry-over (the tournament's ``carry_over`` other than "0" unless
    given) the points of every earlier stage count too. What is still tied after the
    tie-breaks goes to the better qualifier, so places are distinct.
    """
    if stage not in (SEMIFINAL, FINAL):
        raise UserError(_("Only a semi-final or a final has stage standings."), field="stage")
    carry = tournament.carry_over != "0" if carry_over is None else carry_over
    qualifying = _standings(tournament=tournament, stages=(QUALIFYING,))
    seeds = {r.player_id: i for i, r in enumerate(qualifying)}
    tables = _seated_in_stages(tournament).get(stage, {})
    return _stage_rows(tournament=tournament, stage=stage, tables=tables, seeds=seeds, carry=carry)


def _stage_rows(
    *,
    tournament: Tournament,
    stage: str,
    tables: dict[int, list[int]],
    seeds: dict[int, int],
    carry: bool,
) -> list[StandingRow]:
    players = {p for table in tables.values() for p in table}
    # What carries over: the tournament's share; a caller's carry over a "0" one, all of it.
    share = (tournament.carry_over if tournament.carry_over != "0" else "1") if carry else "0"
    stages = STAGES[: STAGES.index(stage) + 1] if share == "1" else (stage,)
    rows = _standings(
        tournament=tournament, stages=stages, players=players, extra=(seed_key(seeds),)
    )
    if share == Tournament.CarryOver.HALF:
        earlier = _standings(
            tournament=tournament, stages=STAGES[: STAGES.index(stage)], players=players
        )
        rows = carried_half_ranked(
            tournament=tournament,
            rows=rows,
            earlier=earlier,
            tie_breaks=[*tie_breaks_of(tournament), seed_key(seeds)],
        )
    if stage == FINAL and tournament.final_first_to:
        rows = first_to_ranked(rows=rows, seed=seed_key(seeds))
    for row in rows:
        row.stage = stage
    return rows


def stage_entrants(*, tournament: Tournament, stage: str) -> list[int]:
    """Who goes to a stage, best first: every eligible (active) player in order.

    Semi-final: the qualifying standings. Final: the winner of each semi-final
    table (by the semi-final's own results), then the other semi-finalists by
    those results (``final_from`` ``stage_points``: the semi-finalists by those
    results alone); without semi-finals, the qualifying standings. Ties left
    after the tie-breaks go to the better qualifier. The caller takes as many
    as the stage seats.
    """
    qualifying = _standings(tournament=tournament, stages=(QUALIFYING,))
    if stage == SEMIFINAL:
        return [r.player_id for r in qualifying if r.active]
    if stage != FINAL:
        raise UserError(_("Only a semi-final or a final has entrants."), field="stage")
    tables = _seated_in_stages(tournament).get(SEMIFINAL)
    if not tables:
        return [r.player_id for r in qualifying if r.active]
    seeds = {r.player_id: i for i, r in enumerate(qualifying)}
    rows = _stage_rows(
        tournament=tournament, stage=SEMIFINAL, tables=tables, seeds=seeds, carry=False
    )
    active = {r.player_id for r in rows if r.active}
    order = [r.player_id for r in rows]
    if tournament.final_from == Tournament.FinalFrom.STAGE_POINTS:
        return [p for p in order if p in active]
    place = {pid: i for i, pid in enumerate(order)}
    winners: list[int] = []
    for table in tables.values():
        here = sorted((p for p in table if p in active), key=place.__getitem__)
        if here:
            winners.append(here[0])
    winners.sort(key=place.__getitem__)
    rest = [p for p in order if p in active and p not in winners]
    return [*winners, *rest]


def final_places_for(*, tournament: Tournament) -> list[StandingRow]:
    """Every entered player's final place: the final table first (by the final,
    or with carried-over points), then the other semi-finalists (by the
    semi-final), then the rest by the qualifying standings. A fixed number of
    queries (ten).

    ``rank`` is the place; players tied in the qualifying standings share one.
    """
    qualifying = _standings(tournament=tournament, stages=(QUALIFYING,))
    seated = _seated_in_stages(tournament)
    for row in qualifying:
        row.stage = QUALIFYING
    if not seated:
        return qualifying
    seeds = {r.player_id: i for i, r in enumerate(qualifying)}
    places: list[StandingRow] = []
    placed: set[int] = set()
    for stage in (FINAL, SEMIFINAL):
        tables = seated.get(stage)
        if not tables:
            continue
        rows = [
            r
            for r in _stage_rows(
                tournament=tournament,
                stage=stage,
                tables=tables,
                seeds=seeds,
                carry=tournament.carry_over != "0",
            )
            if r.player_id not in placed
        ]
        ranks_shift(rows, offset=len(places))
        places.extend(rows)
        placed.update(r.player_id for r in rows)
    rest = [r for r in qualifying if r.player_id not in placed]
    ranks_shift(rest, offset=len(places))
    places.extend(rest)
    return places
