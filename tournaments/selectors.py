"""Selectors: every read that a page, the API or a PDF needs, planned.

Vocabulary: a *standings row* is one entered player's line in the
standings: game score (sum of their game scores), adjustments, total score
(the two together), games played, games won, rack total (the sum of their rack
values: fewer is better) and table points. *Rank* is shared by players whose
ranking key and every tie-break are equal.

Each selector runs a fixed number of queries, whatever the size of the
tournament; tests pin the counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from .models import Adjustment, Entry, Game, Match, Rack, Round, Seat, Tournament

ZERO = Decimal(0)


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

    @property
    def score(self) -> Decimal:
        return self.game_score + self.adjustments

    @property
    def average(self) -> Decimal:
        return (self.game_score / self.games).quantize(Decimal("0.01")) if self.games else ZERO


# Each tie-break maps a row to a value where larger ranks higher.
TIE_BREAKS: dict[str, Callable[[StandingRow], Any]] = {
    "score": lambda r: r.score,
    "wins": lambda r: r.wins,
    "table_points": lambda r: r.table_points,
    "rack_total": lambda r: -r.rack_total,
    "games": lambda r: r.games,
    "average": lambda r: r.average,
}


def tie_breaks_of(tournament: Tournament) -> list[str]:
    return [t.strip() for t in tournament.tie_breaks.split(",") if t.strip() in TIE_BREAKS]


def _primary_key(tournament: Tournament) -> Callable[[StandingRow], Any]:
    if tournament.ranking == Tournament.Ranking.TABLE_POINTS:
        return lambda r: r.table_points
    if tournament.ranking == Tournament.Ranking.AVERAGE:
        # Players below the minimum number of games rank after everyone who
        # reached it, then by average.
        return lambda r: (r.games >= tournament.min_games, r.average)
    return lambda r: r.score


def standings_for(
    *, tournament: Tournament, rounds: Sequence[int] | None = None
) -> list[StandingRow]:
    """Every entered player's standings row, ranked; three queries.

    ``rounds`` limits the games counted to those round numbers (a stage's
    standings); adjustments are then limited to the same rounds.
    """
    rows: dict[int, StandingRow] = {}
    for entry in (
        Entry.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by("player__name", "player_id")
    ):
        rows[entry.player_id] = StandingRow(
            player_id=entry.player_id,
            name=entry.player.name,
            club=entry.player.club.name if entry.player.club else "",
            withdrawn=entry.status == Entry.Status.WITHDRAWN,
        )

    racks = Rack.objects.filter(game__match__round__tournament=tournament)
    adjustments = Adjustment.objects.filter(tournament=tournament)
    if rounds is not None:
        racks = racks.filter(game__match__round__number__in=rounds)
        adjustments = adjustments.filter(round__number__in=rounds)
    for agg in racks.values("player_id").annotate(
        game_score=Sum("score"),
        games=Count("id"),
        wins=Count("id", filter=Q(winner=True)),
        rack_total=Sum("rack_value"),
        table_points=Sum("table_points"),
    ):
        row = rows.get(agg["player_id"])
        if row is None:  # played, then removed from the entries: still counted
            continue
        row.game_score = agg["game_score"] or ZERO
        row.games = agg["games"]
        row.wins = agg["wins"]
        row.rack_total = agg["rack_total"] or 0
        row.table_points = agg["table_points"] or ZERO
    for agg in adjustments.values("player_id").annotate(points=Sum("points")):
        if agg["player_id"] in rows:
            rows[agg["player_id"]].adjustments = agg["points"] or ZERO

    return standings_rank(
        rows=list(rows.values()),
        primary=_primary_key(tournament),
        tie_breaks=tie_breaks_of(tournament),
    )


def standings_rank(
    *,
    rows: list[StandingRow],
    primary: Callable[[StandingRow], Any],
    tie_breaks: Sequence[str],
) -> list[StandingRow]:
    """Sort rows best first and give fully tied rows the same rank."""
    keys = [primary, *(TIE_BREAKS[t] for t in tie_breaks)]

    def key(row: StandingRow) -> tuple[Any, ...]:
        return tuple(k(row) for k in keys)

    rows.sort(key=lambda r: r.name.casefold())
    rows.sort(key=key, reverse=True)
    previous: tuple[Any, ...] | None = None
    for index, row in enumerate(rows, start=1):
        current = key(row)
        row.rank = rows[index - 2].rank if current == previous else index
        previous = current
    return rows


def tournaments_visible(*, user: Any) -> QuerySet[Tournament]:
    """Tournaments a user may see: public ones, plus their own (staff: all)."""
    qs = Tournament.objects.select_related("club", "owner")
    if user is not None and user.is_authenticated:
        if user.is_staff:
            return qs
        return qs.filter(Q(public=True) | Q(owner=user))
    return qs.filter(public=True)


def rounds_for(*, tournament: Tournament) -> QuerySet[Round]:
    """A tournament's rounds with their matches, seats and games; four queries."""
    return tournament.round_set.order_by("number").prefetch_related(
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
        return qs.get(token=token)
    if match_id is None:
        raise Match.DoesNotExist("a match id or token is needed")
    return qs.get(pk=match_id)
