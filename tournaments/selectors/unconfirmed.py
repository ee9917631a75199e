"""Games the standings may count before anyone confirmed them.

Vocabulary: an *unconfirmed* game is one whose state is not ``confirmed``
(entered and waiting for an organiser or a second entry, or disputed). The
tournament's ``standings_unconfirmed`` setting says whether the standings
*count* them (``include``, each player with one marked) or leave them out
until they are confirmed (``exclude``); ``queries`` applies the setting, this
module only counts, for the marks and the footnote under the standings
(pages, PDF) and each player's ``unconfirmed_games`` (exports, API).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.models import Game, Rack, Tournament


@dataclass(frozen=True)
class Unconfirmed:
    """How many games await confirmation, per player too, and whether they count."""

    games: int = 0
    counted: bool = True
    players: dict[int, int] = field(default_factory=dict)

    def of(self, player_id: int) -> int:
        """The player's games awaiting confirmation (0 for none)."""
        return self.players.get(player_id, 0)


def unconfirmed_of(*, tournament: Tournament, stages: Sequence[str] | None = None) -> Unconfirmed:
    """The tournament's unconfirmed games (of those ``stages``' rounds only, if
    given, as the standings of a stage count); one query."""
    games: set[int] = set()
    players: dict[int, int] = {}
    racks = Rack.objects.filter(game__match__round__tournament=tournament).exclude(
        game__state=Game.State.CONFIRMED
    )
    if stages is not None:
        racks = racks.filter(game__match__round__stage__in=stages)
    for game_id, player_id in racks.order_by().values_list("game_id", "player_id"):
        games.add(game_id)
        players[player_id] = players.get(player_id, 0) + 1
    return Unconfirmed(
        games=len(games),
        counted=tournament.standings_unconfirmed != Tournament.Unconfirmed.EXCLUDE,
        players=players,
    )
