"""Model instances inserted by one statement written out once per database.

For the writes on the hottest path (a table's phone recording a game: its
idempotency key, the game, its racks, its audit event), where building the
ORM's insert costs more than running it. Each value is prepared as the ORM
prepares it (each field's ``pre_save``, then ``get_db_prep_save``), the rows go
in with one statement, and their ids come back (``RETURNING``) onto the
instances, which then read as saved ones. As with ``bulk_create``, no signal
is sent and nothing is validated: the models written here have no signals, and
the services check what they store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)

# (database kind, model, rows) -> (statement, the fields it sets, in order).
_statements: dict[tuple[str, type[Model], int], tuple[str, tuple[Field[Any, Any], ...]]] = {}


def _statement(model: type[Model], rows: int) -> tuple[str, tuple[Field[Any, Any], ...]]:
    key = (connection.vendor, model, rows)
    found = _statements.get(key)
    if found is None:
        meta = model._meta
        pk = meta.pk
        assert pk is not None
        fields = tuple(f for f in meta.concrete_fields if f is not pk)
        q = connection.ops.quote_name
        marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
        found = (
            f"INSERT INTO {q(meta.db_table)} ({', '.join(q(f.column) for f in fields)}) "
            f"VALUES {', '.join([marks] * rows)} RETURNING {q(pk.column)}",
            fields,
        )
        _statements[key] = found
    return found


def instances_insert(objs: Sequence[M]) -> Sequence[M]:
    """Insert new instances of one model (its primary key made by the
    database) in one statement; each gets its id and reads as saved."""
    if not objs:
        return objs
    statement, fields = _statement(type(objs[0]), len(objs))
    params: list[Any] = []
    for obj in objs:
        params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        made = cursor.fetchall()
    for obj, (pk,) in zip(objs, made, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = connection.alias
    return objs


def instance_insert(obj: M) -> M:
    """Insert one new instance in one statement (``instances_insert``)."""
    instances_insert([obj])
    return obj
