"""Double entry on the table's page: a second entry comes from another phone,
which clearing cookies does not make; refusals are kept in the table's history."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import match_seated, seated_ids
from tests.tournaments.web.support import entry_post
from tournaments.models import AuditEvent, Game, Match, Tournament

pytestmark = pytest.mark.django_db

DOUBLE = Tournament.Confirmation.DOUBLE_ENTRY


def racks(match: Match) -> dict[int, dict[str, str]]:
    a, b, c = seated_ids(match)
    return {a: {"tiles": ""}, b: {"tiles": "r5 j"}, c: {"points": "16"}}


def entry_key(page_text: str) -> str:
    found = re.search(r'name="entry_key" value="([^"]+)"', page_text)
    assert found is not None
    return found.group(1)


def post_from_page(phone: Client, match: Match, number: int | None = None):
    """Open the page, then send its form as drawn (with its entry key)."""
    page = phone.get(f"/m/{match.token}/").content.decode()
    data = {**entry_post(match, racks(match), number=number), "entry_key": entry_key(page)}
    return phone.post(f"/m/{match.token}/", data)


def refusals(match: Match) -> list[str]:
    events = AuditEvent.objects.filter(match=match, action=AuditEvent.Action.GAME_REFUSED)
    return [event.new["reason"] for event in events.order_by("id")]


def test_the_same_phone_posting_game_2_twice_does_not_confirm_it() -> None:
    match = match_seated(players=3, confirmation=DOUBLE, games_per_round=3)
    phone = Client()
    assert post_from_page(phone, match, number=2).status_code == 302
    again = post_from_page(phone, match, number=2)
    assert again.status_code == 409
    assert "You entered game 2 on this phone" in again.content.decode()
    assert Game.objects.get().state == Game.State.ENTERED
    assert refusals(match) == ["same_phone"]


def test_clearing_cookies_does_not_make_a_second_phone() -> None:
    match = match_seated(players=3, confirmation=DOUBLE, games_per_round=3)
    assert post_from_page(Client(), match, number=2).status_code == 302
    # The same phone with its cookies cleared: a new session, after the first entry.
    cleared = Client()
    page = cleared.get(f"/m/{match.token}/")
    text = page.content.decode()
    assert "Game 2 waits for a second entry from another phone" in text
    assert page.context["form"]["number"].value() == 1  # not offered game 2
    again = cleared.post(f"/m/{match.token}/", entry_post(match, racks(match), number=2))
    assert again.status_code == 409
    assert "before this phone opened the table" in again.content.decode()
    assert Game.objects.get().state == Game.State.ENTERED
    assert refusals(match) == ["joined_late"]


def test_the_same_form_sent_again_from_another_session_is_refused() -> None:
    match = match_seated(players=3, confirmation=DOUBLE, games_per_round=3)
    first, second = Client(), Client()
    second.get(f"/m/{match.token}/")
    page = first.get(f"/m/{match.token}/").content.decode()
    data = {**entry_post(match, racks(match), number=2), "entry_key": entry_key(page)}
    assert first.post(f"/m/{match.token}/", data).status_code == 302
    assert second.post(f"/m/{match.token}/", data).status_code == 409
    assert Game.objects.get().state == Game.State.ENTERED
    assert refusals(match) == ["same_key"]


def test_two_phones_at_the_table_confirm_each_other() -> None:
    match = match_seated(players=3, confirmation=DOUBLE, games_per_round=3)
    first, second = Client(), Client()
    second.get(f"/m/{match.token}/")
    assert post_from_page(first, match, number=2).status_code == 302
    assert post_from_page(second, match, number=2).status_code == 302
    assert Game.objects.get().state == Game.State.CONFIRMED
    assert refusals(match) == []


def test_the_desk_history_shows_a_refusal_with_what_was_sent() -> None:
    match = match_seated(players=3, confirmation=DOUBLE, games_per_round=3)
    phone = Client()
    post_from_page(phone, match, number=2)
    post_from_page(phone, match, number=2)
    desk = Client()
    desk.force_login(match.round.tournament.owner)
    page = desk.get(f"/t/{match.round.tournament.slug}/organise/tables/{match.pk}/")
    text = page.content.decode()
    assert 'class="rev-refused"' in text
    assert "Entry refused" in text
    assert "A second entry from the phone that made the first" in text
    assert '<span class="rack-detail">r5 j</span>' in text  # what was sent, unscored
    assert "version None" not in text
    history = [line.revision.action for line in page.context["history"]]
    assert history == ["game.recorded", "game.refused"]


ANOTHER_PHONE = "Game 1 waits for a second entry from another phone"


@pytest.mark.parametrize(
    ("opened_before", "notice", "heading"),
    [
        (False, True, "Record game 2"),
        (True, False, "Game 1 waits for a second entry — enter it again to confirm"),
    ],
)
def test_a_phone_that_cannot_second_game_1_is_told_before_the_form(
    opened_before: bool, notice: bool, heading: str
) -> None:
    match = match_seated(players=3, confirmation=DOUBLE, games_per_round=3)
    first, second = Client(), Client()
    if opened_before:
        second.get(f"/m/{match.token}/")
    assert post_from_page(first, match, number=1).status_code == 302
    text = second.get(f"/m/{match.token}/").content.decode()
    assert (ANOTHER_PHONE in text) is notice
    assert ("This form records game 2." in text) is notice
    assert heading in text
    if notice:
        assert text.index(ANOTHER_PHONE) < text.index("This form records game 2.")
        assert text.index("This form records game 2.") < text.index('name="number"')
