"""Players and clubs have a creator: every way of making them names one, and the
migration gave existing rows the owner of their earliest tournament."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db.migrations import RunPython

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.access import club_editable, player_editable
from tournaments.backups.document import tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.demo import demo_load
from tournaments.models import Club, Player
from tournaments.services.players import (
    club_create,
    player_create,
    player_enter,
    players_import,
)

pytestmark = pytest.mark.django_db


def test_the_services_name_the_creator_and_only_they_and_staff_may_edit():
    maker, host, staff = UserFactory(), UserFactory(), UserFactory(is_staff=True)
    club = club_create(name="Odense", created_by=maker)
    player = player_create(name="Ann", club=club, created_by=maker)
    EntryFactory(tournament=TournamentFactory(owner=host, club=club), player=player)
    for user, allowed in ((maker, True), (staff, True), (host, False), (None, False)):
        assert player_editable(user=user, player=player) is allowed
        assert club_editable(user=user, club=club) is allowed
    assert player_create(name="Bo", created_by=None).created_by is None  # staff only


def test_walk_ins_and_imports_are_their_organisers():
    tournament = TournamentFactory()
    organiser = tournament.owner
    assert player_enter(tournament=tournament, name="Cy", user=organiser).player.created_by == (
        organiser
    )
    result = players_import(text="Di,Køge\n", tournament=tournament, user=organiser)
    assert result.created[0].created_by == organiser
    assert Club.objects.get(name="Køge").created_by == organiser
    # A command imports as nobody: the players are the named creator's, else staff's.
    by_command = players_import(text="Ed,\n", created_by=organiser)
    assert by_command.created[0].created_by == organiser
    assert players_import(text="Fa,\n").created[0].created_by is None


def test_the_import_command_gives_a_tournaments_players_to_its_owner(tmp_path: Path):
    tournament = TournamentFactory(slug="cup")
    path = tmp_path / "players.csv"
    path.write_text("name,club\nGus,Vejle\n", encoding="utf-8")
    call_command("import_players", str(path), "--tournament", "cup")
    assert Player.objects.get(name="Gus").created_by == tournament.owner
    path.write_text("name,club\nHal,\n", encoding="utf-8")
    call_command("import_players", str(path))
    assert Player.objects.get(name="Hal").created_by is None


def test_the_demo_players_are_its_organisers():
    tournament = demo_load()
    assert {p.created_by for p in Player.objects.filter(entries__tournament=tournament)} == {
        tournament.owner
    }
    assert tournament.club is not None and tournament.club.created_by == tournament.owner


def test_a_restored_backup_gives_new_players_and_clubs_to_the_importing_owner():
    source = TournamentFactory(club=ClubFactory(name="Lost RC"))
    EntryFactory(tournament=source, player=PlayerFactory(name="Ida"))
    document = tournament_document(tournament=source)
    importer = UserFactory()
    Club.objects.filter(name="Lost RC").update(name="Renamed RC")  # so the club is new again
    Player.objects.filter(name="Ida").update(name="Not Ida")  # and the player
    restored = tournament_import(document=document, owner=importer, slug="restored")
    assert restored.club is not None and restored.club.created_by == importer
    assert Player.objects.get(name="Ida").created_by == importer


def test_the_migration_gives_rows_the_owner_of_their_earliest_tournament():
    first, later = UserFactory(), UserFactory()
    club, lonely_club, players_club = ClubFactory(), ClubFactory(), ClubFactory()
    player, lonely = PlayerFactory(club=players_club), PlayerFactory()
    older = TournamentFactory(owner=first, club=club)
    newer = TournamentFactory(owner=later, club=club)
    EntryFactory(tournament=newer, player=player)
    EntryFactory(tournament=older, player=player)
    migration = importlib.import_module("tournaments.migrations.0008_ownership")
    (backfill,) = (o for o in migration.Migration.operations if isinstance(o, RunPython))
    backfill.code(apps, None)
    for row in (club, lonely_club, players_club, player, lonely):
        row.refresh_from_db()
    assert (club.created_by, player.created_by, players_club.created_by) == (first, first, first)
    assert (lonely_club.created_by, lonely.created_by) == (None, None)


def test_typing_a_name_does_not_find_anothers_private_player():
    hidden = PlayerFactory(name="Jo", created_by=UserFactory())
    EntryFactory(tournament=TournamentFactory(public=False), player=hidden)
    tournament = TournamentFactory()
    entry = player_enter(tournament=tournament, name="Jo", user=tournament.owner)
    assert entry.player != hidden and entry.player.created_by == tournament.owner
    # What they may see is entered, not made twice.
    again = player_enter(
        tournament=TournamentFactory(owner=tournament.owner), name="Jo", user=tournament.owner
    )
    assert again.player == entry.player
