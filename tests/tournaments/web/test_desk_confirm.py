"""The desk's games to confirm: one-click confirmation, disputed games side by
side and settled, and the refusals."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory, match_seated
from tests.tournaments.web.trust_support import (
    desk_url,
    enter,
    game_disputed,
    seated,
)
from tournaments.models import AuditEvent, Game, Tournament
from tournaments.selectors.unsettled import unsettled_counts

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- to confirm


def test_a_game_entered_at_the_table_is_listed_and_confirmed_in_one_click(owner) -> None:
    match = seated()
    game = enter(match)
    assert game.state == Game.State.ENTERED
    client = owner(match)
    page = client.get(desk_url(match, "confirm/")).content.decode()
    assert "To confirm" in page and "Entered at the table" in page
    assert "Game 1 · table 1, round 1" in page
    confirm_url = desk_url(match, f"games/{game.pk}/confirm/")
    assert confirm_url in page
    response = client.post(confirm_url)
    assert response.status_code == 302 and response["Location"] == desk_url(match, "confirm/")
    text = client.get(response["Location"]).content.decode()
    assert "Game 1 of table 1 confirmed." in text and "Nothing to confirm." in text
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED
    assert game.confirmed_by == match.round.tournament.owner
    event = AuditEvent.objects.filter(action=AuditEvent.Action.GAME_CONFIRMED).get()
    assert event.object_id == game.pk and event.username == match.round.tournament.owner.username


def test_the_desk_says_how_many_games_wait_only_when_games_are_confirmed(owner) -> None:
    match = seated("double_entry")
    enter(match, number=1)
    _disputed_match = match_seated(players=3, tournament=match.round.tournament)
    game_disputed(_disputed_match)
    client = owner(match)
    page = client.get(desk_url(match, "")).content.decode()
    assert "1 game to confirm" in page and "1 disputed" in page
    assert desk_url(match, "confirm/") in page and desk_url(match, "audit/") in page
    plain = seated("none")
    page = owner(plain).get(desk_url(plain, "")).content.decode()
    assert desk_url(plain, "confirm/") not in page and "to confirm" not in page


def test_the_desk_offers_no_games_to_confirm_when_none_wait(owner) -> None:
    match = seated()  # confirmed by an organiser, nothing entered yet
    page = owner(match).get(desk_url(match, "")).content.decode()
    assert "Every game entered is confirmed." in page
    assert desk_url(match, "confirm/") not in page and "Results to confirm" not in page


def test_games_left_waiting_show_after_confirmation_is_switched_off(
    owner, django_assert_num_queries
) -> None:
    match = seated("double_entry")
    enter(match, number=1)
    game_disputed(match_seated(players=3, tournament=match.round.tournament))
    tournament = match.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="none")
    tournament.refresh_from_db()
    with django_assert_num_queries(1):  # one count, whatever the setting
        counts = unsettled_counts(tournament=tournament)
    assert counts == {"to_confirm": {"entered": 1, "disputed": 1}, "confirming": False}
    page = owner(match).get(desk_url(match, "")).content.decode()
    assert "1 game to confirm" in page and "1 disputed" in page
    assert desk_url(match, "confirm/") in page
    listed = owner(match).get(desk_url(match, "confirm/")).content.decode()
    assert "were entered before that was set and still wait for a decision" in listed


def test_nobody_confirms_their_own_entry_but_a_co_organiser_does(client: Client) -> None:
    match = seated("double_entry")
    tournament = match.round.tournament
    game = enter(match, user=tournament.owner)
    assert game.state == Game.State.ENTERED
    client.force_login(tournament.owner)
    confirm_url = desk_url(match, f"games/{game.pk}/confirm/")
    # No button for one's own entry, on either page: a sentence instead.
    for tail in ("confirm/", f"tables/{match.pk}/"):
        page = client.get(desk_url(match, tail)).content.decode()
        assert confirm_url not in page, tail
        assert "Entered by you: waits for a second entry by someone else." in page
    response = client.post(desk_url(match, f"games/{game.pk}/confirm/"), follow=True)
    assert "You entered game 1 yourself" in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED
    assert not AuditEvent.objects.filter(action=AuditEvent.Action.GAME_CONFIRMED).exists()
    co = UserFactory()
    tournament.co_organisers.add(co)
    client.force_login(co)
    assert confirm_url in client.get(desk_url(match, "confirm/")).content.decode()
    client.post(confirm_url)
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED and game.confirmed_by == co


def test_a_disputed_game_shows_both_versions_side_by_side(owner) -> None:
    match = seated("double_entry")
    game = game_disputed(match)
    page = owner(match).get(desk_url(match, "confirm/")).content.decode()
    assert "First entry (stored)" in page and "Second entry" in page
    assert "10 pts, 0 J" in page and "12 pts, 0 J" in page
    # The scores each version gives: the winner takes the losers' points.
    assert "+20" in page and "+24" in page
    assert page.count(f'action="{desk_url(match, f"games/{game.pk}/confirm/")}"') == 2
    assert "Keep first" in page and "Take second" in page
    # The two losers' racks differ (10 against 12 points), the winner's does not:
    # marked in words and bold in both versions, not by colour alone.
    assert page.count('<tr class="differs">') == 4 and page.count(">differs</span>") == 4
    assert "<strong>10 pts, 0 J</strong>" in page and "<strong>12 pts, 0 J</strong>" in page
    winner = match.seats.get(position=1).player.name
    assert f'<tr><th scope="row">{winner}</th>' in page


def test_a_disputed_game_confirmed_without_saying_which_version_is_refused(owner) -> None:
    match = seated("double_entry")
    game = game_disputed(match)
    before = AuditEvent.objects.count()
    response = owner(match).post(desk_url(match, f"games/{game.pk}/confirm/"), follow=True)
    assert "Game 1 is disputed: say which version stands" in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.DISPUTED and AuditEvent.objects.count() == before


def test_keep_first_confirms_the_stored_version(owner) -> None:
    match = seated("double_entry")
    game = game_disputed(match)
    client = owner(match)
    response = client.post(desk_url(match, f"games/{game.pk}/confirm/"), {"take": "first"})
    assert "confirmed." in client.get(response["Location"]).content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED and game.second_entry is None
    assert sorted(game.racks.values_list("points", flat=True)) == [0, 10, 10]


def test_take_second_stores_the_second_version_as_a_correction(owner) -> None:
    match = seated("double_entry")
    game = game_disputed(match)
    client = owner(match)
    response = client.post(desk_url(match, f"games/{game.pk}/confirm/"), {"take": "second"})
    text = client.get(response["Location"]).content.decode()
    assert "confirmed with the second version" in text
    game.refresh_from_db()
    assert game.state == Game.State.CONFIRMED and game.version == 2
    assert sorted(game.racks.values_list("points", flat=True)) == [0, 12, 12]
    assert AuditEvent.objects.filter(
        action=AuditEvent.Action.GAME_CORRECTED, object_id=game.pk
    ).exists()


@pytest.mark.parametrize("case", ["unknown", "other", "confirmed", "bad-take", "second-of-one"])
def test_a_bad_confirmation_says_why_and_changes_nothing(owner, case: str) -> None:
    match = seated()
    game = enter(match)
    other = enter(seated())
    if case == "confirmed":
        Game.objects.filter(pk=game.pk).update(state=Game.State.CONFIRMED)
    target = {"unknown": 999999, "other": other.pk}.get(case, game.pk)
    take = {"bad-take": "third", "second-of-one": "second"}.get(case, "first")
    client = owner(match)
    before = AuditEvent.objects.count()
    response = client.post(desk_url(match, f"games/{target}/confirm/"), {"take": take}, follow=True)
    expected = {
        "unknown": "That game is no longer there",
        "other": "That game is no longer there",
        "confirmed": "Game 1 of table 1 is already confirmed.",
        "bad-take": "Choose the first or the second version.",
        "second-of-one": "Game 1 has no second version to take.",
    }[case]
    assert expected in response.content.decode()
    assert AuditEvent.objects.count() == before
    other.refresh_from_db()
    assert other.state == Game.State.ENTERED


def test_a_finished_tournament_confirms_nothing(owner) -> None:
    match = seated()
    game = enter(match)
    Tournament.objects.filter(pk=match.round.tournament_id).update(
        status=Tournament.Status.FINISHED
    )
    client = owner(match)
    page = client.get(desk_url(match, "confirm/")).content.decode()
    assert "results can no longer be entered" in page and "<button" not in page.split("</h1>")[1]
    response = client.post(desk_url(match, f"games/{game.pk}/confirm/"), follow=True)
    assert "finished" in response.content.decode()
    game.refresh_from_db()
    assert game.state == Game.State.ENTERED


def test_confirming_from_the_match_desk_comes_back_there_and_never_elsewhere(owner) -> None:
    match = seated()
    game = enter(match)
    client = owner(match)
    desk = desk_url(match, f"tables/{match.pk}/")
    page = client.get(desk).content.decode()
    assert "Entered" in page and desk_url(match, f"games/{game.pk}/confirm/") in page
    response = client.post(desk_url(match, f"games/{game.pk}/confirm/"), {"next": desk})
    assert response["Location"] == desk
    second = enter(match, number=2)
    for elsewhere in ("https://evil.example/", "//evil.example/t/", "/t/other/organise/"):
        response = client.post(desk_url(match, f"games/{second.pk}/confirm/"), {"next": elsewhere})
        assert response["Location"] == desk_url(match, "confirm/")


def test_a_disputed_game_on_the_match_desk_leads_to_both_versions(owner) -> None:
    match = seated("double_entry")
    game_disputed(match)
    page = owner(match).get(desk_url(match, f"tables/{match.pk}/")).content.decode()
    assert "Disputed" in page and desk_url(match, "confirm/") in page
    assert "the second entry differs" in page  # the history line of the dispute
