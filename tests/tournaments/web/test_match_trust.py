"""The match page when two phones share a table: the number each form names,
a taken number answered with the stored game (409, nothing stored), double
entry (confirm, dispute, never one's own entry), game states, and a finished
tournament's closed page."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import match_seated, seated_ids
from tests.tournaments.web.support import entry_post, play
from tournaments.models import Game, Match, Tournament

pytestmark = pytest.mark.django_db

DOUBLE = Tournament.Confirmation.DOUBLE_ENTRY


def first_racks(match: Match) -> dict[int, dict[str, str]]:
    a, b, c = seated_ids(match)
    return {a: {"tiles": ""}, b: {"tiles": "r5 j"}, c: {"points": "16"}}


def other_racks(match: Match) -> dict[int, dict[str, str]]:
    a, b, c = seated_ids(match)
    return {a: {"points": "9"}, b: {"tiles": ""}, c: {"points": "4"}}


def test_the_form_names_the_game_it_shows(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=1)
    response = client.get(f"/m/{match.token}/")
    assert response.context["form"]["number"].value() == 2
    assert 'name="number" value="2"' in response.content.decode()
    assert "Record game 2" in response.content.decode()


def test_a_second_phone_entering_the_same_game_gets_the_stored_game(client: Client) -> None:
    match = match_seated(players=3)
    phone = Client()
    assert (
        client.post(f"/m/{match.token}/", entry_post(match, first_racks(match))).status_code == 302
    )
    # The second phone drew "Record game 1" too and sends what it typed.
    response = phone.post(f"/m/{match.token}/", entry_post(match, other_racks(match), number=1))
    assert response.status_code == 409
    text = response.content.decode()
    assert "Game 1 was already entered by this table: here it is." in text
    assert "Nothing was stored." in text
    assert "R5 J" in text and "+51" in text  # the stored racks and scores, not the typed ones
    assert "Next: record game 2 when it is played." in text
    assert response.context["form"]["number"].value() == 2
    assert not response.context["form"].is_bound
    assert Game.objects.count() == 1
    assert Game.objects.get().number == 1


def test_the_last_game_taken_says_there_is_nothing_more_to_do(client: Client) -> None:
    match = match_seated(players=3, games_per_round=1)
    play(match, games=1)
    response = client.post(f"/m/{match.token}/", entry_post(match, other_racks(match), number=1))
    assert response.status_code == 409
    assert "Every game of this table is entered" in response.content.decode()
    assert response.context["form"] is None
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    ("number", "message", "status"),
    [
        ("", "The game number was not understood; reload the page and try again.", 400),
        ("abc", "The game number was not understood; reload the page and try again.", 400),
        ("0", "The game number was not understood; reload the page and try again.", 400),
        ("99", "Table 1 plays games 1 to 4 in this round; there is no game 99.", 400),
    ],
)
def test_a_tampered_number_is_refused_and_nothing_stored(
    client: Client, number: str, message: str, status: int
) -> None:
    match = match_seated(players=3)
    data = entry_post(match, first_racks(match), number=number)
    response = client.post(f"/m/{match.token}/", data)
    assert response.status_code == status
    assert message in response.content.decode()
    assert response.context["form"].non_field_errors() == [message]
    assert not Game.objects.exists()


def test_double_entry_confirms_when_both_phones_agree(client: Client) -> None:
    match = match_seated(players=3, confirmation=DOUBLE)
    token = match.token
    # Both phones open the table's page before the game is entered.
    phone = Client()
    phone.get(f"/m/{token}/")
    response = client.post(f"/m/{token}/", entry_post(match, first_racks(match)), follow=True)
    assert "Game 1 recorded; it counts once entered a second time" in response.content.decode()
    game = Game.objects.get()
    assert game.state == Game.State.ENTERED
    # The phone that entered it is offered game 2, and told why.
    mine = client.get(f"/m/{token}/")
    assert mine.context["form"]["number"].value() == 2
    assert "You entered game 1 on this phone" in mine.content.decode()
    # The other phone is offered game 1 to enter again.
    other = phone.get(f"/m/{token}/")
    text = other.content.decode()
    assert "Game 1 waits for a second entry — enter it again to confirm" in text
    assert other.context["form"]["number"].value() == 1
    assert '<span class="tag state-entered">entered</span>' in text
    response = phone.post(f"/m/{token}/", entry_post(match, first_racks(match), number=1))
    assert response.status_code == 302
    text = phone.get(f"/m/{token}/").content.decode()
    assert "Game 1 confirmed: both entries agree." in text
    assert '<span class="tag state-confirmed">confirmed</span>' in text
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED
    assert Game.objects.count() == 1


def test_double_entry_that_differs_is_disputed(client: Client) -> None:
    match = match_seated(players=3, confirmation=DOUBLE)
    phone = Client()
    phone.get(f"/m/{match.token}/")
    client.post(f"/m/{match.token}/", entry_post(match, first_racks(match)))
    response = phone.post(
        f"/m/{match.token}/", entry_post(match, other_racks(match), number=1), follow=True
    )
    text = response.content.decode()
    assert "Game 1 differs from the first entry; an organiser will decide." in text
    assert '<span class="tag state-disputed">disputed</span>' in text
    game = Game.objects.get()
    assert game.state == Game.State.DISPUTED
    assert game.second_entry is not None
    # Settled by an organiser, not by a third entry: the number is taken now.
    third = Client().post(f"/m/{match.token}/", entry_post(match, first_racks(match), number=1))
    assert third.status_code == 409
    assert Game.objects.get().state == Game.State.DISPUTED


def test_a_phone_cannot_confirm_its_own_entry(client: Client) -> None:
    match = match_seated(players=3, confirmation=DOUBLE)
    client.post(f"/m/{match.token}/", entry_post(match, first_racks(match)))
    response = client.post(f"/m/{match.token}/", entry_post(match, first_racks(match), number=1))
    assert response.status_code == 409
    text = response.content.decode()
    assert "You entered game 1 on this phone: its second entry has to come from another" in text
    assert text.count("You entered game 1 on this phone") == 1  # said once, not twice
    assert "R5 J" not in text  # withheld until its second entry, even from this phone
    assert response.context["form"]["number"].value() == 2
    game = Game.objects.get()
    assert game.state == Game.State.ENTERED and game.version == 1


def test_under_organiser_confirmation_a_link_entry_waits_and_a_second_is_taken(
    client: Client,
) -> None:
    match = match_seated(players=3, confirmation=Tournament.Confirmation.ORGANISER)
    response = client.post(f"/m/{match.token}/", entry_post(match, first_racks(match)), follow=True)
    text = response.content.decode()
    assert "Game 1 recorded; an organiser will confirm it." in text
    assert '<span class="tag state-entered">entered</span>' in text
    phone = Client()
    assert phone.get(f"/m/{match.token}/").context["form"]["number"].value() == 2
    taken = phone.post(f"/m/{match.token}/", entry_post(match, first_racks(match), number=1))
    assert taken.status_code == 409
    assert Game.objects.get().state == Game.State.ENTERED


def test_no_state_badges_without_confirmation(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=2)
    assert "state-confirmed" not in client.get(f"/m/{match.token}/").content.decode()


def test_match_page_query_count_with_states(client: Client, django_assert_max_num_queries) -> None:
    match = match_seated(players=4, confirmation=DOUBLE)
    play(match, games=3)
    # A phone's first visit keeps when it joined the table (its session, written once).
    with django_assert_max_num_queries(9):
        assert client.get(f"/m/{match.token}/").status_code == 200
    with django_assert_max_num_queries(7):
        assert client.get(f"/m/{match.token}/").status_code == 200


def test_a_finished_tournament_closes_the_page_and_refuses_posts(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=1)
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        status=Tournament.Status.FINISHED
    )
    page = client.get(f"/m/{match.token}/")
    assert "Results are closed." in page.content.decode()
    assert 'name="number"' not in page.content.decode()
    response = client.post(f"/m/{match.token}/", entry_post(match, first_racks(match)))
    assert response.status_code == 409
    assert "Results are closed." in response.content.decode()
    assert Game.objects.count() == 1
    client.force_login(match.round.tournament.owner)
    game = Game.objects.get()
    a, b, c = seated_ids(match)
    data = {
        f"fix-{k}": v
        for k, v in entry_post(match, {a: {"points": "7"}, b: {}, c: {"points": "2"}}).items()
    }
    data.update({"fix-game": "1", "fix-version": str(game.version)})
    corrected = client.post(f"/m/{match.token}/correct/", data)
    assert corrected.status_code == 409
    assert Game.objects.get().version == game.version


def test_the_desk_sends_the_number_it_shows_through_the_same_handler(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=1)
    t = match.round.tournament
    client.force_login(t.owner)
    url = f"/t/{t.slug}/organise/tables/{match.pk}/"
    assert 'name="number" value="2"' in client.get(url).content.decode()
    taken = client.post(url, entry_post(match, first_racks(match), number=1))
    assert taken.status_code in (400, 409)
    assert "Game 1 is already recorded: here it is." in taken.content.decode()
    assert Game.objects.count() == 1
    assert client.post(url, entry_post(match, first_racks(match), number=2)).status_code == 302
    assert sorted(Game.objects.values_list("number", flat=True)) == [1, 2]
