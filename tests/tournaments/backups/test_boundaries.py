"""A backup is data, never an identity: players and clubs are the restoring
user's (or public ones), the file's users are names only, links are new, and
documents past what one request restores, or shaped to hurt, are refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.backups.test_hostile import CASES, forged
from tournaments.backups.checks import document_read
from tournaments.backups.document import ENTRY_SOURCES_MAX, checksum_of, tournament_document
from tournaments.backups.restore import player_map_by_name, tournament_import
from tournaments.models import AuditEvent, Club, Game, Player, Tournament
from tournaments.selectors.matches import match_replaced
from tournaments.services.players_file import players_import

pytestmark = pytest.mark.django_db


def _forged(played: Tournament, victim: dict[str, Any], name: str) -> dict[str, Any]:
    forge = dict(CASES)[name]
    return document_read(forged(played, victim, forge))


def test_a_victims_player_named_by_id_and_name_is_not_reused(played, victim):
    mallory = UserFactory(username="mallory")
    copy = tournament_import(
        document=_forged(played, victim, "victim-player-reused"), owner=mallory, slug="grab"
    )
    secret = victim["secret"]
    assert not copy.entries.filter(player=secret).exists()
    assert not secret.racks.exclude(game__match=victim["match"]).exists()
    # Every player of the copy is new and the restorer's: a wrong name proves nothing either.
    players = Player.objects.filter(entries__tournament=copy)
    assert {p.created_by for p in players} == {mallory}
    assert "Secret Sam" in {p.name for p in players}
    page = Client().get(f"/p/{secret.pk}/")
    assert page.status_code == 404 or "grab" not in page.content.decode()


def test_the_owner_maps_players_to_their_own_only(played, owner, tmp_path):
    document = tournament_document(tournament=played)
    mine = PlayerFactory(name=document["players"][0]["name"], created_by=owner)
    theirs = PlayerFactory(name=document["players"][1]["name"])
    assert player_map_by_name(document=document, owner=owner) == {
        document["players"][0]["id"]: mine.pk
    }
    copy = tournament_import(
        document=document,
        owner=owner,
        slug="mapped",
        player_map={document["players"][0]["id"]: mine.pk},
    )
    assert copy.entries.filter(player=mine).exists()
    path = tmp_path / "b.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="not one of your players"):
        call_command(
            "import_tournament", str(path), "--slug", "x", "--owner", "owner",
            "--map-players", f"{document['players'][1]['id']}={theirs.pk}",
        )  # fmt: skip
    with pytest.raises(CommandError, match="SOURCE=ID"):
        call_command("import_tournament", str(path), "--owner", "owner", "--map-players", "a=b")
    call_command(
        "import_tournament", str(path), "--slug", "by-command", "--owner", "owner",
        "--map-players", f"{document['players'][0]['id']}={mine.pk}",
    )  # fmt: skip
    assert Tournament.objects.get(slug="by-command").entries.filter(player=mine).exists()


def test_the_web_restore_uses_own_players_of_the_same_name_only_when_asked(played, owner):
    from tests.tournaments.backups.test_desk import upload

    document = tournament_document(tournament=played)
    mine = PlayerFactory(name=document["players"][0]["name"], created_by=owner)
    client = Client()
    client.force_login(owner)
    for slug, asked in (("same", "on"), ("plain", "")):
        answer = client.post(
            "/t/new/restore/", {"file": upload(document), "slug": slug, "same_names": asked}
        )
        assert answer.status_code == 302
    assert not Tournament.objects.get(slug="plain").entries.filter(player=mine).exists()
    assert Tournament.objects.get(slug="same").entries.filter(player=mine).exists()


@pytest.mark.parametrize("name", ["victim-club-named", "victim-club-exact"])
def test_a_victims_private_club_is_neither_joined_nor_shown(played, victim, name):
    mallory = UserFactory(username="mallory")
    copy = tournament_import(document=_forged(played, victim, name), owner=mallory, slug="c")
    club = victim["club"]
    assert list(club.players.all()) == [victim["secret"]]
    assert copy.club != club
    made = Club.objects.filter(created_by=mallory)
    assert made.exists() and all(c.created_by == mallory for c in made)


def test_a_public_club_is_still_met_by_name(played, owner):
    document = tournament_document(tournament=played)
    public = Club.objects.get(name="Home club")  # the fixture's public tournament names it
    copy = tournament_import(document=document, owner=UserFactory(), slug="again")
    assert copy.club == public


def test_the_csv_import_meets_only_the_users_own_and_public_clubs(victim):
    mallory = UserFactory(username="mallory")
    tournament = Tournament.objects.create(name="Grab", slug="grab", owner=mallory, public=True)
    own = ClubFactory(name="Mine", created_by=mallory)
    players_import(
        text="Csv Grab,dave hidden club\nAnna,mine\n", tournament=tournament, user=mallory
    )
    grab = Player.objects.get(name="Csv Grab")
    assert grab.club != victim["club"] and grab.club.created_by == mallory
    assert Player.objects.get(name="Anna").club == own
    assert list(victim["club"].players.all()) == [victim["secret"]]


def test_the_files_users_are_names_only(played, victim):
    mallory = UserFactory(username="mallory")
    UserFactory(username="root")
    document = tournament_document(tournament=played, checksum=False)
    document["tournament"]["co_organisers"] = ["dave", "root"]
    document["games"][0]["recorded_by"] = "dave"
    for event in document["audit"]:
        event["user"] = event["username"] = "root"
    document["checksum"] = checksum_of(document)
    copy = tournament_import(document=document, owner=mallory, slug="names", user=mallory)
    assert not copy.co_organisers.exists()
    game = Game.objects.filter(match__round__tournament=copy).order_by("pk").first()
    assert game.recorded_by is None and game.original_recorded_by == "dave"
    events = AuditEvent.objects.filter(tournament=copy)
    restored = events.exclude(action="tournament.imported")
    assert not restored.exclude(user=None).exists() and not restored.exclude(username="").exists()
    assert {e.who() for e in restored} == {"root (in the original)"}
    imported = events.get(action="tournament.imported")
    assert (imported.user, imported.username) == (mallory, "mallory")
    # Exported again, the names stand as they were written.
    again = tournament_document(tournament=copy)
    assert again["games"][0]["recorded_by"] == "dave"
    assert {e["username"] for e in again["audit"][:-1]} == {"root"}


def test_no_restore_takes_over_a_replaced_link(played, victim):
    mallory = UserFactory(username="mallory")
    for name in ("token-victims-old", "token-digest-claimed", "token-weak"):
        copy = tournament_import(document=_forged(played, victim, name), owner=mallory, slug=name)
        tokens = set(copy.round_set.values_list("matches__token", flat=True))
        assert victim["old_token"] not in tokens and "a" not in tokens
        assert all(len(t) >= 24 for t in tokens)
    # The old printed sheet still leads to the original's match.
    assert match_replaced(token=victim["old_token"]) == victim["match"]
    assert (
        not AuditEvent.objects.filter(action="match.token_regenerated", old__has_key="digest")
        .exclude(tournament=victim["match"].round.tournament)
        .exists()
    )


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("number-5000-digits", "a number no backup writes"),
        ("player-id-10e30", "a number no backup writes"),
        ("nesting-900", "nests deeper than a backup does"),
        ("nesting-100000", "nests deeper than a backup does"),
        ("second-entry-foo", "].second_entry"),
        ("audit-300-deep", "nests deeper than a backup"),
        ("audit-racks-not-objects", "audit["),
        ("audit-player-list", "names a player by something other than an id"),
    ],
)
def test_a_hostile_document_is_refused_with_its_reason(client, played, victim, name, reason):
    from tests.tournaments.api.conftest import client_as

    mallory = UserFactory(username="mallory")
    data = forged(played, victim, dict(CASES)[name])
    answer = client_as(mallory).post(
        "/api/v1/tournaments/import/?slug=h", data, content_type="application/json"
    )
    assert answer.status_code == 400, answer.content[:300]
    assert reason in answer.json()["document"][0]


def test_entry_sources_are_written_by_username_and_restored_as_text(played, victim):
    """Where each entry came from travels with the game: the user by username,
    never an id; restored, a name only (no account), which exports back the same."""
    document = tournament_document(tournament=played, checksum=False)
    sources = {
        g["number"]: g["entry_sources"] for g in document["games"] if g["state"] != "confirmed"
    }
    disputed = next(g for g in document["games"] if g["state"] == "disputed")
    assert [(s["via"], s["user"]) for s in disputed["entry_sources"]] == [
        ("link_api", None),
        ("user", "co"),
    ]
    assert all(len(s["key"]) in (0, 24) for group in sources.values() for s in group)
    disputed["entry_sources"][1]["user"] = "dave"  # a name the victim's account has
    document["checksum"] = checksum_of(document)
    mallory = UserFactory(username="mallory")
    copy = tournament_import(document=document, owner=mallory, slug="sources")
    game = Game.objects.get(match__round__tournament=copy, state="disputed")
    restored = game.entry_sources[1]
    assert (restored["via"], restored["user"], restored["original_user"]) == ("user", None, "dave")
    again = tournament_document(tournament=copy)
    assert (
        next(g for g in again["games"] if g["state"] == "disputed")["entry_sources"]
        == (disputed["entry_sources"])
    )


def test_a_game_with_more_entry_sources_than_a_backup_holds_keeps_its_first_and_latest(played):
    game = Game.objects.filter(match__round__tournament=played, state="entered").first()
    first = game.entry_sources[0]
    marks = [
        {"via": "page", "user": None, "session": f"{n:024x}", "key": "", "marked": True}
        for n in range(30)
    ]
    game.entry_sources = [first, *marks]
    game.save(update_fields=["entry_sources"])
    written = next(g for g in tournament_document(tournament=played)["games"] if g["id"] == game.pk)
    assert len(written["entry_sources"]) == ENTRY_SOURCES_MAX
    assert written["entry_sources"][0]["via"] == first["via"]
    assert [s["session"] for s in written["entry_sources"][1:]] == [
        m["session"] for m in marks[-15:]
    ]
    tournament_import(
        document=tournament_document(tournament=played), owner=UserFactory(), slug="capped"
    )
