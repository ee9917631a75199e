"""The match page after review: a replaced link answers 410 (typed racks shown
back, nothing stored), double entry withholds a game's racks until its second
entry, and a heading never echoes a posted junk number."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.web.support import entry_post, play
from tournaments.models import Game, Match, Tournament
from tournaments.services.matches import match_token_regenerate

pytestmark = pytest.mark.django_db

DOUBLE = Tournament.Confirmation.DOUBLE_ENTRY


def racks(match: Match) -> dict[int, dict[str, str]]:
    a, b, c = seated_ids(match)
    return {a: {"tiles": ""}, b: {"tiles": "r5 j"}, c: {"points": "16", "jokers": "1"}}


def test_a_replaced_link_answers_410_and_names_the_table(client: Client) -> None:
    match = match_seated(players=3)
    old = match.token
    match_token_regenerate(match=match, user=match.round.tournament.owner)
    response = client.get(f"/m/{old}/")
    assert response.status_code == 410
    text = response.content.decode()
    name = match.round.tournament.name
    assert (
        "This table's link was replaced by the organisers: ask them for the new score "
        f"sheet (table 1, round 1 of {name})." in text
    )
    assert "What you typed" not in text
    assert 'name="number"' not in text


def test_a_post_to_a_replaced_link_shows_the_racks_typed_and_stores_nothing(
    client: Client,
) -> None:
    match = match_seated(players=3)
    old = match.token
    match_token_regenerate(match=match, user=match.round.tournament.owner)
    response = client.post(f"/m/{old}/", entry_post(match, racks(match), number=1))
    assert response.status_code == 410
    text = response.content.decode()
    assert "link was replaced by the organisers" in text
    assert "What you typed" in text
    assert "r5 j" in text and ">16<" in text
    assert "Nothing was stored" in text
    assert not Game.objects.exists()


def test_a_correction_posted_to_a_replaced_link_is_410(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=1)
    old = match.token
    match_token_regenerate(match=match, user=match.round.tournament.owner)
    data = {f"fix-{k}": v for k, v in entry_post(match, racks(match)).items()}
    response = client.post(f"/m/{old}/correct/", data)
    assert response.status_code == 410
    assert "r5 j" in response.content.decode()
    assert Game.objects.get().version == 1


def test_a_token_never_used_is_still_404(client: Client) -> None:
    match_seated(players=3)
    assert client.get("/m/AAAAAAAAAAAAAAAAAAAAAAAA/").status_code == 404
    assert client.post("/m/AAAAAAAAAAAAAAAAAAAAAAAA/", {"number": "1"}).status_code == 404


def test_the_second_phone_does_not_see_the_first_entry(client: Client) -> None:
    match = match_seated(players=3, confirmation=DOUBLE)
    second = Client()
    second.get(f"/m/{match.token}/")  # the second phone is at the table before the entry
    client.post(f"/m/{match.token}/", entry_post(match, racks(match)))
    for phone in (client, second):
        text = phone.get(f"/m/{match.token}/").content.decode()
        assert "Entered, waiting for a second entry." in text
        assert "R5 J" not in text and "+52" not in text
        assert "Total of the games shown" in text
    # Once confirmed, it shows as any other game.
    second.post(f"/m/{match.token}/", entry_post(match, racks(match), number=1))
    text = client.get(f"/m/{match.token}/").content.decode()
    assert Game.objects.get().state == Game.State.CONFIRMED
    assert "R5 J" in text and "Entered, waiting for a second entry." not in text


def test_a_disputed_game_shows_its_first_entry(client: Client) -> None:
    match = match_seated(players=3, confirmation=DOUBLE)
    second = Client()
    second.get(f"/m/{match.token}/")  # the second phone is at the table before the entry
    client.post(f"/m/{match.token}/", entry_post(match, racks(match)))
    a, b, c = seated_ids(match)
    other = {a: {"points": "9"}, b: {"tiles": ""}, c: {"points": "4"}}
    second.post(f"/m/{match.token}/", entry_post(match, other, number=1))
    assert "R5 J" in Client().get(f"/m/{match.token}/").content.decode()


def test_an_organiser_sees_an_entered_game(client: Client) -> None:
    match = match_seated(players=3, confirmation=DOUBLE)
    Client().post(f"/m/{match.token}/", entry_post(match, racks(match)))
    client.force_login(match.round.tournament.owner)
    text = client.get(f"/m/{match.token}/").content.decode()
    assert "R5 J" in text and "Entered, waiting for a second entry." not in text
    client.force_login(UserFactory())
    assert "R5 J" not in client.get(f"/m/{match.token}/").content.decode()


@pytest.mark.parametrize("number", ["0", "99999999999999999999", "99", "-1"])
def test_the_heading_names_the_offered_game_never_the_posted_number(
    client: Client, number: str
) -> None:
    match = match_seated(players=3)
    response = client.post(f"/m/{match.token}/", entry_post(match, racks(match), number=number))
    assert response.status_code == 400
    text = response.content.decode()
    assert "Record game 1" in text
    assert f"game {number}" not in text.replace("there is no game 99.", "")
    assert "99999999" not in text
    assert 'name="number" value="1"' in text
    assert not Game.objects.exists()


def test_an_organiser_hitting_a_taken_number_gets_a_neutral_message(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=2)
    client.force_login(match.round.tournament.owner)
    response = client.post(f"/m/{match.token}/", entry_post(match, racks(match), number=2))
    assert response.status_code == 409
    text = response.content.decode()
    assert "Game 2 is already recorded: here it is." in text
    assert "by this table" not in text
    assert Game.objects.count() == 2
