"""Clubs and players: create, change, delete; bad input refused at its field."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import AdjustmentFactory, ClubFactory, EntryFactory, PlayerFactory
from tournaments.models import Club, Player
from tournaments.services.players import (
    club_create,
    club_delete,
    club_update,
    player_create,
    player_delete,
    player_update,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("given", "field", "fragment"),
    [
        ({"name": ""}, "name", "name"),
        ({"name": "   "}, "name", "name"),
        ({"name": "x" * 121}, "name", "120"),
        ({"name": "Roskilde", "city": "c" * 121}, "city", "120"),
        ({"name": "Taken"}, "name", "already a club named Taken"),
    ],
)
def test_bad_clubs_are_refused(given: dict[str, Any], field: str, fragment: str):
    taken = ClubFactory(name="Taken")
    with pytest.raises(UserError) as caught:
        club_create(created_by=None, **given)
    assert (caught.value.field, fragment in caught.value.render()) == (field, True)
    club = ClubFactory(name="Other", city="Odense")
    with pytest.raises(UserError) as caught:
        club_update(club=club, **given)
    assert caught.value.field == field
    club.refresh_from_db()
    assert (club.name, club.city) == ("Other", "Odense")
    assert list(Club.objects.order_by("name").values_list("name", flat=True)) == [
        "Other",
        taken.name,
    ]


def test_clubs_are_made_changed_and_deleted_keeping_their_players():
    club = club_create(name=" Roskilde ", city="Roskilde", created_by=None)
    assert (club.name, club.city) == ("Roskilde", "Roskilde")
    assert club_update(club=club, city="Køge").city == "Køge"
    assert club_update(club=club, name="Roskilde").name == "Roskilde"  # its own name is free
    player = PlayerFactory(club=club)
    club_delete(club=club)
    player.refresh_from_db()
    assert player.club is None and not Club.objects.exists()
    with pytest.raises(TypeError):
        club_update(club=ClubFactory(), colour="red")


@pytest.mark.parametrize(
    ("given", "field"),
    [({"name": ""}, "name"), ({"name": " "}, "name"), ({"name": "x" * 121}, "name")],
)
def test_bad_players_are_refused(given: dict[str, Any], field: str):
    with pytest.raises(UserError) as caught:
        player_create(created_by=None, **given)
    assert caught.value.field == field
    assert not Player.objects.exists()
    player = PlayerFactory(name="Ann")
    with pytest.raises(UserError):
        player_update(player=player, **given)
    player.refresh_from_db()
    assert player.name == "Ann"


def test_players_are_made_changed_and_deleted_while_unused():
    club = ClubFactory()
    player = player_create(name=" Ann ", club=club, created_by=None)
    assert (player.name, player.club) == ("Ann", club)
    twin = player_create(name="Ann", created_by=None)  # two people may share a name
    assert player_update(player=player, club=None).club is None
    player_delete(player=twin)
    assert not Player.objects.filter(pk=twin.pk).exists()
    with pytest.raises(TypeError):
        player_update(player=player, rating=1500)


@pytest.mark.parametrize("use", [EntryFactory, AdjustmentFactory])
def test_a_player_in_use_cannot_be_deleted(use):
    row = use()
    with pytest.raises(ConflictError, match="cannot be deleted") as caught:
        player_delete(player=row.player)
    assert caught.value.status == 409
    assert Player.objects.filter(pk=row.player.pk).exists()
