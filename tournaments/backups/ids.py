"""Translating a backup's source ids to the ids its rows get on restore.

Vocabulary: an *id map* takes a source id of the file (a player, entry,
round, match, game or adjustment) to the id of the row restored from it. The audit
trail refers to rows by id twice over: an event's *object id* (looked up by
the event's object type) and the players named in its old and new values.
"""

from __future__ import annotations

from typing import Any

IdMap = dict[int, int]

# Which id map an audit event's object id is looked up in, by its object type.
_OBJECT_MAPS = {
    "game": "games",
    "adjustment": "adjustments",
    "match": "matches",
    "round": "rounds",
    "seats": "rounds",
    "entry": "entries",
}


def ids_translated(value: Any, players: IdMap) -> Any:
    """Audit values with their players' ids translated (``player``, ``players``,
    at any depth, as game snapshots and entry values hold them)."""
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            if key == "player" and isinstance(item, int):
                out[key] = players.get(item, item)
            elif key == "players" and isinstance(item, list):
                out[key] = [
                    players.get(p, p) if isinstance(p, int) else ids_translated(p, players)
                    for p in item
                ]
            else:
                out[key] = ids_translated(item, players)
        return out
    if isinstance(value, list):
        return [ids_translated(item, players) for item in value]
    return value


def object_id_translated(
    *, action: str, object_id: int | None, maps: dict[str, IdMap], tournament: int
) -> int | None:
    kind = action.split(".", 1)[0]
    if object_id is None:
        return None
    if kind in ("tournament", "settings"):
        return tournament
    name = _OBJECT_MAPS.get(kind)
    return maps[name].get(object_id) if name else None
