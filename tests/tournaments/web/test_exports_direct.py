"""The standings exports read each row directly, and give exactly what
django-tables2's own cell-by-cell export gives: headings, order, values."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django_tables2.export import TableExport

from tournaments.standings.ranking import StandingRow
from tournaments.web.standings_table import StandingsExport, StandingsTable, cell_inert

ROWS = [
    StandingRow(player_id=1, name="Anna", club="Kolding", game_score=Decimal("24"), games=4,
                wins=2, rack_total=-31, table_points=Decimal("7.5"), rank=1),
    StandingRow(player_id=2, name="=HYPERLINK(1)", club="", withdrawn=True,
                game_score=Decimal("-3.50"), adjustments=Decimal("-2"), games=3, rank=2),
    StandingRow(player_id=3, name="Bo <b>", club="<i>Odense</i>", rank=3),
]  # fmt: skip


def _table(**kwargs: object) -> StandingsTable:
    return StandingsTable(list(ROWS), unconfirmed={2: 3}, **kwargs)


@pytest.mark.parametrize("order_by", [None, "-score", "name", "club"])
@pytest.mark.parametrize("export_format", ["json", "csv"])
def test_the_direct_export_matches_django_tables2s(
    order_by: str | None, export_format: str
) -> None:
    table = _table(order_by=order_by)
    theirs = TableExport(export_format, table, dataset_kwargs={"title": "Standings"}).dataset
    ours = StandingsExport(
        export_format, _table(order_by=order_by), dataset_kwargs={"title": "Standings"}
    ).dataset
    assert ours.headers == theirs.headers
    inert = cell_inert if export_format == "csv" else (lambda value: value)
    assert [list(row) for row in ours] == [[inert(v) for v in row] for row in theirs]
    assert ours.title == "Standings"


def test_the_average_column_exports_when_the_table_shows_it() -> None:
    theirs = TableExport("json", _table(ranking="average")).dataset
    ours = StandingsExport("json", _table(ranking="average")).dataset
    assert ours.headers == theirs.headers and "Average" in " ".join(map(str, ours.headers))
    assert [list(row) for row in ours] == [list(row) for row in theirs]
