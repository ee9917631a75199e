"""The settings page's results section: how games are confirmed and whether
the standings count unconfirmed ones; shown with help, saved, refused when bad."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, match_seated
from tests.tournaments.web.support import play
from tests.tournaments.web.test_settings import form_of, form_post
from tournaments.models import AuditEvent, Tournament

pytestmark = pytest.mark.django_db


def test_edit_page_shows_both_settings_with_their_help(client: Client) -> None:
    t = TournamentFactory(confirmation="organiser", standings_unconfirmed="exclude")
    client.force_login(t.owner)
    page = client.get(f"/t/{t.slug}/edit/")
    text = page.content.decode()
    assert page.context["form"].initial["confirmation"] == "organiser"
    assert page.context["form"].initial["standings_unconfirmed"] == "exclude"
    assert "Confirmation of results" in text and "Unconfirmed games in the standings" in text
    assert "Double entry: a game counts once it has been entered twice" in text
    assert 'value="double_entry"' in text and 'value="exclude" selected' in text


def test_saving_changes_them_through_the_settings_service(client: Client) -> None:
    t = TournamentFactory()
    client.force_login(t.owner)
    changes = {"confirmation": "double_entry", "standings_unconfirmed": "exclude"}
    response = client.post(f"/t/{t.slug}/edit/", form_of(t) | changes)
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.confirmation, t.standings_unconfirmed) == ("double_entry", "exclude")
    event = AuditEvent.objects.filter(
        tournament=t, action=AuditEvent.Action.SETTINGS_CHANGED
    ).latest("at")
    assert event.user == t.owner
    assert isinstance(event.old, dict) and isinstance(event.new, dict)
    assert event.old["confirmation"] == "none" and event.new["confirmation"] == "double_entry"


def test_they_stay_editable_once_results_exist(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=1)
    t = match.round.tournament
    client.force_login(t.owner)
    response = client.post(f"/t/{t.slug}/edit/", form_of(t) | {"confirmation": "organiser"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.confirmation == Tournament.Confirmation.ORGANISER


def test_a_new_tournament_takes_them(client: Client) -> None:
    client.force_login(UserFactory())
    response = client.post("/t/new/", form_post(confirmation="organiser"))
    assert response.status_code == 302
    assert Tournament.objects.get().confirmation == "organiser"


@pytest.mark.parametrize(
    "changes",
    [{"confirmation": "whoever"}, {"standings_unconfirmed": "maybe"}, {"confirmation": ""}],
)
def test_a_bad_value_is_refused_at_its_field_and_nothing_saved(
    client: Client, changes: dict[str, str]
) -> None:
    t = TournamentFactory()
    client.force_login(t.owner)
    response = client.post(f"/t/{t.slug}/edit/", form_of(t) | changes)
    assert response.status_code == 400
    assert list(response.context["form"].errors) == list(changes)
    t.refresh_from_db()
    assert (t.confirmation, t.standings_unconfirmed) == ("none", "include")
