"""Rows of the game-recording path, read and written with written-out SQL.

Vocabulary: a *row reader* (``RowReader``) names a model's columns for a
hand-written SELECT and turns that part of a result row back into a model
instance, each value converted exactly as the ORM converts it (dates,
decimals, JSON, booleans), so what it builds is what a queryset would give.
``rows_insert`` writes new instances as ``bulk_create`` would: every value
prepared by its field (defaults, ``auto_now_add``, JSON, decimals).

Why not the ORM here: building a query costs the ORM 0.3 to 1 ms of Python,
ten to forty times what the database then takes to answer it, and every game a
table's phone sends ran six such reads (its token, the seats twice, the game
numbers, the tournament, on PostgreSQL the match's lock) and four inserts.
The token's read brings the seats along, so a recorded game makes one round
trip before its transaction.
Profiling 2,000 games sent by 16 clients put them first, ahead of scoring.
Only those reads and writes live here; everything else asks the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

from tournaments.models import Game, Match, Player, Round, Seat, Tournament

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


class RowReader(Generic[M]):
    """``model``'s columns (``fields``: a subset, by name) in a SELECT and back."""

    def __init__(self, model: type[M], fields: Sequence[str] = ()) -> None:
        self.model = model
        # from_db takes a subset in the model's own field order.
        self.fields = [f for f in model._meta.concrete_fields if not fields or f.name in fields]
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self._converters: dict[str, list[tuple[Any, list[Converter]]]] = {}
        self._columns: dict[str, str] = {}

    def table(self, db: BaseDatabaseWrapper) -> str:
        return str(db.ops.quote_name(self.model._meta.db_table))

    def columns(self, alias: str, db: BaseDatabaseWrapper) -> str:
        key = f"{db.vendor}:{alias}"
        known = self._columns.get(key)
        if known is None:
            quote = db.ops.quote_name
            known = ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)
            self._columns[key] = known
        return known

    def _converters_for(self, db: BaseDatabaseWrapper) -> list[tuple[Any, list[Converter]]]:
        known = self._converters.get(db.vendor)
        if known is None:
            # As SQLCompiler.get_converters: the backend's, then the field's.
            known = []
            for f in self.fields:
                column = f.get_col(self.model._meta.db_table)
                found = db.ops.get_db_converters(column) + column.get_db_converters(db)
                known.append((column, found))
            self._converters[db.vendor] = known
        return known

    def build(self, values: Sequence[Any], db: BaseDatabaseWrapper) -> M:
        converted = []
        for value, (column, converters) in zip(values, self._converters_for(db), strict=True):
            for convert in converters:
                value = convert(value, column, db)
            converted.append(value)
        return self.model.from_db(db.alias, self.attnames, converted)


def _db() -> BaseDatabaseWrapper:
    # Once per call: every attribute of django.db.connection is a lookup in a
    # thread-local, which the profile showed at thousands per game.
    return connections[DEFAULT_DB_ALIAS]


_MATCH = RowReader(Match)
_ROUND = RowReader(Round)
_TOURNAMENT = RowReader(Tournament)
_SEAT = RowReader(Seat)
_PLAYER = RowReader(Player, ("id", "name"))


def _one(db: BaseDatabaseWrapper, sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def _match_round(row: tuple[Any, ...], db: BaseDatabaseWrapper) -> Match:
    match = _MATCH.build(row[: _MATCH.width], db)
    match.round = _ROUND.build(row[_MATCH.width : _MATCH.width + _ROUND.width], db)
    return match


def match_by_token(token: str) -> Match | None:
    """The match a token opens, with its round, its tournament and its seats
    (each with its player's name; ``match.seats.all()`` answers them)."""
    db = _db()
    head = _MATCH.width + _ROUND.width + _TOURNAMENT.width
    with db.cursor() as cursor:
        cursor.execute(
            f"SELECT {_MATCH.columns('m', db)}, {_ROUND.columns('r', db)}, "
            f"{_TOURNAMENT.columns('t', db)}, {_SEAT.columns('s', db)}, {_PLAYER.columns('p', db)} "
            f"FROM {_MATCH.table(db)} m JOIN {_ROUND.table(db)} r ON r.id = m.round_id "
            f"JOIN {_TOURNAMENT.table(db)} t ON t.id = r.tournament_id "
            f"LEFT JOIN {_SEAT.table(db)} s ON s.match_id = m.id "
            f"LEFT JOIN {_PLAYER.table(db)} p ON p.id = s.player_id "
            "WHERE m.token = %s ORDER BY s.position",
            [token],
        )
        found = [tuple(row) for row in cursor.fetchall()]
    if not found:
        return None
    match = _match_round(found[0], db)
    match.round.tournament = _TOURNAMENT.build(found[0][_MATCH.width + _ROUND.width : head], db)
    seats = []
    for row in found:
        if row[head] is None:  # a match without seats: the one row the left join gives
            continue
        seat = _SEAT.build(row[head : head + _SEAT.width], db)
        seat.player = _PLAYER.build(row[head + _SEAT.width :], db)
        seat.match = match
        seats.append(seat)
    # As prefetch_related("seats") leaves them.
    kept = match.seats.all()
    kept._result_cache = seats
    kept._prefetch_done = True  # type: ignore[attr-defined]
    match._prefetched_objects_cache = {"seats": kept}  # type: ignore[attr-defined]
    return match


def match_locked(match_id: int) -> Match | None:
    """The match with its round, their rows locked for update (PostgreSQL)."""
    db = _db()
    row = _one(
        db,
        f"SELECT {_MATCH.columns('m', db)}, {_ROUND.columns('r', db)} "
        f"FROM {_MATCH.table(db)} m JOIN {_ROUND.table(db)} r ON r.id = m.round_id "
        "WHERE m.id = %s FOR UPDATE",
        [match_id],
    )
    return _match_round(row, db) if row is not None else None


def tournament_read(tournament_id: int, *, share: bool) -> Tournament | None:
    """The tournament's row as stored now (``share``: held in share mode, PostgreSQL)."""
    db = _db()
    lock = " FOR SHARE" if share else ""
    row = _one(
        db,
        f"SELECT {_TOURNAMENT.columns('t', db)} FROM {_TOURNAMENT.table(db)} t "
        f"WHERE t.id = %s{lock}",
        [tournament_id],
    )
    return _TOURNAMENT.build(row, db) if row is not None else None


def seats_read(match_id: int) -> list[Seat]:
    """A match's seats in seat order, each with its player's name."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(
            f"SELECT {_SEAT.columns('s', db)}, {_PLAYER.columns('p', db)} "
            f"FROM {_SEAT.table(db)} s JOIN {_PLAYER.table(db)} p ON p.id = s.player_id "
            "WHERE s.match_id = %s ORDER BY s.position",
            [match_id],
        )
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat = _SEAT.build(row[: _SEAT.width], db)
        seat.player = _PLAYER.build(row[_SEAT.width :], db)
        seats.append(seat)
    return seats


def rows_insert(objs: Sequence[M], *, unless: Sequence[str] = ()) -> list[M]:
    """Insert new instances of one model (their ids left to the database) in
    one statement, and give them their ids. ``unless``: the columns of a unique
    constraint; a row they would repeat is not inserted (one object only), so
    the list comes back empty, without an error that would need a savepoint."""
    if not objs:
        return []
    if unless and len(objs) != 1:
        raise ValueError("unless= takes a single object")
    db = _db()
    meta = type(objs[0])._meta
    fields = [f for f in meta.local_concrete_fields if not f.primary_key]
    quote = db.ops.quote_name
    values = [f.get_db_prep_save(f.pre_save(obj, add=True), db) for obj in objs for f in fields]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    skip = f" ON CONFLICT ({', '.join(quote(c) for c in unless)}) DO NOTHING" if unless else ""
    with db.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES {', '.join([row] * len(objs))}{skip} RETURNING {quote(meta.pk.column)}",
            values,
        )
        ids = [pk for (pk,) in cursor.fetchall()]
    if unless and not ids:
        return []
    for obj, pk in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = db.alias
    return list(objs)


def row_update(obj: Model, fields: Sequence[str]) -> None:
    """Write ``fields`` of a stored instance, as ``save(update_fields=...)`` would."""
    db = _db()
    meta = obj._meta
    quote = db.ops.quote_name
    chosen = [f for f in meta.concrete_fields if f.name in fields]
    if len(chosen) != len(set(fields)):
        raise ValueError(f"{meta.label} has no field among some of {fields}")
    values = [f.get_db_prep_save(f.pre_save(obj, add=False), db) for f in chosen]
    settings = ", ".join(f"{quote(f.column)} = %s" for f in chosen)
    with db.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(meta.db_table)} SET {settings} WHERE {quote(meta.pk.column)} = %s",
            [*values, obj.pk],
        )


def match_now_read(match_id: int) -> tuple[set[tuple[int, int]], set[int]]:
    """(player id, seat) of each seat of a match, and the numbers of its
    recorded games: one round trip."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(
            f"SELECT player_id, position FROM {_SEAT.table(db)} WHERE match_id = %s "
            f"UNION ALL SELECT NULL, number FROM {db.ops.quote_name(Game._meta.db_table)} "
            "WHERE match_id = %s",
            [match_id, match_id],
        )
        rows = cursor.fetchall()
    seats = {(int(p), int(n)) for p, n in rows if p is not None}
    return seats, {int(n) for p, n in rows if p is None}
