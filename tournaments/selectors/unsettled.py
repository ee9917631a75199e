"""Games the organisers still have to confirm or settle, as the desk reads them.

Vocabulary: an *unsettled* game is one in state ``entered`` (to confirm:
entered through a match link under ``confirmation = organiser``, or once under
double entry) or ``disputed`` (two entries differ; an organiser keeps one).
The desk lists them with their racks and the match's seats (``games_unsettled``),
counts them on its front page (``unsettled_counts``) and finds the one a
confirmation names (``game_to_confirm``); ``unconfirmed`` counts the same games
for the standings' marks.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import Game, Rack, Seat, Tournament

UNSETTLED = (Game.State.ENTERED, Game.State.DISPUTED)


def games_unsettled(*, tournament: Tournament) -> QuerySet[Game]:
    """The tournament's games to confirm or settle, by round, table and number;
    a fixed number of queries (a disputed game's second version costs its own)."""
    return (
        Game.objects.filter(match__round__tournament=tournament, state__in=UNSETTLED)
        .select_related("match__round", "recorded_by")
        .prefetch_related(
            Prefetch("racks", queryset=Rack.objects.select_related("player").order_by("position")),
            Prefetch(
                "match__seats",
                queryset=Seat.objects.select_related("player").order_by("position"),
            ),
        )
        .order_by("match__round__number", "match__table", "number")
    )


def unsettled_counts(*, tournament: Tournament) -> dict[str, Any]:
    """What the desk's front page says about confirmation, in one query: the
    games to confirm and disputed. Counted whatever the setting: a tournament
    switched back to confirming nothing still holds the games that waited."""
    counts = Game.objects.filter(match__round__tournament=tournament).aggregate(
        entered=Count("pk", filter=Q(state=Game.State.ENTERED)),
        disputed=Count("pk", filter=Q(state=Game.State.DISPUTED)),
    )
    return {
        "to_confirm": counts,
        "confirming": tournament.confirmation != Tournament.Confirmation.NONE,
    }


def game_to_confirm(*, tournament: Tournament, game_id: int) -> Game | None:
    """The tournament's game with that id, with its match and round (none: gone)."""
    return (
        Game.objects.select_related("match__round")
        .filter(pk=game_id, match__round__tournament=tournament)
        .first()
    )
