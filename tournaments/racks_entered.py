"""A game's stored racks back as the scorer entered them.

Vocabulary: a *stored rack* (``StoredRack``) is a rack as the database keeps
it: the player's id, the seat (``position``), the canonical tile list
(``tiles``; blank when entered as points), whether it was *entered as tiles*,
and its face ``points`` and ``jokers`` (counted from the tiles when entered so).
A ``Rack`` row is one; so is an unsaved ``Rack`` built from a backup
document's rack. Its *entry* is the rules engine's one rack-entry type
(``scoring.rules.RackIn``): the tile list when it was entered as tiles, else
points and jokers. Every path that gives a stored game back as input (a
correction form, the API's body, the admin, the history's snapshot, a backup
scored again, the desk's versions) reads it here.

Plain Python: it reads the racks it is given, never the database.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Protocol

from scoring import rules


class StoredRack(Protocol):
    @property
    def player_id(self) -> Hashable: ...
    @property
    def position(self) -> int: ...
    @property
    def tiles(self) -> str: ...
    @property
    def entered_as_tiles(self) -> bool: ...
    @property
    def points(self) -> int: ...
    @property
    def jokers(self) -> int: ...


def game_racks_entered(*, racks: Iterable[StoredRack]) -> list[rules.RackIn]:
    """A stored game's racks back as the scorer entered them, in seat order:
    the tile list if it was entered as tiles, else points and jokers."""
    return [
        rules.RackIn(player=r.player_id, tiles=r.tiles)
        if r.entered_as_tiles
        else rules.RackIn(player=r.player_id, points=r.points, jokers=r.jokers)
        for r in sorted(racks, key=lambda r: r.position)
    ]
