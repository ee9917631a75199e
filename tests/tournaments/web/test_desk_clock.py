"""The round clock on the desk: its panel, its buttons, who may press them, refusals."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.factories import tournament_entered
from tests.tournaments.web.hall_support import ACTORS, client_as, tournament_seated
from tournaments.models import AuditEvent, Round, Tournament

pytestmark = pytest.mark.django_db


def _url(tournament: Tournament, action: str, number: int = 1) -> str:
    return f"/t/{tournament.slug}/organise/rounds/{number}/clock/{action}/"


def _round(tournament: Tournament) -> Round:
    return Round.objects.get(tournament=tournament, number=1)


@pytest.mark.parametrize("actor", ACTORS)
def test_only_organisers_run_the_clock(actor):
    tournament = tournament_seated(round_minutes=30)
    page = client_as(actor, tournament).post(_url(tournament, "start"))
    allowed = actor in {"owner", "co", "staff"}
    if actor == "anon":
        assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    else:
        assert page.status_code == (302 if allowed else 403)
    assert (_round(tournament).clock_started is not None) == allowed


def test_a_private_tournaments_clock_is_404_to_others():
    tournament = tournament_seated(round_minutes=30, public=False)
    assert client_as("other", tournament).post(_url(tournament, "start")).status_code == 404


def test_start_pause_resume_reset_from_the_desk():
    tournament = tournament_seated(round_minutes=30)
    client = client_as("owner", tournament)
    desk = f"/t/{tournament.slug}/organise/"
    html = client.get(desk).content.decode()
    assert "Start the clock" in html and "30:00" in html
    page = client.post(_url(tournament, "start"), follow=True)
    html = page.content.decode()
    assert "the clock runs" in html and "Pause" in html and "Reset" in html
    assert 'data-running="1"' in html
    # A minute later (a pause within the first second would keep no time run).
    Round.objects.filter(pk=_round(tournament).pk).update(
        clock_started=timezone.now() - dt.timedelta(minutes=1)
    )
    html = client.post(_url(tournament, "pause"), follow=True).content.decode()
    assert "the clock is paused" in html and "Resume" in html
    client.post(_url(tournament, "start"))
    html = client.post(_url(tournament, "reset"), follow=True).content.decode()
    assert "the clock is reset" in html and "Start the clock" in html
    assert _round(tournament).clock_elapsed == 0


def test_without_a_time_limit_the_desk_says_where_to_set_one():
    tournament = tournament_seated()
    client = client_as("owner", tournament)
    html = client.get(f"/t/{tournament.slug}/organise/").content.decode()
    assert "no round time limit" in html and "Start the clock" not in html
    before = AuditEvent.objects.count()
    page = client.post(_url(tournament, "start"), follow=True)
    assert "set one in its settings first" in page.content.decode()
    assert AuditEvent.objects.count() == before
    assert _round(tournament).clock_started is None


@pytest.mark.parametrize("action", ["pause", "reset"])
def test_a_refusal_is_a_message_and_stores_nothing(action):
    tournament = tournament_seated(round_minutes=30)
    client = client_as("owner", tournament)
    before = AuditEvent.objects.count()
    html = client.post(_url(tournament, action), follow=True).content.decode()
    assert "not running" in html or "has not started" in html
    assert AuditEvent.objects.count() == before


def test_an_unknown_round_is_404_and_a_visit_is_led_back():
    tournament = tournament_seated(round_minutes=30)
    client = client_as("owner", tournament)
    assert client.post(_url(tournament, "start", number=9)).status_code == 404
    visit = client.get(_url(tournament, "start"))
    assert visit.status_code == 405 and visit["Allow"] == "POST"


def test_no_panel_before_a_round_is_seated():
    tournament = tournament_entered(round_minutes=30)
    html = client_as("owner", tournament).get(f"/t/{tournament.slug}/organise/").content.decode()
    assert 'id="h-clock"' not in html
