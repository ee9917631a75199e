"""``print_scoresheets``: a round's sheets to a file, with the links of the configured site."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from tests.factories import TournamentFactory
from tests.printing.engine.pdf import pages_of
from tests.tournaments.documents.rounds import round_with_tables

pytestmark = pytest.mark.django_db


def test_print_scoresheets_command(tmp_path, monkeypatch):
    t = TournamentFactory()
    round_with_tables(t, sizes=(2, 2), games=2)
    monkeypatch.setenv("RACKSCORE_BASE_URL", "https://club.example/")
    out = tmp_path / "sheets.pdf"

    call_command("print_scoresheets", t.slug, "1", "--out", str(out), stdout=io.StringIO())

    pages = pages_of(out.read_bytes())
    assert len(pages) == 2
    assert "https://club.example/m/" in pages[1].extract_text()
    with pytest.raises(CommandError, match="no round 3"):
        call_command("print_scoresheets", t.slug, "3", "--out", str(out))
    with pytest.raises(CommandError, match="No tournament"):
        call_command("print_scoresheets", "nope", "1", "--out", str(out))
