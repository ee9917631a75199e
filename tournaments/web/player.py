"""A player's page, ``/p/<id>/``: their rating, statistics and games.

Vocabulary as in ``tournaments.selectors.player_games`` (the *record*, its *parts* per
tournament, their *tables* and *lines*), ``tournaments.player_stats`` (the
*figures*) and ``tournaments.rating_chart`` (the rating history's chart). The
page answers 404 for a player the visitor may not see
(``access.players_visible_q``: a player entered in a public tournament, or
one of the visitor's own); a visible player with no public games gets the
page saying so. The record lists public tournaments only, whoever asks; the
statistics and the rating history count what the visitor may see (public
tournaments, and the private ones they organise: design §6). The player's
club is named only to those who may see it (a private club: its organisers).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournaments.player_stats import GamePicked
from tournaments.rating_chart import rating_chart
from tournaments.ratings.engine import PROVISIONAL_GAMES
from tournaments.selectors.people import player_club_seen, player_visible
from tournaments.selectors.player_games import player_record
from tournaments.selectors.player_stats import (
    PlayerStatsShown,
    TournamentShown,
    player_stats_seen,
)
from tournaments.selectors.ratings import RatingPoint, rating_history, ratings_current


def _rating_by_tournament(
    history: list[RatingPoint], shown: PlayerStatsShown
) -> list[dict[str, Any]]:
    """The rating after each tournament's last rated game, oldest first (the
    chart's table)."""
    rows: dict[int, dict[str, Any]] = {}
    for point in history:
        row = rows.setdefault(point.tournament, {"date": point.date, "games": 0})
        row["games"] += 1
        row["rating"] = point.rating
        row["tournament"] = shown.tournaments.get(point.tournament)
    return list(rows.values())


def _where(picked: GamePicked | None, shown: PlayerStatsShown) -> TournamentShown | None:
    return None if picked is None else shown.tournaments.get(picked.tournament_id)


@require_safe
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = player_visible(user=request.user, player_id=player_id)
    if player is None:
        raise Http404
    asked = request.GET.get("page", "1")
    record = player_record(player=player, page=int(asked)) if asked.isdigit() else None
    if record is None:
        raise Http404
    parts = record.parts
    shown = player_stats_seen(player=player, user=request.user)
    history = rating_history(player_id=player.pk, user=request.user)
    stats = shown.stats
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "club": player_club_seen(user=request.user, player=player),
            "parts": parts,
            "record": record,
            "rating": ratings_current(player_ids=[player.pk]).get(player.pk),
            "provisional_games": PROVISIONAL_GAMES,
            "chart": rating_chart([(point.date, point.rating) for point in history]),
            "chart_rows": _rating_by_tournament(history, shown),
            "stats": stats,
            "by_table_size": list(stats.by_table_size.items()),
            "seasons": [(shown.seasons[pk], figures) for pk, figures in stats.seasons.items()],
            "tournaments": [
                (shown.tournaments[pk], figures) for pk, figures in stats.tournaments.items()
            ],
            "head_to_head": [
                (h, shown.opponents.get(h.opponent_id, "")) for h in stats.head_to_head
            ],
            "best_in": _where(stats.overall.best, shown),
            "worst_in": _where(stats.overall.worst, shown),
        },
    )
