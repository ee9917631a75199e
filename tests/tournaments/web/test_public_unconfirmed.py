"""The standings page with games awaiting confirmation: players marked, a
footnote saying how many and whether they count; exports unmarked."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import match_seated
from tests.tournaments.web.support import play
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def played(setting: str) -> Tournament:
    match = match_seated(
        players=4, public=True, confirmation="double_entry", standings_unconfirmed=setting
    )
    play(match, games=3)
    Game.objects.filter(match=match, number=1).update(state=Game.State.CONFIRMED)
    Game.objects.filter(match=match, number=2).update(state=Game.State.DISPUTED)
    return match.round.tournament


def test_include_marks_players_and_says_the_games_count(client: Client) -> None:
    t = played("include")
    Game.objects.filter(number=3).update(state=Game.State.CONFIRMED)
    response = client.get(f"/t/{t.slug}/standings/")
    text = response.content.decode()
    assert text.count('class="unconfirmed-mark"') == 4
    assert 'title="1 game awaits confirmation"' in text
    assert "1 game awaits confirmation; the standings count it." in text
    assert all(row.games == 3 for row in response.context["table"].data)


def test_exclude_says_the_games_are_not_counted(client: Client) -> None:
    t = played("exclude")
    response = client.get(f"/t/{t.slug}/standings/")
    text = response.content.decode()
    assert "2 games await confirmation; the standings do not count them yet." in text
    assert 'title="2 games await confirmation"' in text
    assert all(row.games == 1 for row in response.context["table"].data)


def test_exports_carry_no_marks(client: Client) -> None:
    t = played("include")
    csv = client.get(f"/t/{t.slug}/standings/?_export=csv").content.decode()
    assert "*" not in csv and "await" not in csv


def test_no_footnote_when_everything_is_confirmed(client: Client) -> None:
    match = match_seated(players=4, public=True)
    play(match, games=2)
    text = client.get(f"/t/{match.round.tournament.slug}/standings/").content.decode()
    assert "unconfirmed-mark" not in text and "await confirmation" not in text
