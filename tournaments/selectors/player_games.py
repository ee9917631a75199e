"""A player's record: every game they played in public tournaments.

Vocabulary: a player's *record* is one *part* per public tournament they have
games in (newest first), each part its *tables* (one per match: round, table,
the *opponents* seated with them) and each table its *lines* (one per game:
the player's rack value, score and bonus, and the *running total* of
score + bonus over the tournament so far). A part's *total* adds the
tournament's adjustments of the player to the games, as the standings do. A
part's *place* is the player's rank in the tournament's current ranking
(``standings.ranking_current``: the same order every page shows), with the
stage that order comes from.

Only public tournaments are read, whoever asks (their organisers included):
the page is a public one, and a private tournament never shows on it. A game
is left out when the tournament's public pages leave it out: one waiting for
its second entry (double entry), and one not confirmed when the standings
exclude unconfirmed games. Three or four queries whatever the number of
games: the racks (with their games, matches, rounds and tournaments), the
seats of those matches (with their players), the adjustments, and one more
for the tournaments' versions (the current rankings are kept per version; a
ranking not kept yet is read once).

The record comes in *pages* of ``RECORD_TOURNAMENTS`` tournaments (newest
first): a federation's player with fifty tournaments behind them is shown
five at a time, so a page reads and draws a few hundred games, not thousands.
One query more finds the tournaments of the page.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate

from tournaments.access import game_racks_withheld_q, tournaments_visible_q
from tournaments.models import (
    Adjustment,
    AuditEvent,
    Game,
    Match,
    Player,
    Rack,
    Seat,
    Tournament,
)
from tournaments.selectors.standings import ranking_current


@dataclass(frozen=True)
class GameLine:
    number: int
    ending: str
    rack_value: int
    score: Decimal
    bonus: Decimal
    won: bool
    running: Decimal


@dataclass
class TablePlayed:
    match: Match
    opponents: list[Player]
    lines: list[GameLine] = field(default_factory=list)


@dataclass
class RecordPart:
    tournament: Tournament
    tables: list[TablePlayed] = field(default_factory=list)
    games: int = 0
    wins: int = 0
    game_total: Decimal = Decimal(0)
    adjustments: Decimal = Decimal(0)
    # The player's rank in the current ranking (None: not in it), and what
    # that order is called (untranslated: ``standings.current``'s labels).
    place: int | None = None
    place_label: str = ""
    place_named: bool = False

    @property
    def total(self) -> Decimal:
        return self.game_total + self.adjustments


def _seen_by_anyone() -> Any:
    """The tournaments a visitor who is not logged in sees (a subquery, not a join)."""
    return Tournament.objects.filter(tournaments_visible_q(user=None)).values("pk")


def _shown_racks(player: Player) -> QuerySet[Rack]:
    """The player's racks the public pages show: in public tournaments, but
    for a game waiting for its second entry (double entry) and one not
    confirmed when the standings exclude unconfirmed games."""
    left_out = game_racks_withheld_q(prefix="game__") | (
        Q(game__match__round__tournament__standings_unconfirmed=Tournament.Unconfirmed.EXCLUDE)
        & ~Q(game__state=Game.State.CONFIRMED)
    )
    return Rack.objects.filter(
        player=player, game__match__round__tournament__in=_seen_by_anyone()
    ).exclude(left_out)


RECORD_TOURNAMENTS = 5


@dataclass(frozen=True)
class PlayerRecord:
    """One page of a player's record (its parts), the page's number (from 1),
    and the whole record's pages, tournaments, games and wins."""

    parts: list[RecordPart]
    page: int
    pages: int
    tournaments: int
    games: int
    wins: int


def player_record(*, player: Player, page: int = 1) -> PlayerRecord | None:
    """Page ``page`` of the player's games in public tournaments, per
    tournament (newest first); None for a page the record does not have (the
    first page of an empty record is there, empty)."""
    shown = _shown_racks(player)
    via = "game__match__round__tournament"
    counted = list(
        shown.values(f"{via}_id")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(winner=True)),
            # One day a tournament: an aggregate, so the grouping is by the tournament alone.
            day=Max(Coalesce(f"{via}__date", TruncDate(f"{via}__created", tzinfo=dt.UTC))),
        )
        .order_by("-day", f"-{via}_id")
        .values_list(f"{via}_id", "games", "wins")
    )
    pages = -(-len(counted) // RECORD_TOURNAMENTS)
    if not 1 <= page <= max(pages, 1):
        return None
    chosen = [t for t, _, _ in counted[(page - 1) * RECORD_TOURNAMENTS : page * RECORD_TOURNAMENTS]]
    whole = {
        "page": page,
        "pages": pages,
        "tournaments": len(counted),
        "games": sum(games for _, games, _ in counted),
        "wins": sum(wins for _, _, wins in counted),
    }
    racks = list(
        shown.filter(**{f"{via}_id__in": chosen}).select_related("game__match__round__tournament")
    )
    if not racks:
        return PlayerRecord(parts=[], **whole)
    # Tournaments newest first (the order above); games in play order.
    place = {t: i for i, t in enumerate(chosen)}
    racks.sort(
        key=lambda r: (
            place[r.game.match.round.tournament_id],
            r.game.match.round.number,
            r.game.number,
        )
    )
    opponents: dict[int, list[Player]] = defaultdict(list)
    seats = Seat.objects.filter(match_id__in={r.game.match_id for r in racks}).select_related(
        "player"
    )
    for seat in seats.order_by("match_id", "position"):
        if seat.player_id != player.pk:
            opponents[seat.match_id].append(seat.player)
    parts: dict[int, RecordPart] = {}
    for rack in racks:
        match = rack.game.match
        tournament = match.round.tournament
        part = parts.setdefault(tournament.pk, RecordPart(tournament=tournament))
        if not part.tables or part.tables[-1].match.pk != match.pk:
            part.tables.append(TablePlayed(match=match, opponents=opponents[match.pk]))
        part.games += 1
        part.wins += int(rack.winner)
        part.game_total += rack.score + rack.bonus
        part.tables[-1].lines.append(
            GameLine(
                number=rack.game.number,
                ending=rack.game.get_ending_display(),
                rack_value=rack.rack_value,
                score=rack.score,
                bonus=rack.bonus,
                won=rack.winner,
                running=part.game_total,
            )
        )
    adjustments = Adjustment.objects.filter(player=player, tournament_id__in=parts.keys())
    for tournament_id, points in adjustments.values_list("tournament_id", "points"):
        parts[tournament_id].adjustments += points
    _places_fill(player=player, parts=parts)
    return PlayerRecord(parts=list(parts.values()), **whole)


def _places_fill(*, player: Player, parts: dict[int, RecordPart]) -> None:
    """Each part's place in its tournament's current ranking; one query for the
    versions, then each ranking from the cache (read once when missing)."""
    versions = dict(
        AuditEvent.objects.filter(tournament_id__in=list(parts))
        .order_by()
        .values("tournament_id")
        .annotate(latest=Max("id"))
        .values_list("tournament_id", "latest")
    )
    for tournament_id, part in parts.items():
        tournament = part.tournament
        ranking = ranking_current(tournament=tournament, version=versions.get(tournament_id, 0))
        part.place = next((r.rank for r in ranking.rows if r.player_id == player.pk), None)
        part.place_label = ranking.label
        part.place_named = ranking.staged or ranking.decided or tournament.semifinal_players >= 2
