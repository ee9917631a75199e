"""The committed golden backup (the demo tournament, written once by
``export_tournament``) restores with exactly its standings, on whichever
database the suite runs: ``make test-postgres`` makes this the SQLite →
PostgreSQL round trip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.factories import UserFactory
from tests.tournaments.backups.conftest import normal, standings_json
from tournaments.backups.document import settings_completed, tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.models import AuditEvent, Game

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "data" / "autumn-open-v1.json"
COLUMNS = (
    "rank",
    "name",
    "club",
    "score",
    "game_score",
    "adjustments",
    "games",
    "wins",
    "rack_total",
    "table_points",
    "average",
    "withdrawn",
    "absent",
)
CLUB = "Nørrebro Rummikub Club"
# The demo's standings where the file was written (SQLite).
STANDINGS = [
    (1, "Hans Meyer", CLUB, 377, 377, 0, 8, 5, 216, 21, 47.12, False, False),
    (2, "Karin Vos", CLUB, 255, 255, 0, 8, 3, 162, 19, 31.88, False, False),
    (3, "Ida Kristensen", CLUB, 202, 202, 0, 8, 3, 153, 19, 25.25, False, False),
    (4, "Anna Jensen", CLUB, 155, 155, 0, 8, 2, 248, 14, 19.38, False, False),
    (5, "Mette Bakker", CLUB, 114, 114, 0, 8, 2, 210, 22, 14.25, False, False),
    (6, "Lars Eriksen", CLUB, 100, 100, 0, 8, 3, 248, 19, 12.5, False, False),
    (7, "Dan Hansen", CLUB, 83, 83, 0, 8, 2, 255, 18, 10.38, False, False),
    (8, "Cleo Nielsen", CLUB, 21, 21, 0, 8, 2, 164, 19, 2.62, False, False),
    (9, "Ben Larsen", CLUB, 4, 4, 0, 8, 2, 288, 13, 0.5, False, False),
    (10, "Greta Lind", CLUB, -68, -68, 0, 8, 2, 246, 14, -8.5, False, False),
    (11, "Olga Schmidt", CLUB, -79, -79, 0, 8, 2, 215, 16, -9.88, False, False),
    (12, "Frederik Holm", CLUB, -112, -112, 0, 8, 2, 328, 11, -14, False, False),
    (13, "Jonas Dahl", CLUB, -115, -115, 0, 8, 2, 269, 14, -14.38, False, False),
    (14, "Per Andersen", CLUB, -233, -233, 0, 8, 0, 233, 18, -29.12, False, False),
    (15, "Nils Olsen", CLUB, -352, -352, 0, 8, 0, 358, 10, -44, False, False),
    (16, "Eva Berg", CLUB, -352, -352, 0, 8, 0, 367, 9, -44, False, False),
]  # fmt: skip


def golden() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return document


def test_the_golden_backup_restores_with_its_standings():
    owner = UserFactory(username="keeper")
    tournament = tournament_import(document=golden(), owner=owner)
    assert tournament.slug == "autumn-open"
    rows = standings_json(tournament, owner)
    assert [tuple(row[c] for c in COLUMNS) for row in rows] == STANDINGS, connection.vendor
    assert Game.objects.filter(match__round__tournament=tournament).count() == 32
    # The file's events, and the import's own.
    assert AuditEvent.objects.filter(tournament=tournament).count() == len(golden()["audit"]) + 1


def golden_completed() -> dict[str, Any]:
    """The golden file as written today: what it predates takes its default
    (``final_carry_over`` false is ``carry_over`` "0")."""
    document = golden()
    assert document["tournament"]["final_carry_over"] is False
    document["tournament"] = settings_completed(document["tournament"])
    assert document["tournament"]["carry_over"] == "0"
    for game in document["games"]:
        assert "entry_sources" not in game  # written before they were kept
        game["entry_sources"] = []
        for rack in game["racks"]:
            rack["bonus"] = "0.00"
    for entry in document["entries"]:
        entry["category"] = ""
    return document


def test_the_golden_backup_exports_back_as_it_was():
    """And back again: the database the suite runs on writes the same file, with
    the settings and fields added since at their defaults."""
    owner = UserFactory(username="keeper")
    tournament = tournament_import(document=golden(), owner=owner, slug="again")
    again = tournament_document(tournament=tournament)
    assert again["audit"].pop()["action"] == "tournament.imported"
    # Every match has a new link: the original's sheets keep leading to the original.
    assert not {m["token"] for m in again["matches"]} & {m["token"] for m in golden()["matches"]}
    before, after = normal(golden_completed()), normal(again)
    # The trail's club by its id in the source database names nothing here.
    created = before["audit"][0]
    assert (created["action"], created["new"]["club"]) == ("tournament.created", 1)
    created["new"]["club"] = None
    assert after["tournament"].pop("owner") == "keeper"
    before["tournament"].pop("owner")
    assert after == before
