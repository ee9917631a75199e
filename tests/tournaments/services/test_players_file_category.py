"""A players file's ``category`` column: each entry's category, checked, all or nothing."""

from __future__ import annotations

import pytest

from scoring.rules import CATEGORY_MAX_LENGTH
from tests.factories import TournamentFactory
from tournaments.models import AuditEvent, Entry
from tournaments.services.players_file import (
    PlayersFileError,
    players_import,
    players_import_preview,
)

pytestmark = pytest.mark.django_db


def test_the_category_column_sets_each_entry_category():
    t = TournamentFactory()
    text = "name;club;category\nAnn;Rooks; U14 \nBo;;Senior\nCy;Rooks;\nDi;;U14\n"
    players_import(text=text, tournament=t, user=t.owner)
    stored = dict(Entry.objects.filter(tournament=t).values_list("player__name", "category"))
    assert stored == {"Ann": "U14", "Bo": "Senior", "Cy": "", "Di": "U14"}
    # one audited change per category
    changed = AuditEvent.objects.filter(tournament=t, action=AuditEvent.Action.ENTRY_CHANGED)
    assert changed.count() == 2
    preview = players_import_preview(text=text, tournament=t, user=t.owner)
    assert [line.category for line in preview.lines] == ["U14", "Senior", "", "U14"]


def test_a_too_long_category_is_a_problem_and_nothing_is_stored():
    t = TournamentFactory()
    text = f"name,category\nAnn,{'x' * (CATEGORY_MAX_LENGTH + 1)}\nBo,U14\n"
    with pytest.raises(PlayersFileError) as refused:
        players_import(text=text, tournament=t, user=t.owner)
    assert "category is longer" in " ".join(refused.value.lines())
    assert not Entry.objects.filter(tournament=t).exists()


def test_without_a_header_there_is_no_category_column():
    t = TournamentFactory()
    with pytest.raises(PlayersFileError):
        players_import(text="Ann,Rooks,U14\n", tournament=t, user=t.owner)
