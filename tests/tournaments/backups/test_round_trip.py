"""Export, import as a new tournament, and find everything as it was."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from django.core.management import CommandError, call_command

from scoring import rules
from scoring.errors import ConflictError
from tests.tournaments.backups.conftest import normal, standings_json
from tournaments.backups.document import checksum_of, tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.models import AuditEvent, Game, Match, Tournament
from tournaments.services.games import game_delete
from tournaments.services.results import Refusal, game_entry_refused, game_restore

pytestmark = pytest.mark.django_db


def test_the_fixture_has_something_of_everything(played):
    document = tournament_document(tournament=played)
    states = {g["state"] for g in document["games"]}
    assert states == {"confirmed", "entered", "disputed"}
    assert {a["kind"] for a in document["adjustments"]} == {"penalty", "bye"}
    assert "game.deleted" in {e["action"] for e in document["audit"]}
    assert any(e["by_link"] for e in document["audit"])
    assert document["tournament"]["co_organisers"] == ["co"]
    assert document["checksum"] == checksum_of(document)


def test_an_import_has_identical_standings_games_and_trail(played, owner):
    first = tournament_document(tournament=played)
    copy = tournament_import(document=json.loads(json.dumps(first)), owner=owner, slug="copy")
    assert copy.slug == "copy" and copy.pk != played.pk
    assert standings_json(copy, owner) == standings_json(played, owner)
    again = tournament_document(tournament=copy)
    imported = again["audit"].pop()
    assert imported["action"] == "tournament.imported"
    assert imported["new"]["slug"] == played.slug
    # The file's co-organisers are names, not a grant: the copy has none.
    assert again["tournament"]["co_organisers"] == [] and first["tournament"]["co_organisers"]
    for doc in (again, first):
        del doc["tournament"]["co_organisers"]
    assert normal(again) == normal(first)
    # Every game's racks, state and second entry came along (the comparison
    # above covers them; this says so in plain words).
    assert Game.objects.filter(match__round__tournament=copy).count() == len(first["games"])


def test_the_restored_history_still_serves(played, owner):
    """A game's audit events point at the restored game; a deleted game's at none."""
    copy = tournament_import(document=tournament_document(tournament=played), owner=owner, slug="c")
    games = set(Game.objects.filter(match__round__tournament=copy).values_list("pk", flat=True))
    events = AuditEvent.objects.filter(tournament=copy, action__startswith="game.")
    deleted = events.filter(action="game.deleted").get()
    assert deleted.object_id is None and deleted.match.round.tournament == copy
    recorded = events.exclude(action="game.deleted").exclude(
        object_id=None
    )  # the deleted game's recording is unmapped too
    assert set(recorded.values_list("object_id", flat=True)) == games


def test_a_deleted_game_of_the_copy_is_restored_from_its_event(played, owner):
    """The deletion event keeps its match, game number and snapshot (its game
    id is not the copy's), which is all the restore needs; into another
    database, the snapshot names the copy's players."""
    second = Match.objects.filter(round__tournament=played, round__number=2).get()
    deleted = second.games.get()
    kept = {(r.position, r.points, r.rack_value, r.score, r.winner) for r in deleted.racks.all()}
    game_delete(game=deleted, user=owner)
    document = tournament_document(tournament=played)
    for player in document["players"]:
        player["name"] += " (elsewhere)"
    document["checksum"] = checksum_of(document)
    copy = tournament_import(document=document, owner=owner, slug="copy")
    events = AuditEvent.objects.filter(tournament=copy, action="game.deleted")
    event = events.get(round_number=2)
    assert event.object_id is None
    assert (event.match.round.tournament, event.game_number) == (copy, deleted.number)
    game = game_restore(event=event, user=owner)
    assert (game.match, game.number) == (event.match, deleted.number)
    assert {
        (r.position, r.points, r.rack_value, r.score, r.winner) for r in game.racks.all()
    } == kept
    seated = set(event.match.seats.values_list("player_id", flat=True))
    assert set(game.racks.values_list("player_id", flat=True)) == seated
    assert AuditEvent.objects.filter(tournament=copy, action="game.restored").count() == 1
    # The first round's deleted game has its number taken again: refused as on the source.
    with pytest.raises(ConflictError):
        game_restore(event=events.get(round_number=1), user=owner)


def test_the_export_command_names_a_folder_it_cannot_write(played, tmp_path):
    with pytest.raises(CommandError, match="the folder /nonexistent does not exist"):
        call_command("export_tournament", played.slug, "--out", "/nonexistent/x.json")
    with pytest.raises(CommandError, match=f"Cannot write {tmp_path}"):
        call_command("export_tournament", played.slug, "--out", str(tmp_path))


def test_an_import_into_another_owner_adds_no_co_organiser(played, co):
    copy = tournament_import(document=tournament_document(tournament=played), owner=co, slug="x")
    assert copy.owner == co
    assert list(copy.co_organisers.all()) == []  # the owner is no co-organiser of their own


def test_the_command_round_trip(played, owner, tmp_path):
    out = tmp_path / "backup.json"
    call_command("export_tournament", played.slug, "--out", str(out))
    call_command("import_tournament", str(out), "--slug", "restored", "--owner", "co")
    copy = Tournament.objects.get(slug="restored")
    assert copy.owner.username == "co"
    assert standings_json(copy, owner) == standings_json(played, owner)
    again = tournament_document(tournament=copy)
    event = again["audit"].pop()
    assert event["new"]["file"] == "backup.json" and event["username"] == ""  # the system
    assert event["new"]["owner"] == "co"
    before, after = normal(json.loads(out.read_text())), normal(again)
    assert (after["tournament"]["owner"], after["tournament"]["co_organisers"]) == ("co", [])
    for doc in (before, after):
        del doc["tournament"]["owner"], doc["tournament"]["co_organisers"]
    assert after == before


def test_the_command_takes_the_backups_owner_by_default(played, tmp_path):
    out = tmp_path / "backup.json"
    call_command("export_tournament", played.slug, "--out", str(out))
    played.delete()
    call_command("import_tournament", str(out))
    copy = Tournament.objects.get(slug=json.loads(out.read_text())["tournament"]["slug"])
    assert copy.owner.username == "owner"
    # Fresh links even where the file's were free again: a file names no link.
    document = json.loads(out.read_text())
    assert not set(copy.round_set.values_list("matches__token", flat=True)) & {
        m["token"] for m in document["matches"]
    }
    assert normal(tournament_document(tournament=copy))["matches"] == normal(document)["matches"]


def test_players_new_to_the_database_are_named_by_their_new_ids(played, owner):
    """Into another database: no player has the source id with that name, so
    every player is created and the trail's player ids follow them."""
    document = tournament_document(tournament=played)
    for player in document["players"]:
        player["name"] += " (elsewhere)"
    document["checksum"] = checksum_of(document)
    copy = tournament_import(document=document, owner=owner, slug="elsewhere")
    new_ids = set(copy.entries.values_list("player_id", flat=True))
    assert not new_ids & {p["id"] for p in document["players"]}
    again = tournament_document(tournament=copy)
    assert normal(again)["audit"][:-1] == normal(document)["audit"]
    recorded = copy.audit.filter(action="game.recorded")
    snapshots = {r["player"] for e in recorded for r in (e.new or {})["racks"]}
    assert snapshots and snapshots <= new_ids


@pytest.mark.parametrize("reason", get_args(Refusal))
def test_a_trail_with_refused_entries_exports_and_imports(played, owner, reason):
    """A refused entry is kept in its match's history with its reason; the
    backup of that history reads back (the file says every reason there is)."""
    match = Match.objects.filter(round__tournament=played).order_by("pk").first()
    assert match is not None
    players = list(match.seats.order_by("position").values_list("player_id", flat=True))
    racks = [rules.RackIn(player=players[0], tiles="")] + [
        rules.RackIn(player=p, points=5, jokers=None) for p in players[1:]
    ]
    refused = game_entry_refused(
        match=match, number=1, ending="rummikub", racks=racks, reason=reason, user=None
    )
    assert refused is not None
    document = json.loads(json.dumps(tournament_document(tournament=played)))
    copy = tournament_import(document=document, owner=owner, slug=f"refused-{reason}")
    kept = AuditEvent.objects.filter(tournament=copy, action="game.refused").get()
    assert kept.new["reason"] == reason
