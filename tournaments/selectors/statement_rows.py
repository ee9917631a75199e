"""Model instances from one hand-written statement's columns; a statement's
rows as the database gives them.

Vocabulary: a *part* is one model's columns in a statement that joins
several tables (``PartColumns``: the table's alias, its fields in the model's
order); ``part_select`` writes them out for a SELECT list, ``part_instance``
turns that slice of a row back into a model instance, through each column's
converters exactly as the ORM applies them (the backend's, then the field's
``from_db_value``), so the instance reads as one the ORM built; fields a part
leaves out are deferred (read on first use, as with ``only()``).

For the reads on the hottest path (a table's phone recording a game), where
building the joined statement costs more than running it; and, with
``rows_as_given``, for the reads of many rows whose columns need no
converter (a full rating recomputation, a player's statistics).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model, QuerySet

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class PartColumns:
    """One model's columns in a joined statement: the model, the table's
    alias there, and its field names (all of its concrete fields when None)."""

    model: type[Model]
    alias: str
    names: tuple[str, ...] | None = None

    def fields(self) -> list[Field[Any, Any]]:
        concrete = list(self.model._meta.concrete_fields)
        if self.names is None:
            return concrete
        wanted = set(self.names)
        return [f for f in concrete if f.name in wanted or f.attname in wanted]


# Written out once per database kind and part: the recording path asks for them on every game.
_selects: dict[tuple[str, PartColumns], str] = {}


def part_select(part: PartColumns) -> str:
    """The part's columns for a SELECT list, in its fields' order."""
    found = _selects.get((connection.vendor, part))
    if found is None:
        quote = connection.ops.quote_name
        found = ", ".join(f"{part.alias}.{quote(f.column)}" for f in part.fields())
        _selects[(connection.vendor, part)] = found
    return found


@dataclass(frozen=True)
class PartReader:
    """How a row's slice becomes one part's instance."""

    model: type[Model]
    attnames: tuple[str, ...]
    converters: tuple[tuple[tuple[Converter, ...], Any], ...]
    pk_index: int

    @property
    def width(self) -> int:
        return len(self.attnames)


# Readers depend on the database's converters only: built once per database kind.
_readers: dict[tuple[str, PartColumns], PartReader] = {}


def part_reader(part: PartColumns) -> PartReader:
    """The part's reader on the current connection (its converters depend on it)."""
    found = _readers.get((connection.vendor, part))
    if found is None:
        found = _readers[(connection.vendor, part)] = _reader_built(part)
    return found


def _reader_built(part: PartColumns) -> PartReader:
    converters = []
    for f in part.fields():
        column = f.get_col(part.alias)
        found = [*connection.ops.get_db_converters(column), *column.get_db_converters(connection)]
        converters.append((tuple(found), column))
    attnames = tuple(f.attname for f in part.fields())
    return PartReader(
        model=part.model,
        attnames=attnames,
        converters=tuple(converters),
        pk_index=attnames.index(part.model._meta.pk.attname),
    )


def part_instance(reader: PartReader, row: Sequence[Any], start: int) -> Model | None:
    """The part's instance from ``row[start:start + reader.width]`` (None when
    its primary key is NULL: an outer join found nothing)."""
    values = []
    for value, (converters, column) in zip(
        row[start : start + reader.width], reader.converters, strict=True
    ):
        for convert in converters:
            value = convert(value, column, connection)
        values.append(value)
    if values[reader.pk_index] is None:
        return None
    return reader.model.from_db(connection.alias, list(reader.attnames), values)


def rows_as_given(statement: QuerySet[Any, Any]) -> list[tuple[Any, ...]]:
    """A ``values_list`` statement's rows as the database gives them, no
    converter applied: for columns that need none (whole numbers, flags,
    floats), read by the hundred thousand."""
    sql, params = statement.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    return rows
