"""A club's members file forgives as the desk's does: a Danish Excel file
("Navn;Klub", semicolons, Windows-1252 or a BOM), names with runs of spaces
or a comma typed after them, and the organiser's own players of no club
offered as themselves (they join), one tick away from a new player instead."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory, UserFactory
from tournaments.models import AuditEvent, Club, Player
from tournaments.services import clubs
from tournaments.services.players_file import players_file_decoded

pytestmark = pytest.mark.django_db

NAMES = [
    "Lars   Eriksen",
    "Mette Sørensen,",
    "Bjørn Østergaard",
    "Åse Nielsen",
    "Anders Holm",
    "Karen Madsen",
    "Søren Kierkegaard",
    "Ida Jensen",
    "Peter Møller",
    "Henrik Larsen",
    "Sofie Poulsen",
    "Jens Kristensen",
]
CLEAN = [" ".join(n.rstrip(",").split()) for n in NAMES]


@pytest.fixture
def world() -> dict[str, Any]:
    secretary = UserFactory(username="secretary")
    club = clubs.club_create(name="Vesterbro RK", city="København", created_by=secretary)
    return {"secretary": secretary, "club": club}


def _excel(encoding: str, header: str = "Navn;Klub") -> str:
    lines = [header, *(f"{n};{'Vesterbro RK' if i % 2 else ''}" for i, n in enumerate(NAMES))]
    raw = ("\r\n".join(lines) + "\r\n").encode(encoding)
    return players_file_decoded(raw)[0]


@pytest.mark.parametrize("encoding", ["cp1252", "utf-8-sig", "utf-8"])
@pytest.mark.parametrize("header", ["Navn;Klub", "Namn;Klubb", "Naam;Club", "Name;Verein", ""])
def test_a_danish_excel_file_imports_twelve_members(world, encoding, header):
    text = _excel(encoding, header) if header else _excel(encoding).split("\n", 1)[1]
    preview = clubs.members_import_preview(club=world["club"], text=text, user=world["secretary"])
    assert not preview.problems
    assert [line.name for line in preview.lines] == CLEAN
    result = clubs.members_import(club=world["club"], text=text, user=world["secretary"])
    assert len(result.created) == 12
    assert sorted(Player.objects.filter(club=world["club"]).values_list("name", flat=True)) == (
        sorted(CLEAN)
    )
    assert not Player.objects.filter(name__in=["Navn", "Namn", "Naam", "Name"]).exists()
    assert not Club.objects.exclude(pk=world["club"].pk).exists()


def test_a_member_already_and_the_organisers_own_player_are_not_made_twice(world):
    secretary, club = world["secretary"], world["club"]
    member = PlayerFactory(name="Mette Sørensen", club=club, created_by=secretary)
    own = PlayerFactory(name="Lars Eriksen", club=None, created_by=secretary)
    # Another organiser's player of no club is never met by a file.
    PlayerFactory(name="Ida Jensen", club=None, created_by=UserFactory())
    text = _excel("cp1252")
    preview = clubs.members_import_preview(club=club, text=text, user=secretary)
    matched = {line.name: line.player for line in preview.lines}
    assert matched["Mette Sørensen"] == member and matched["Lars Eriksen"] == own
    assert matched["Ida Jensen"] is None
    result = clubs.members_import(club=club, text=text, user=secretary)
    assert len(result.created) == 10
    assert Player.objects.filter(name="Lars Eriksen").get().club == club  # joined
    assert Player.objects.filter(name="Mette Sørensen").count() == 1
    event = AuditEvent.objects.get(club=club, action=AuditEvent.Action.MEMBER_ADDED)
    assert "Lars Eriksen" in event.new["names"] and "Mette Sørensen" not in event.new["names"]


def test_a_matched_line_ticked_new_is_a_new_member(world):
    secretary, club = world["secretary"], world["club"]
    own = PlayerFactory(name="Lars Eriksen", club=None, created_by=secretary)
    text = "Navn\nLars   Eriksen\n"
    preview = clubs.members_import_preview(club=club, text=text, user=secretary, new_lines={2})
    assert preview.lines[0].player == own and preview.lines[0].new
    clubs.members_import(club=club, text=text, user=secretary, new_lines={2})
    own.refresh_from_db()
    assert own.club is None
    assert Player.objects.filter(name="Lars Eriksen", club=club).count() == 1
