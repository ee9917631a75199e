"""Players on the organiser desk: add, find, import, check in or out, withdraw."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import (
    ClubFactory,
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    round_play,
)
from tournaments.models import Club, Entry, Player, Round, Tournament
from tournaments.services.rounds import round_seat_next

pytestmark = pytest.mark.django_db

DESK = "/t/club-night/organise/"


@pytest.fixture
def organiser(client: Client) -> tuple[Client, Tournament]:
    tournament = TournamentFactory(slug="club-night", rounds=2, games_per_round=1)
    client.force_login(tournament.owner)
    return client, tournament


def entered(tournament: Tournament) -> set[str]:
    return set(Entry.objects.filter(tournament=tournament).values_list("player__name", flat=True))


# ----------------------------------------------------------------------------- add


def test_a_new_player_is_made_and_entered_in_one_line(organiser) -> None:
    client, tournament = organiser
    club = ClubFactory(name="Roskilde", created_by=tournament.owner)  # a club they may see
    response = client.post(f"{DESK}players/new/", {"name": " Karen Blixen ", "club": club.pk})
    assert response.status_code == 302 and response["Location"] == DESK
    player = Player.objects.get(name="Karen Blixen")
    assert player.club == club
    assert Entry.objects.get(tournament=tournament, player=player).status == Entry.Status.ACTIVE
    page = client.get(DESK).content.decode()
    assert "Karen Blixen entered." in page
    client.post(f"{DESK}players/new/", {"name": "Mette", "club": ""})
    assert Player.objects.get(name="Mette").club is None
    assert entered(tournament) == {"Karen Blixen", "Mette"}


def test_a_walk_in_mid_event_plays_from_the_next_round(organiser) -> None:
    client, tournament = organiser
    EntryFactory.create_batch(4, tournament=tournament)
    round_play(round_seat_next(tournament=tournament), games=1)
    response = client.post(f"{DESK}players/new/", {"name": "Late Larsen"}, follow=True)
    assert "Late Larsen entered: seated from the next round." in response.content.decode()
    late = Entry.objects.get(tournament=tournament, player__name="Late Larsen")
    assert late.status == Entry.Status.ACTIVE
    assert not Round.objects.get().seats.filter(player=late.player).exists()


def test_a_walk_in_before_any_result_is_told_a_reseat_seats_them_now(organiser) -> None:
    client, tournament = organiser
    EntryFactory.create_batch(4, tournament=tournament)
    round_seat_next(tournament=tournament)
    page = client.post(f"{DESK}players/new/", {"name": "Late Larsen"}, follow=True)
    html = page.content.decode()
    reseat = f'<a href="{DESK}rounds/1/reseat/">re-seat it to seat them now.</a>'
    assert "Late Larsen entered. Round 1 has no results yet: " + reseat in html
    assert f'or at once if you <a href="{DESK}rounds/1/reseat/">re-seat round 1</a>' in html
    late = Entry.objects.get(tournament=tournament, player__name="Late Larsen")
    assert not Round.objects.get().seats.filter(player=late.player).exists()
    client.post(f"{DESK}rounds/1/reseat/")
    assert Round.objects.get().seats.filter(player=late.player).exists()


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"name": ""}, "required"),
        ({"name": "   "}, "required"),
        ({"name": "x" * 121}, "at most 120"),
        ({"name": "Known"}, "Known is already entered"),
        ({"name": "Anna", "club": "999999"}, "valid choice"),
    ],
)
def test_a_bad_new_player_is_refused_at_its_field(organiser, data, fragment) -> None:
    client, tournament = organiser
    EntryFactory(tournament=tournament, player=PlayerFactory(name="Known"))
    players = Player.objects.count()
    response = client.post(f"{DESK}players/new/", data)
    assert response.status_code == 400
    form = response.context["player_form"]
    field = "club" if "club" in data else "name"
    assert fragment in form.errors[field][0]
    assert '<p class="field-error" role="alert">' in response.content.decode()
    assert Player.objects.count() == players
    assert entered(tournament) == {"Known"}


def test_a_co_organiser_cannot_name_the_owners_private_club(client: Client) -> None:
    """The club list is the clubs the user may name (``access.clubs_usable_q``),
    not every club they may see: the owner's private club shows to a co-organiser
    on a private tournament, but is not theirs to give a new player."""
    owner, co = UserFactory(), UserFactory()
    private = ClubFactory(name="Owner's Own", created_by=owner, public=False)
    public_club = ClubFactory(name="Open Club")
    TournamentFactory(club=public_club, public=True)  # a public tournament shows it
    tournament = TournamentFactory(
        slug="club-night", owner=owner, club=private, public=False, rounds=2, games_per_round=1
    )
    tournament.co_organisers.add(co)
    client.force_login(co)
    offered = client.get(DESK).context["player_form"].fields["club"].queryset
    assert list(offered) == [public_club]
    players = Player.objects.count()
    response = client.post(f"{DESK}players/new/", {"name": "Anna", "club": private.pk})
    assert response.status_code == 400
    assert "valid choice" in response.context["player_form"].errors["club"][0]
    assert Player.objects.count() == players and not entered(tournament)
    client.force_login(owner)  # their own club is theirs to name
    response = client.post(f"{DESK}players/new/", {"name": "Anna", "club": private.pk})
    assert response.status_code == 302 and Player.objects.get(name="Anna").club == private


def test_an_existing_player_with_that_name_and_club_is_entered_not_made_again(organiser) -> None:
    client, tournament = organiser
    known = PlayerFactory(name="Anna", created_by=tournament.owner)
    client.post(f"{DESK}players/new/", {"name": "Anna"})
    assert Player.objects.filter(name="Anna").count() == 1
    assert Entry.objects.get(tournament=tournament).player == known


def test_another_organisers_private_player_of_that_name_is_not_taken(organiser) -> None:
    # Matching by name must not reach players this organiser may not see.
    client, tournament = organiser
    hidden = PlayerFactory(name="Anna")
    client.post(f"{DESK}players/new/", {"name": "Anna"})
    assert Player.objects.filter(name="Anna").count() == 2
    assert Entry.objects.get(tournament=tournament).player != hidden


# ----------------------------------------------------------------------------- find


def test_the_search_lists_players_not_entered_by_name_or_club(organiser) -> None:
    client, tournament = organiser
    club = ClubFactory(name="Odense")
    mine = tournament.owner  # players they made; another's private ones stay hidden
    PlayerFactory(name="Karen Blixen", created_by=mine)
    PlayerFactory(name="Mette", club=club, created_by=mine)
    EntryFactory(tournament=tournament, player=PlayerFactory(name="Karen Entered"))
    PlayerFactory(name="Someone Else", created_by=mine)
    PlayerFactory(name="Karen Private")  # nobody's, in no tournament: staff only
    response = client.get(DESK, {"q": "kar"})
    found = [p.name for p in response.context["found"]]
    assert found == ["Karen Blixen"]
    assert [p.name for p in client.get(DESK, {"q": "odense"}).context["found"]] == ["Mette"]
    empty = client.get(DESK, {"q": "nobody"})
    assert empty.context["found"] == []
    assert "No player found who is not entered yet." in empty.content.decode()
    assert client.get(DESK).context["found"] is None
    # Each result's Enter button posts that player.
    blixen = Player.objects.get(name="Karen Blixen")
    page = response.content.decode()
    assert f'name="players" value="{blixen.pk}"' in page and "js/desk.js" in page
    done = client.post(f"{DESK}entries/", {"players": blixen.pk}, follow=True)
    assert "Karen Blixen entered." in done.content.decode()
    assert "Karen Blixen" in entered(tournament)


def test_the_players_api_finds_by_club_for_the_desk_script(organiser) -> None:
    client, tournament = organiser
    PlayerFactory(name="Mette", club=ClubFactory(name="Odense"), created_by=tournament.owner)
    results = client.get("/api/v1/players/?search=odens").json()["results"]
    assert [(p["name"], p["club_name"]) for p in results] == [("Mette", "Odense")]


def test_entering_a_player_already_entered_is_refused(organiser) -> None:
    client, tournament = organiser
    entry = EntryFactory(tournament=tournament, status=Entry.Status.WITHDRAWN)
    response = client.post(f"{DESK}entries/", {"players": entry.player_id}, follow=True)
    assert "Choose the players to enter." in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


# ----------------------------------------------------------------------------- import

BAD_LIST = "name,club\nAnna,Roskilde\n,Odense\nBo\n"


def test_an_import_with_a_bad_line_shows_it_and_stores_nothing(organiser) -> None:
    client, _tournament = organiser
    response = client.post(f"{DESK}players/import/", {"text": BAD_LIST})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing imported: 1 problem in the list." in page
    rows = response.context["rows"]
    assert [(line.number, line.name, messages) for line, messages in rows] == [
        (2, "Anna", []),
        (3, "", ["the name is missing"]),
        (4, "Bo", []),
    ]
    assert '<p class="field-error">the name is missing</p>' in page
    # The list is back in the text box, to be fixed; there is nothing to confirm.
    assert ">\nname,club\nAnna,Roskilde\n,Odense\nBo\n</textarea>" in page
    assert "/players/import/confirm/" not in page
    assert not Player.objects.exists() and not Club.objects.exists()
    # Confirming the bad text anyway imports nothing either.
    again = client.post(f"{DESK}players/import/confirm/", {"text": BAD_LIST})
    assert again.status_code == 400 and "the name is missing" in again.content.decode()
    assert not Player.objects.exists() and not Entry.objects.exists()


def test_a_fixed_import_is_previewed_then_confirmed(organiser) -> None:
    client, tournament = organiser
    EntryFactory(tournament=tournament, player=PlayerFactory(name="Bo"))
    fixed = BAD_LIST.replace(",Odense", "Carl,Odense")
    preview = client.post(f"{DESK}players/import/", {"text": fixed})
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "Import and enter 3 players" in page and "already entered" in page
    assert "new club" in page
    assert not Club.objects.exists() and Player.objects.count() == 1
    done = client.post(f"{DESK}players/import/confirm/", {"text": fixed}, follow=True)
    assert "3 players imported and entered (2 new)." in done.content.decode()
    assert entered(tournament) == {"Anna", "Bo", "Carl"}
    assert set(Club.objects.values_list("name", flat=True)) == {"Roskilde", "Odense"}


def test_an_import_naming_another_organisers_private_player_makes_a_new_one(organiser) -> None:
    # The preview must not tell that the private player exists, and the import must not
    # reach them (it once answered 500 when entering them).
    client, tournament = organiser
    club = ClubFactory(name="Alice Club")
    hidden = PlayerFactory(name="Zeta Secret", club=club)
    text = "name,club\nZeta Secret,Alice Club\n"
    preview = client.post(f"{DESK}players/import/", {"text": text})
    assert preview.status_code == 200
    [(line, _messages)] = preview.context["rows"]
    assert line.player is None
    done = client.post(f"{DESK}players/import/confirm/", {"text": text}, follow=True)
    assert done.status_code == 200
    [entry] = Entry.objects.filter(tournament=tournament)
    assert entry.player != hidden and entry.player.name == "Zeta Secret"
    assert entry.player.created_by == tournament.owner


def test_an_import_from_a_file_and_a_plain_list_of_names(organiser) -> None:
    client, tournament = organiser
    upload = SimpleUploadedFile("players.csv", "Åse;Køge\nBirk;\n".encode("cp1252"))
    preview = client.post(f"{DESK}players/import/", {"file": upload, "text": ""})
    assert preview.status_code == 200
    assert [(line.name, line.club) for line, _m in preview.context["rows"]] == [
        ("Åse", "Køge"),
        ("Birk", ""),
    ]
    client.post(f"{DESK}players/import/confirm/", {"text": preview.context["text"]})
    client.post(f"{DESK}players/import/confirm/", {"text": "Dora\nEmil\n"})
    assert entered(tournament) == {"Åse", "Birk", "Dora", "Emil"}


@pytest.mark.parametrize(
    ("data", "field", "fragment"),
    [
        ({"text": "  "}, "text", "Paste a list"),
        ({"file": SimpleUploadedFile("x.csv", b"\x81\x8d\x8f")}, "file", "not text"),
    ],
)
def test_an_import_with_nothing_to_read_is_refused_at_its_field(organiser, data, field, fragment):
    client, _tournament = organiser
    response = client.post(f"{DESK}players/import/", data)
    assert response.status_code == 400
    assert fragment in response.context["form"].errors[field][0]
    assert not Player.objects.exists()


def test_the_import_page_opens_empty_and_an_empty_confirmation_says_why(organiser) -> None:
    client, _tournament = organiser
    response = client.get(f"{DESK}players/import/")
    assert response.status_code == 200 and response.context["preview"] is None
    empty = client.post(f"{DESK}players/import/confirm/", {"text": ""})
    assert empty.status_code == 400
    assert "The file lists no players." in empty.content.decode()
    assert not Player.objects.exists()


# ----------------------------------------------------------------------------- status


def test_withdrawing_asks_first(organiser) -> None:
    client, tournament = organiser
    entry = EntryFactory(tournament=tournament, player=PlayerFactory(name="Gone Gunnar"))
    base = f"{DESK}players/{entry.player_id}/withdraw/"
    desk = client.get(DESK).content.decode()
    assert f'href="{base}confirm/"' in desk
    confirm = client.get(f"{base}confirm/")
    assert confirm.status_code == 200
    page = confirm.content.decode()
    assert "Withdraw Gone Gunnar?" in page and f'action="{base}"' in page
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE
    done = client.post(base, follow=True)
    assert "Gone Gunnar withdrawn." in done.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    assert client.get(f"{DESK}players/999999/withdraw/confirm/").status_code == 404


# ----------------------------------------------------------------------------- who


def _actions(slug: str, player_id: int) -> list[tuple[str, str, dict[str, Any]]]:
    desk = f"/t/{slug}/organise/"
    return [
        ("get", f"{desk}players/{player_id}/withdraw/confirm/", {}),
        ("get", f"{desk}players/import/", {}),
        ("post", f"{desk}players/new/", {"name": "Intruder"}),
        ("post", f"{desk}players/import/", {"text": "Intruder"}),
        ("post", f"{desk}players/import/confirm/", {"text": "Intruder"}),
        ("post", f"{desk}entries/", {"players": player_id}),
        ("post", f"{desk}players/{player_id}/withdraw/", {}),
    ]


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("stranger", 403), ("owner", None), ("staff", None)],
)
def test_only_organisers_use_the_players_desk(client: Client, who: str, status: int | None):
    tournament = TournamentFactory(public=True)
    entry = EntryFactory(tournament=tournament)
    spare = PlayerFactory()
    if who != "anonymous":
        client.force_login(
            {
                "stranger": UserFactory(),
                "owner": tournament.owner,
                "staff": UserFactory(is_staff=True),
            }[who]
        )
    for method, url, data in _actions(tournament.slug, entry.player_id):
        response = getattr(client, method)(url, data)
        if status is None:
            assert response.status_code in (200, 302), url
        else:
            assert response.status_code == status, url
            if status == 302:
                assert response["Location"].startswith("/accounts/login/")
    if status is not None:
        assert not Player.objects.filter(name="Intruder").exists()
        entry.refresh_from_db()
        assert entry.status == Entry.Status.ACTIVE
    else:
        assert Player.objects.filter(name="Intruder").count() == 1
    assert not Entry.objects.filter(player=spare).exists()


def test_a_private_tournament_players_desk_is_not_found_for_others(client: Client) -> None:
    tournament = TournamentFactory(public=False)
    client.force_login(UserFactory())
    assert client.get(f"/t/{tournament.slug}/organise/players/import/").status_code == 404
    assert (
        client.post(f"/t/{tournament.slug}/organise/players/new/", {"name": "X"}).status_code == 404
    )
    assert not Player.objects.exists()
