"""Standings exports never hand a spreadsheet a formula: a player or club named
``=HYPERLINK(…)``, ``+cmd`` or ``@SUM(…)`` is plain text in CSV, XLSX and ODS,
and exactly its name in JSON."""

from __future__ import annotations

import csv
import io
import json

import openpyxl
import pytest
from django.test import Client

from tests.factories import ClubFactory, match_seated
from tests.tournaments.web.support import play
from tournaments.models import Player
from tournaments.web.standings_table import cell_inert

pytestmark = pytest.mark.django_db
NAMES = ['=HYPERLINK("http://evil.example","x")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]


@pytest.fixture
def hostile() -> str:
    match = match_seated(players=4, slug="hostile-cup")
    for player, name in zip(Player.objects.filter(seats__match=match), NAMES, strict=True):
        player.name = name
        player.club = ClubFactory(name=f"@{name}")
        player.save()
    play(match, games=2)
    return "/t/hostile-cup/standings/?_export="


@pytest.mark.parametrize(
    ("value", "inert"),
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-x", "'-x"), ("@A1", "'@A1"), ("\tx", "'\tx"),
     ("Anna", "Anna"), (-5, -5), (12.5, 12.5), ("", "")],
)  # fmt: skip
def test_a_cell_that_starts_a_formula_becomes_text(value: object, inert: object) -> None:
    assert cell_inert(value) == inert


def test_csv_cells_are_text(client: Client, hostile: str) -> None:
    rows = list(csv.reader(io.StringIO(client.get(hostile + "csv").content.decode())))
    cells = [cell for row in rows[1:] for cell in row[1:3]]
    assert sorted(c for c in cells if c.startswith("'")) == sorted(
        ["'" + n for n in NAMES] + ["'@" + n for n in NAMES]
    )
    # Numbers stay numbers: negative scores are not turned into text.
    assert any(row[3].startswith("-") for row in rows[1:])


def test_xlsx_holds_no_formula(client: Client, hostile: str) -> None:
    sheet = openpyxl.load_workbook(io.BytesIO(client.get(hostile + "xlsx").content)).active
    assert sheet is not None
    cells = [c for row in sheet.iter_rows(min_row=2) for c in row]
    assert all(c.data_type != "f" for c in cells)
    assert {c.value for c in cells} >= {"'" + n for n in NAMES}


def test_json_keeps_the_names_as_they_are(client: Client, hostile: str) -> None:
    text = json.dumps(json.loads(client.get(hostile + "json").content))
    for name in NAMES:
        assert json.dumps(name)[1:-1] in text and json.dumps("'" + name)[1:-1] not in text
