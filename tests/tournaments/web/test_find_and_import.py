"""Names found whatever their accents (find my table, the desk's search) and a
players list imported the forgiving way (matches offered, a new player on one
click, the header in the page's language, Windows-1252 said)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry, Player, Tournament
from tournaments.search_names import FOLDS, name_fold
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

NAMES = ("Bjørn Hansen", "Åse Lund", "Mette Østergaard", "Lars Eriksen", "Jürgen Müller")


@pytest.fixture
def seated() -> Tournament:
    tournament = TournamentFactory(slug="hall", public=True, owner__password=None)
    for name in NAMES:
        EntryFactory(tournament=tournament, player=PlayerFactory(name=name))
    rounds.round_seat_next(tournament=tournament)
    return tournament


def _rows(page: str) -> list[str]:
    return re.findall(r'<th scope="row" class="name">([^<]*)</th>', page)


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("Bjorn", ["Bjørn Hansen"]),
        ("bjoern", ["Bjørn Hansen"]),
        ("Ase", ["Åse Lund"]),
        ("Aase", ["Åse Lund"]),
        ("ostergaard", ["Mette Østergaard"]),
        ("mueller", ["Jürgen Müller"]),
        ("lund ase", ["Åse Lund"]),
        ("zzz", []),
    ],
)
def test_find_my_table_finds_a_name_whatever_its_accents(seated, query, found):
    page = Client().get("/t/hall/tables/", {"q": query}).content.decode()
    assert _rows(page) == found


def test_find_my_table_hands_its_script_the_folds_and_each_rows_fold(
    seated, django_assert_num_queries
):
    client = Client()
    client.get("/t/hall/tables/")  # the rows are cached per version
    with django_assert_num_queries(3):
        page = client.get("/t/hall/tables/").content.decode()
    config = re.search(r'<script id="name-folds" type="application/json">(.*?)</script>', page)
    assert config is not None
    assert json.loads(config.group(1)) == [list(pair) for pair in FOLDS]
    for name in NAMES:
        assert f'data-name="{name_fold(name)}"' in page
    assert len(_rows(page)) == len(NAMES)


# ----------------------------------------------------------------------------- the desk

DESK = "/t/club-night/organise/"


@pytest.fixture
def organiser(client: Client) -> tuple[Client, Tournament]:
    tournament = TournamentFactory(slug="club-night", rounds=2, games_per_round=1)
    client.force_login(tournament.owner)
    return client, tournament


def test_the_desks_search_finds_a_name_whatever_its_accents(organiser):
    client, tournament = organiser
    for name in NAMES:
        PlayerFactory(name=name, created_by=tournament.owner)
    for query, found in (("Bjorn", ["Bjørn Hansen"]), ("aase", ["Åse Lund"]), ("zz", [])):
        assert [p.name for p in client.get(DESK, {"q": query}).context["found"]] == found


def test_a_match_is_offered_and_one_click_makes_a_new_player_instead(organiser):
    client, tournament = organiser
    roskilde = ClubFactory(name="Roskilde", created_by=tournament.owner)
    lars = PlayerFactory(name="Lars Eriksen", created_by=tournament.owner)
    mette = PlayerFactory(name="Mette Sørensen", club=roskilde, created_by=tournament.owner)
    text = "Navn;Klub\nLars   Eriksen;\nMette Sørensen;\nBo Berg;Vejle\n"
    preview = client.post(f"{DESK}players/import/", {"text": text})
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "matches the existing player Lars Eriksen (no club)" in page
    assert "matches the existing player Mette Sørensen (Roskilde)" in page
    assert 'name="new" value="2" form="import-confirm"' in page
    assert 'name="new" value="3" form="import-confirm"' in page
    assert 'name="new" value="4"' not in page  # a new player already
    assert 'id="import-confirm"' in page and "Navn" not in _names_previewed(page)
    done = client.post(f"{DESK}players/import/confirm/", {"text": text, "new": ["3"]}, follow=True)
    assert "3 players imported and entered (2 new)." in done.content.decode()
    entered = Player.objects.filter(entries__tournament=tournament)
    assert {lars.pk} == set(entered.filter(name="Lars Eriksen").values_list("pk", flat=True))
    assert not entered.filter(pk=mette.pk).exists()
    assert entered.filter(name="Mette Sørensen", club=None).count() == 1
    assert Player.objects.filter(name="Lars Eriksen").count() == 1


def _names_previewed(page: str) -> list[str]:
    return re.findall(r'<td class="name">([^<]*)</td>', page)


def test_a_windows_1252_file_is_read_and_said_so(organiser):
    client, tournament = organiser
    upload = SimpleUploadedFile("players.csv", "Navn;Klub\nSøren Ærø;Århus\n".encode("cp1252"))
    preview = client.post(f"{DESK}players/import/", {"file": upload, "text": ""})
    page = preview.content.decode()
    assert "read as Windows-1252" in page
    assert _names_previewed(page) == ["Søren Ærø"]
    utf8 = SimpleUploadedFile("players.csv", "Navn;Klub\nSøren Ærø;Århus\n".encode())
    page = client.post(f"{DESK}players/import/", {"file": utf8, "text": ""}).content.decode()
    assert "read as Windows-1252" not in page and _names_previewed(page) == ["Søren Ærø"]
    assert not Entry.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("prefix", "header"),
    [("", "name,club,category"), ("/da", "navn,klub,kategori"), ("/de", "name,verein,kategorie")],
)
def test_the_help_names_the_header_in_the_pages_language(organiser, prefix, header):
    client, _ = organiser
    page = client.get(f"{prefix}{DESK}players/import/").content.decode()
    assert header in page


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("Bjorn", ["Bjørn Hansen"]),
        ("aase", ["Åse Lund"]),
        ("ostergaard", ["Mette Østergaard"]),
        ("lund åse", ["Åse Lund"]),
        ("roskilde", ["Lars Eriksen"]),
        ("lars", ["Lars Eriksen"]),
        ("zz", []),
    ],
)
def test_the_players_api_the_desks_script_asks_finds_whatever_the_accents(organiser, query, found):
    client, tournament = organiser
    roskilde = ClubFactory(name="Roskilde", created_by=tournament.owner)
    for name in NAMES:
        club = roskilde if name == "Lars Eriksen" else None
        PlayerFactory(name=name, club=club, created_by=tournament.owner)
    PlayerFactory(name="Bjørn Hidden")  # nobody's, in no tournament: not theirs to find
    answer = client.get("/api/v1/players/", {"search": query, "page_size": 100})
    assert answer.status_code == 200
    assert [p["name"] for p in answer.json()["results"]] == found
