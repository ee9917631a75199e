"""A players list checked before it is imported, and a player entered at the desk."""

from __future__ import annotations

import pytest

from scoring.errors import UserError
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Club, Entry, Player
from tournaments.services.players import (
    PlayersFileError,
    player_enter,
    players_import,
    players_import_preview,
)

pytestmark = pytest.mark.django_db


def test_a_preview_says_what_each_line_will_do_and_stores_nothing():
    tournament = TournamentFactory()
    roskilde = ClubFactory(name="Roskilde")
    anna = PlayerFactory(name="Anna", club=roskilde)
    bo = PlayerFactory(name="Bo")
    EntryFactory(tournament=tournament, player=bo)
    preview = players_import_preview(
        text="name,club\nAnna,ROSKILDE\nBo\nCarl,Odense\nAnna,Odense\n", tournament=tournament
    )
    assert preview.problems == [] and preview.error is None and preview.general == []
    shown = [
        (line.number, line.name, line.club, line.player, line.club_new, line.entered)
        for line in preview.lines
    ]
    assert shown == [
        (2, "Anna", "ROSKILDE", anna, False, False),
        (3, "Bo", "", bo, False, True),
        (4, "Carl", "Odense", None, True, False),
        (5, "Anna", "Odense", None, True, False),
    ]
    assert Player.objects.count() == 2 and Club.objects.count() == 1
    assert Entry.objects.count() == 1


def test_a_preview_finds_exactly_the_problems_the_import_refuses():
    text = "name,club,city\nAnna\n,Odense\nBo,A,B\nAnna\n" + "x" * 121 + "\n"
    preview = players_import_preview(text=text)
    with pytest.raises(PlayersFileError) as caught:
        players_import(text=text)
    assert preview.problems == caught.value.problems
    assert preview.error is not None and preview.error.lines() == caught.value.lines()
    by_line = {line.number: line.messages() for line in preview.lines}
    assert by_line[2] == []
    assert by_line[3] == ["the name is missing"]
    assert by_line[4] == ["3 columns, expected at most 2 (name, club)"]
    assert by_line[5] == ["Anna (-) is already on line 2"]
    assert by_line[6] == ["the name is longer than 120 characters"]
    # The bad header is on no listed line.
    assert [number for number, _t, _p in preview.general] == [1]
    assert not Player.objects.exists()


def test_an_empty_list_is_a_general_problem():
    preview = players_import_preview(text="\n \n")
    assert preview.lines == [] and preview.error is not None
    assert preview.error.lines() == ["The file lists no players."]


def test_a_player_entered_at_the_desk():
    tournament = TournamentFactory()
    club = ClubFactory()
    entry = player_enter(tournament=tournament, name=" Dora ", club=club)
    assert (entry.player.name, entry.player.club, entry.status) == ("Dora", club, "active")
    # The same name and club again is the same player, already entered.
    with pytest.raises(UserError) as caught:
        player_enter(tournament=tournament, name="Dora", club=club)
    assert caught.value.field == "name"
    # Elsewhere, or in another club, it is entered / made.
    other = TournamentFactory()
    assert player_enter(tournament=other, name="Dora", club=club).player == entry.player
    assert player_enter(tournament=other, name="Dora").player != entry.player
    assert Player.objects.filter(name="Dora").count() == 2


@pytest.mark.parametrize("name", ["", "   ", "x" * 121])
def test_a_bad_name_enters_nobody(name):
    tournament = TournamentFactory()
    with pytest.raises(UserError) as caught:
        player_enter(tournament=tournament, name=name)
    assert caught.value.field == "name"
    assert not Player.objects.exists() and not Entry.objects.exists()
