"""Games the standings may count before anyone confirmed them.

Vocabulary: an *unconfirmed* game is one whose state is not ``confirmed``
(entered and waiting for an organiser or a second entry, or disputed). The
tournament's ``standings_unconfirmed`` setting says whether the standings
*count* them (``include``, each player with one marked) or leave them out
until they are confirmed (``exclude``); ``queries`` applies the setting, this
module only counts, for the marks and the footnote under the standings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Game, Rack, Tournament


@dataclass(frozen=True)
class Unconfirmed:
    """How many games await confirmation, per player too, and whether they count."""

    games: int = 0
    counted: bool = True
    players: dict[int, int] = field(default_factory=dict)


def unconfirmed_of(*, tournament: Tournament) -> Unconfirmed:
    """The tournament's unconfirmed games; one query."""
    games: set[int] = set()
    players: dict[int, int] = {}
    for game_id, player_id in (
        Rack.objects.filter(game__match__round__tournament=tournament)
        .exclude(game__state=Game.State.CONFIRMED)
        .order_by()
        .values_list("game_id", "player_id")
    ):
        games.add(game_id)
        players[player_id] = players.get(player_id, 0) + 1
    return Unconfirmed(
        games=len(games),
        counted=tournament.standings_unconfirmed != Tournament.Unconfirmed.EXCLUDE,
        players=players,
    )
