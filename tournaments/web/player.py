"""A player's page, ``/p/<id>/``: their games in public tournaments.

Vocabulary as in ``tournaments.selectors.player_games`` (the *record*, its *parts* per
tournament, their *tables* and *lines*). The page answers 404 for a player the
visitor may not see (``access.players_visible_q``: a player entered in a
public tournament, or one of the visitor's own); a visible player with no
public games gets the page saying so. Private tournaments never show here.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.selectors.people import player_visible
from tournaments.selectors.player_games import player_record


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = player_visible(user=request.user, player_id=player_id)
    if player is None:
        raise Http404
    parts = player_record(player=player)
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "parts": parts,
            "games": sum(part.games for part in parts),
            "wins": sum(part.wins for part in parts),
        },
    )
