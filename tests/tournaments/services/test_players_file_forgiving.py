"""A players file read as people save it: names clean, the header in any of
the pages' languages, semicolons and tabs, a BOM, Windows-1252; each line
matched to an existing player the importing user may use (never another
organiser's private one), unless the organiser asks for a new one; and every
other path that stores a name stores it clean."""

from __future__ import annotations

import importlib

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.errors import UserError
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.backups.document import checksum_of, tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.models import Entry, Player
from tournaments.services.players import player_create, player_enter, player_update
from tournaments.services.players_file import (
    HEADERS,
    PlayersFileError,
    header_shown,
    players_file_decoded,
    players_import,
    players_import_preview,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="owner")


@pytest.fixture
def known(owner):
    """The owner's players: Lars (no club), Mette of Roskilde, Åse of Odense."""
    roskilde = ClubFactory(name="Roskilde", created_by=owner)
    odense = ClubFactory(name="Odense", created_by=owner)
    return {
        "lars": PlayerFactory(name="Lars Eriksen", created_by=owner),
        "mette": PlayerFactory(name="Mette Sørensen", club=roskilde, created_by=owner),
        "ase": PlayerFactory(name="Åse Lund", club=odense, created_by=owner),
    }


# Each line of a file, and the known player it is (None: a new one).
@pytest.mark.parametrize(
    ("text", "matched"),
    [
        ("Lars   Eriksen\n", "lars"),  # spaces collapsed
        (" Lars Eriksen \n", "lars"),
        ("lars eriksen\n", "lars"),  # any case
        ("LARS ERIKSEN,\n", "lars"),
        ("Mette Sørensen,\n", "mette"),  # no club: the one Mette, whatever her club
        ("Mette Sørensen\n", "mette"),
        ("Mette Sørensen,roskilde\n", "mette"),
        ("Mette Sørensen,Odense\n", None),  # another club: another Mette
        ("Mette Sørensen,Vejle\n", None),  # a new club: a new Mette
        ("A\u030ase Lund\n", "ase"),  # "å" written as "a" and a combining ring
        ("ÅSE LUND;Odense\n", "ase"),
        ("Ase Lund\n", None),  # a search finds her so; an import does not guess
        ("Navn;Klub\nMette Sørensen;Roskilde\n", "mette"),  # a Danish Excel header
        ("\ufeffname,club\nMette Sørensen,Roskilde\n", "mette"),  # a BOM
        ("Namn\tKlubb\nMette Sørensen\tRoskilde\n", "mette"),  # Swedish, tab-separated
        ("Naam;Club;Categorie\nLars Eriksen;;U14\n", "lars"),
    ],
)
def test_a_line_is_the_known_player_it_names(owner, known, text, matched):
    preview = players_import_preview(text=text, user=owner)
    assert preview.problems == []
    (line,) = preview.lines
    assert line.player == (known[matched] if matched else None)
    before = Player.objects.count()
    result = players_import(text=text, user=owner)
    assert result.existing == ([known[matched]] if matched else [])
    assert Player.objects.count() == before + (0 if matched else 1)
    assert not Player.objects.filter(name__in=["Navn", "Namn", "Naam", "name"]).exists()


@pytest.mark.parametrize("language", sorted(HEADERS))
@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_the_header_is_read_in_every_language(owner, language, delimiter):
    header = header_shown(language).replace(",", delimiter).title()
    text = f"{header}\nBo Berg{delimiter}Vejle{delimiter}U14\n"
    tournament = TournamentFactory(owner=owner)
    preview = players_import_preview(text=text, user=owner, tournament=tournament)
    assert preview.problems == []
    assert [(ln.name, ln.club, ln.category) for ln in preview.lines] == [
        ("Bo Berg", "Vejle", "U14")
    ]
    players_import(text=text, user=owner, tournament=tournament)
    entry = Entry.objects.get(tournament=tournament)
    assert (entry.player.name, entry.player.club.name, entry.category) == (
        "Bo Berg",
        "Vejle",
        "U14",
    )


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "name,club,category"),
        ("da", "navn,klub,kategori"),
        ("de", "name,verein,kategorie"),
        ("nb", "navn,klubb,kategori"),
        ("nl", "naam,club,categorie"),
        ("sv", "namn,klubb,kategori"),
        ("pt-br", "name,club,category"),
        (None, "name,club,category"),
    ],
)
def test_the_header_is_shown_in_the_pages_language(language, shown):
    assert header_shown(language) == shown


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # A semicolon file's names may hold commas.
        ("Eriksen, Lars;Roskilde\n", [("Eriksen, Lars", "Roskilde")]),
        # A first line without a separator: the next one says it.
        ("Bo Berg\nMette Sørensen;Roskilde\n", [("Bo Berg", ""), ("Mette Sørensen", "Roskilde")]),
        ("Bo Berg\tVejle\n", [("Bo Berg", "Vejle")]),
        ("Bo  Berg ,  Vejle  Club \n", [("Bo Berg", "Vejle Club")]),
    ],
)
def test_the_separator_is_read_off_the_first_line_that_has_one(owner, text, read):
    preview = players_import_preview(text=text, user=owner)
    assert preview.problems == []
    assert [(line.name, line.club) for line in preview.lines] == read


@pytest.mark.parametrize(
    ("raw", "text", "windows"),
    [
        ("Søren;Århus\n".encode(), "Søren;Århus\n", False),
        (b"\xef\xbb\xbfS\xc3\xb8ren\n", "Søren\n", False),
        ("Søren;Århus\n".encode("cp1252"), "Søren;Århus\n", True),
        ("Jürgen Müller\n".encode("cp1252"), "Jürgen Müller\n", True),
    ],
)
def test_a_file_is_read_as_utf8_else_windows_1252(raw, text, windows):
    assert players_file_decoded(raw) == (text, windows)


def test_bytes_that_are_no_text_are_refused():
    with pytest.raises(UserError) as caught:
        players_file_decoded(b"\x81\x8d\x8f\x90\x9d")
    assert caught.value.field == "file"


def test_among_namesakes_a_line_without_a_club_means_the_one_without(owner):
    vejle, odense = ClubFactory(name="Vejle"), ClubFactory(name="Odense")
    PlayerFactory(name="Bo Berg", club=vejle, created_by=owner)
    PlayerFactory(name="Bo Berg", club=odense, created_by=owner)
    assert players_import_preview(text="Bo Berg\n", user=owner).lines[0].player is None
    plain = PlayerFactory(name="Bo Berg", created_by=owner)
    assert players_import_preview(text="Bo Berg\n", user=owner).lines[0].player == plain


def test_a_matched_line_marked_new_makes_a_new_player(owner, known):
    tournament = TournamentFactory(owner=owner)
    text = "name,club\nLars Eriksen\nMette Sørensen,Roskilde\n"
    preview = players_import_preview(text=text, user=owner, tournament=tournament, new_lines={2})
    assert [(line.player, line.new) for line in preview.lines] == [
        (known["lars"], True),
        (known["mette"], False),
    ]
    result = players_import(text=text, user=owner, tournament=tournament, new_lines={2})
    assert [p.name for p in result.created] == ["Lars Eriksen"]
    assert result.created[0] != known["lars"] and result.existing == [known["mette"]]
    entered = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    assert entered == {result.created[0].pk, known["mette"].pk}


def test_two_lines_of_one_player_enter_them_once(owner, known):
    tournament = TournamentFactory(owner=owner)
    result = players_import(
        text="Mette Sørensen\nMette Sørensen,Roskilde\n", user=owner, tournament=tournament
    )
    assert result.existing == [known["mette"]] and result.entered == 1


@pytest.mark.parametrize("text", ["Secret Sam\n", "secret  sam,\n", "Secret Sam,Hidden\n"])
def test_another_organisers_private_player_is_never_matched(owner, text):
    other = UserFactory(username="other")
    hidden = ClubFactory(name="Hidden", created_by=other)
    secret = PlayerFactory(name="Secret Sam", club=hidden, created_by=other)
    tournament = TournamentFactory(owner=owner)
    (line,) = players_import_preview(text=text, user=owner, tournament=tournament).lines
    assert line.player is None
    result = players_import(text=text, user=owner, tournament=tournament)
    assert result.existing == [] and result.created[0] != secret
    assert result.created[0].created_by == owner
    assert not secret.entries.exists()
    assert Player.objects.get(pk=secret.pk).created_by == other


def test_a_player_in_a_public_tournament_may_be_matched(owner):
    shown = TournamentFactory(public=True)
    public = PlayerFactory(name="Open Olga")
    shown.entries.create(player=public)
    (line,) = players_import_preview(text="Open Olga\n", user=owner).lines
    assert line.player == public


# Every other path that stores a name.


def test_the_desk_and_the_admin_store_a_name_clean(owner):
    made = player_create(name="  Bo \t Berg ", created_by=owner)
    assert made.name == "Bo Berg"
    assert player_update(player=made, user=owner, name="Bo  Berg\u00a0Jr").name == "Bo Berg Jr"
    tournament = TournamentFactory(owner=owner)
    walk_in = player_enter(tournament=tournament, name="Lars   Eriksen", user=owner)
    assert walk_in.player.name == "Lars Eriksen"
    again = TournamentFactory(owner=owner)
    assert player_enter(tournament=again, name=" Lars Eriksen", user=owner).player == walk_in.player


def test_the_api_stores_a_name_clean(owner):
    client = APIClient()
    client.force_authenticate(owner)
    answer = client.post("/api/v1/players/", {"name": "Lars   Eriksen"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["name"] == "Lars Eriksen"
    assert Player.objects.get().name == "Lars Eriksen"


def test_a_restored_backup_stores_its_names_clean(owner):
    tournament = TournamentFactory(owner=owner)
    tournament.entries.create(player=PlayerFactory(name="Bo Berg", created_by=owner))
    document = tournament_document(tournament=tournament, checksum=False)
    document["players"][0]["name"] = " Bo \t Berg  Jr "
    document["checksum"] = checksum_of(document)
    copy = tournament_import(document=document, owner=UserFactory(), slug="copy")
    assert [e.player.name for e in copy.entries.all()] == ["Bo Berg Jr"]


def test_names_stored_before_are_made_clean_by_the_migration(owner):
    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0020_player_names_clean")
    spaced = PlayerFactory(name=" Lars   Eriksen ")
    decomposed = PlayerFactory(name="A\u030ase Lund")
    clean = PlayerFactory(name="Bo Berg")
    migration.names_cleaned(apps, None)
    names = [Player.objects.get(pk=p.pk).name for p in (spaced, decomposed, clean)]
    assert names == ["Lars Eriksen", "Åse Lund", "Bo Berg"]
    # Now a file names them as they look.
    (line,) = players_import_preview(text="Lars Eriksen\n", user=None).lines
    assert line.player == spaced


file_line = st.tuples(
    st.sampled_from(["Lars Eriksen", "lars  eriksen", "Mette Sørensen", "Bo Berg", "Åse Lund"]),
    st.sampled_from(["", "Roskilde", "roskilde", "Odense", "Vejle"]),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(file_line, min_size=1, max_size=6), new=st.sets(st.integers(1, 6)))
def test_the_import_does_what_its_preview_says(owner, known, lines, new):
    text = "".join(f"{name},{club}\n" for name, club in lines)
    with transaction.atomic():
        preview = players_import_preview(text=text, user=owner, new_lines=new)
        if preview.problems:
            with pytest.raises(PlayersFileError):
                players_import(text=text, user=owner, new_lines=new)
        else:
            said = {line.player.pk for line in preview.lines if line.player and not line.new}
            fresh = sum(1 for line in preview.lines if line.player is None or line.new)
            result = players_import(text=text, user=owner, new_lines=new)
            assert {p.pk for p in result.existing} == said
            assert len(result.created) == fresh
        transaction.set_rollback(True)
