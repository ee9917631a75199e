"""Each player's game scores, for the tie-breaks that compare single games.

Vocabulary: a *game score* is what one game brought a player, its score plus
its bonus (``ranking``'s ``best_game`` and ``countback`` read them best first).
"""

from __future__ import annotations

from decimal import Decimal

from django.db.models import F, QuerySet

from tournaments.models import Rack
from tournaments.standings.ranking import CENT, StandingRow


def game_scores_fill(*, racks: QuerySet[Rack], rows: dict[int, StandingRow]) -> None:
    """Set every row's ``game_scores``, best first; one query."""
    scores: dict[int, list[Decimal]] = {}
    for player_id, value in (
        racks.order_by().annotate(value=F("score") + F("bonus")).values_list("player_id", "value")
    ):
        if player_id in rows:
            # SQLite adds decimals as floats: back to the cent.
            scores.setdefault(player_id, []).append(Decimal(str(value)).quantize(CENT))
    for player_id, values in scores.items():
        rows[player_id].game_scores = tuple(sorted(values, reverse=True))
