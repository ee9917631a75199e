"""Translating a backup's source ids to the ids its rows get on restore.

Vocabulary: an *id map* takes a source id of the file (a player, entry,
round, match, game or adjustment) to the id of the row restored from it. The audit
trail refers to rows by id twice over: an event's *object id* (looked up by
the event's object type) and the players named in its old and new values. A
*foreign* id in a value names a row of the source database the file does not
hold (a club, an owner): restored, it names nothing.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import models

from tournaments.models import Adjustment, Club, Entry, Player, Round, Tournament

IdMap = dict[int, int]
# Whose fields an audit value's keys are, by the event's object type.
_VALUE_MODELS: dict[str, type[models.Model]] = {
    "settings": Tournament,
    "tournament": Tournament,
    "entry": Entry,
    "round": Round,
    "seats": Round,
    "adjustment": Adjustment,
    "player": Player,
    "club": Club,
}
# Kept in the trail for the software (a replaced link's digest): never taken from a file.
_SECRET_KEYS = frozenset({"digest"})

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


@cache
def _foreign_keys(kind: str) -> frozenset[str]:
    """The keys of an event's values that name rows by id, other than players and
    rounds (which the file's own maps and numbers translate)."""
    model = _VALUE_MODELS.get(kind)
    if model is None:
        return frozenset()
    return frozenset(
        f.name
        for f in model._meta.concrete_fields
        if f.is_relation and f.name not in ("player", "round")
    )


def audit_value_restored(value: Any, *, action: str, players: IdMap, rounds: set[int]) -> Any:
    """An audit value as a restore stores it: players by their restored ids (one
    the file does not hold: none), a round by a number the file holds (else
    none), other rows of the source database named by id dropped to none, and a
    replaced link's digest left out (``selectors.matches.match_replaced`` reads
    digests only from links replaced here)."""
    translated = _players_known(value, players)
    if not isinstance(translated, dict):
        return translated
    foreign = _foreign_keys(action.split(".", 1)[0])
    out: dict[str, Any] = {}
    for key, item in translated.items():
        if key in _SECRET_KEYS:
            continue
        # A row of the source database, or a round the file does not hold: none.
        unknown = key in foreign or (key == "round" and item not in rounds)
        out[key] = None if unknown and isinstance(item, int) else item
    return out


def _players_known(value: Any, players: IdMap) -> Any:
    """``ids_translated``, with a player the file does not hold named by none."""
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            if key == "player" and isinstance(item, int):
                out[key] = players.get(item)
            elif key == "players" and isinstance(item, list):
                out[key] = [
                    players.get(p) if isinstance(p, int) else _players_known(p, players)
                    for p in item
                ]
            else:
                out[key] = _players_known(item, players)
        return out
    if isinstance(value, list):
        return [_players_known(item, players) for item in value]
    return value
