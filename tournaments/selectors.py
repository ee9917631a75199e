"""Selectors: every read that a page, the API or a PDF needs, planned.

Vocabulary: a *standings row* is one entered player's line in the
standings: game score (sum of their game scores), adjustments, total score
(the two together), games played, games won, rack total (the sum of their rack
values: fewer is better) and table points. *Rank* is shared by players whose
ranking key and every tie-break are equal.

* **scope**: which games and adjustments a standings table counts: all of them
  (the default), some round numbers, or some *stages*. The qualifying stage
  also counts the adjustments that belong to no round (an organiser's penalty
  for the event); a semi-final or final counts only its own rounds.
* **ranking key**: total score, table points, or (leagues) the average score
  per game, where players below the tournament's minimum number of games rank
  after everyone who reached it.
* **tie-breaks** (``Tournament.tie_breaks``, in order): ``wins``,
  ``table_points``, ``score``, ``rack_total`` (fewer is better), ``games``,
  ``average``, ``head_to_head`` and ``opponents_average``.
* **head-to-head**: among the players still tied when it is applied, each
  table two of them shared counts +1 for the one who did better there (more
  points over that match's games; table points when the tournament ranks by
  them) and −1 for the other. Players who never met stay tied.
* **opponents' average**: the mean, over every match a player played and
  every opponent at that table, of that opponent's average score per game.
  Like a Buchholz score: a tougher field ranks higher.
* **seed**: a player's place in the qualifying standings; it settles what is
  still tied in a semi-final or final, where places must be distinct.
* **final places**: the final table first, then the other semi-finalists, then
  everyone else by the qualifying standings.

Each selector runs a fixed number of queries, whatever the size of the
tournament; tests pin the counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Field, Prefetch, Q, QuerySet, Sum

from scoring.errors import UserError, _

from . import seating
from .models import (
    Adjustment,
    Club,
    Entry,
    Game,
    Match,
    Player,
    Rack,
    Round,
    Seat,
    Tournament,
    match_token_plausible,
)

ZERO = Decimal(0)
CENT = Decimal("0.01")
HALF_CENT = 0.005  # totals closer than this are equal

QUALIFYING = Round.Stage.QUALIFYING.value
SEMIFINAL = Round.Stage.SEMIFINAL.value
FINAL = Round.Stage.FINAL.value
STAGES = (QUALIFYING, SEMIFINAL, FINAL)


@dataclass
class StandingRow:
    player_id: int
    name: str
    club: str
    withdrawn: bool = False
    game_score: Decimal = ZERO
    adjustments: Decimal = ZERO
    games: int = 0
    wins: int = 0
    rack_total: int = 0
    table_points: Decimal = ZERO
    rank: int = 0
    tie_values: dict[str, Any] = field(default_factory=dict)
    # Entered but checked out for the next round (not withdrawn).
    absent: bool = False
    # Final places only: the stage whose results placed this row.
    stage: str = ""
    # Ranked by average but short of the tournament's minimum number of games:
    # listed after everyone who reached it.
    below_min_games: bool = False

    @property
    def score(self) -> Decimal:
        return self.game_score + self.adjustments

    @property
    def average(self) -> Decimal:
        """Total score (adjustments included, so a penalty counts) per game played."""
        return (self.score / self.games).quantize(CENT) if self.games else ZERO

    @property
    def active(self) -> bool:
        return not (self.withdrawn or self.absent)


# Each tie-break maps a row to a value where larger ranks higher.
TIE_BREAKS: dict[str, Callable[[StandingRow], Any]] = {
    "score": lambda r: r.score,
    "wins": lambda r: r.wins,
    "table_points": lambda r: r.table_points,
    "rack_total": lambda r: -r.rack_total,
    "games": lambda r: r.games,
    "average": lambda r: r.average,
    "opponents_average": lambda r: r.tie_values.get("opponents_average", ZERO),
}
HEAD_TO_HEAD = "head_to_head"
# Tie-breaks that need per-match sums (read instead of per-player ones, when configured).
MEETING_TIE_BREAKS = frozenset({HEAD_TO_HEAD, "opponents_average"})

TieBreak = str | Callable[[StandingRow], Any]


def tie_breaks_of(tournament: Tournament) -> list[str]:
    """The tournament's tie-breaks in order (stored checked: see ``fields.TieBreaksField``)."""
    return list(tournament.tie_breaks)


def _primary_key(tournament: Tournament) -> Callable[[StandingRow], Any]:
    if tournament.ranking == Tournament.Ranking.TABLE_POINTS:
        return lambda r: r.table_points
    if tournament.ranking == Tournament.Ranking.AVERAGE:
        # Players below the minimum number of games rank after everyone who
        # reached it, then by average.
        return lambda r: (r.games >= tournament.min_games, r.average)
    return lambda r: r.score


@dataclass
class Meetings:
    """Per-match results: who sat at which match and what they made of it."""

    by_match: dict[int, list[tuple[int, Any]]] = field(default_factory=dict)
    by_player: dict[int, list[int]] = field(default_factory=dict)


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
    """Build, restrict to ``players`` and rank; three queries."""
    rows: dict[int, StandingRow] = {}
    # Plain values, not model instances: three instances per player cost more
    # than all the rest of the standings for a large field.
    for player_id, name, club, status in (
        Entry.objects.filter(tournament=tournament)
        .order_by("player__name", "player_id")
        .values_list("player_id", "player__name", "player__club__name", "status")
    ):
        if players is not None and player_id not in players:
            continue
        rows[player_id] = StandingRow(
            player_id=player_id,
            name=name,
            club=club or "",
            withdrawn=status == Entry.Status.WITHDRAWN,
            absent=status == Entry.Status.ABSENT,
        )

    racks = Rack.objects.filter(game__match__round__tournament=tournament)
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
    for agg in adjustments.order_by().values("player_id").annotate(points=Sum("points")):
        if agg["player_id"] in rows:
            rows[agg["player_id"]].adjustments = agg["points"] or ZERO
    if meetings is not None:
        _opponents_average(rows=rows, meetings=meetings)  # averages include adjustments
    if tournament.ranking == Tournament.Ranking.AVERAGE:
        for row in rows.values():
            row.below_min_games = row.games < tournament.min_games

    return standings_rank(
        rows=list(rows.values()),
        primary=_primary_key(tournament),
        tie_breaks=tie_breaks,
        meetings=meetings,
    )


def _totals_by_player(*, racks: QuerySet[Rack], rows: dict[int, StandingRow]) -> None:
    """Sum each player's games in the database; one query."""
    for agg in (
        racks.order_by()
        .values("player_id")
        .annotate(
            game_score=Sum("score"),
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
            s=Sum("score", output_field=raw),
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


def _opponents_average(*, rows: dict[int, StandingRow], meetings: Meetings) -> None:
    # Per match the sum of its players' averages; a player's opponents are
    # that sum less their own average. Floats here, the cent at the end.
    averages = {pid: float(row.score) / row.games for pid, row in rows.items() if row.games}
    tables: dict[int, tuple[float, int]] = {}
    for match_id, seats in meetings.by_match.items():
        known = [averages[p] for p, _value in seats if p in averages]
        tables[match_id] = (sum(known), len(known))
    for pid, row in rows.items():
        total = 0.0
        count = 0
        own = averages.get(pid)
        for match_id in meetings.by_player.get(pid, ()):
            table_total, table_count = tables[match_id]
            if own is not None:
                table_total -= own
                table_count -= 1
            total += table_total
            count += table_count
        row.tie_values["opponents_average"] = (
            Decimal(total / count).quantize(CENT) if count else ZERO
        )


def _head_to_head(group: Sequence[StandingRow], meetings: Meetings | None) -> dict[int, int]:
    ids = {r.player_id for r in group}
    result = dict.fromkeys(ids, 0)
    if meetings is None:
        return result
    shared = {m for pid in ids for m in meetings.by_player.get(pid, ())}
    for match_id in shared:
        present = [(p, v) for p, v in meetings.by_match[match_id] if p in ids]
        for (a, va), (b, vb) in itertools.combinations(present, 2):
            if abs(va - vb) >= HALF_CENT:
                better, worse = (a, b) if va > vb else (b, a)
                result[better] += 1
                result[worse] -= 1
    return result


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


def standings_rank(
    *,
    rows: list[StandingRow],
    primary: Callable[[StandingRow], Any],
    tie_breaks: Sequence[TieBreak],
    meetings: Meetings | None = None,
) -> list[StandingRow]:
    """Sort rows best first and give fully tied rows the same rank.

    The rows are split into groups that tie on the ranking key, then each group
    by the first tie-break, and so on: head-to-head needs to know who is still
    tied with whom. Fully tied rows share a rank and are listed by name.
    """
    rows.sort(key=lambda r: (r.name.casefold(), r.player_id))
    groups: list[list[StandingRow]] = [rows] if rows else []
    for tie_break in [primary, *tie_breaks]:
        refined: list[list[StandingRow]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if tie_break == HEAD_TO_HEAD:
                h2h = _head_to_head(group, meetings)
                for row in group:
                    row.tie_values[HEAD_TO_HEAD] = h2h[row.player_id]
                values = [h2h[row.player_id] for row in group]
            else:
                key = TIE_BREAKS[tie_break] if isinstance(tie_break, str) else tie_break
                values = [key(row) for row in group]
            ordered = sorted(zip(values, group, strict=True), key=lambda vr: vr[0], reverse=True)
            for _value, tied in itertools.groupby(ordered, key=lambda vr: vr[0]):
                refined.append([row for _v, row in tied])
        groups = refined
    ranked: list[StandingRow] = []
    for group in groups:
        rank = len(ranked) + 1
        for row in group:
            row.rank = rank
            ranked.append(row)
    rows[:] = ranked
    return rows


# --------------------------------------------------------------------------
# Stages: semi-finals, the final and the final places
# --------------------------------------------------------------------------


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


def _seed_key(seeds: dict[int, int]) -> Callable[[StandingRow], Any]:
    return lambda r: -seeds.get(r.player_id, len(seeds))


def stage_standings(
    *, tournament: Tournament, stage: str, carry_over: bool | None = None
) -> list[StandingRow]:
    """The players seated in a semi-final or final, ranked by that stage.

    With carry-over (the tournament's ``final_carry_over`` unless given) the
    points of every earlier stage count too. What is still tied after the
    tie-breaks goes to the better qualifier, so places are distinct.
    """
    if stage not in (SEMIFINAL, FINAL):
        raise UserError(_("Only a semi-final or a final has stage standings."), field="stage")
    carry = tournament.final_carry_over if carry_over is None else carry_over
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
    stages = STAGES[: STAGES.index(stage) + 1] if carry else (stage,)
    rows = _standings(
        tournament=tournament, stages=stages, players=players, extra=(_seed_key(seeds),)
    )
    for row in rows:
        row.stage = stage
    return rows


def stage_entrants(*, tournament: Tournament, stage: str) -> list[int]:
    """Who goes to a stage, best first: every eligible (active) player in order.

    Semi-final: the qualifying standings. Final: the winner of each semi-final
    table (by the semi-final's own results), then the other semi-finalists by
    those results; without semi-finals, the qualifying standings. Ties left
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
                carry=tournament.final_carry_over,
            )
            if r.player_id not in placed
        ]
        _ranks_shift(rows, offset=len(places))
        places.extend(rows)
        placed.update(r.player_id for r in rows)
    rest = [r for r in qualifying if r.player_id not in placed]
    _ranks_shift(rest, offset=len(places))
    places.extend(rest)
    return places


def _ranks_shift(rows: list[StandingRow], *, offset: int) -> None:
    """Renumber ranks from ``offset + 1`` in list order, keeping shared ranks shared."""
    previous: int | None = None
    for index, row in enumerate(rows):
        old = row.rank
        row.rank = rows[index - 1].rank if old == previous else offset + index + 1
        previous = old


# --------------------------------------------------------------------------
# Other reads
# --------------------------------------------------------------------------


def tournament_by_ref(*, ref: str) -> Tournament:
    """A tournament by slug, or by id when ``ref`` is a number (raises DoesNotExist)."""
    qs = Tournament.objects.select_related("club", "owner")
    found = qs.filter(slug=ref).first()
    if found is None and ref.isdigit():
        found = qs.filter(pk=int(ref)).first()
    if found is None:
        raise Tournament.DoesNotExist(ref)
    return found


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


def entries_of(*, tournament: Tournament) -> QuerySet[Entry]:
    """A tournament's entries with their players and clubs, by name."""
    return (
        Entry.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by("player__name", "player_id")
    )


def adjustments_of(*, tournament: Tournament) -> QuerySet[Adjustment]:
    """A tournament's adjustments (byes included), oldest first."""
    return (
        Adjustment.objects.filter(tournament=tournament)
        .select_related("player", "round")
        .order_by("created", "id")
    )


def players_not_entered(*, tournament: Tournament) -> QuerySet[Player]:
    return Player.objects.exclude(entries__tournament=tournament).order_by("name", "id")


def clubs_listed() -> QuerySet[Club]:
    """Every club with ``player_count``."""
    return Club.objects.annotate(player_count=Count("players")).order_by("name")


def tournaments_visible(*, user: Any) -> QuerySet[Tournament]:
    """Tournaments a user may see: public ones, plus their own (staff: all)."""
    qs = Tournament.objects.select_related("club", "owner")
    if user is not None and user.is_authenticated:
        if user.is_staff:
            return qs
        return qs.filter(Q(public=True) | Q(owner=user))
    return qs.filter(public=True)


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
                Prefetch(
                    "seats", queryset=Seat.objects.select_related("player").order_by("position")
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


def match_detail(*, match_id: int | None = None, token: str | None = None) -> Match:
    """One match with its round, tournament, seats and games (raises DoesNotExist)."""
    qs = Match.objects.select_related("round__tournament").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch(
            "games",
            queryset=Game.objects.order_by("number").prefetch_related(
                Prefetch(
                    "racks", queryset=Rack.objects.select_related("player").order_by("position")
                )
            ),
        ),
    )
    if token is not None:
        if not match_token_plausible(token):
            raise Match.DoesNotExist("not a match token")
        return qs.get(token=token)
    if match_id is None:
        raise Match.DoesNotExist("a match id or token is needed")
    return qs.get(pk=match_id)
