"""Games awaiting confirmation wherever standings appear: the standings page,
the tournament page's standings and final placings (a mark and a footnote),
the round pages (each game's state; totals that count excluded games say so),
the exports (each player's count) and the standings PDF (a footnote)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.cache import caches
from django.test import Client

from tests.factories import match_seated
from tests.printing.engine.pdf import pages_of
from tests.tournaments.web.support import play, tournament_played
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


def test_exports_carry_each_players_count_and_no_marks(client: Client) -> None:
    t = played("include")
    text = client.get(f"/t/{t.slug}/standings/?_export=csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][-1] == "Unconfirmed games"
    assert [row[-1] for row in rows[1:]] == ["2"] * 4
    assert "*" not in text and "await" not in text
    exported = json.loads(client.get(f"/t/{t.slug}/standings/?_export=json").content)
    assert [row["Unconfirmed games"] for row in exported] == [2] * 4


def test_the_tournament_page_marks_its_standings_and_says_why(client: Client) -> None:
    t = played("exclude")
    text = client.get(f"/t/{t.slug}/").content.decode()
    assert text.count('class="unconfirmed-mark"') == 4
    assert "2 games await confirmation; the standings do not count them yet." in text


def test_the_final_placings_are_marked_too(client: Client) -> None:
    t = played("include")
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    response = client.get(f"/t/{t.slug}/")
    text = response.content.decode()
    assert len(response.context["ranking_rows"]) == 4
    assert all(waiting == 2 for *_rest, waiting in response.context["ranking_rows"])
    # One ranking: the final placings replace the standings table that stood beside them.
    assert text.count('class="unconfirmed-mark"') == 4
    assert text.count("2 games await confirmation; the standings count them.") == 1


def test_the_round_page_shows_each_games_state(client: Client) -> None:
    t = played("include")
    text = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    assert '<span class="tag state-confirmed">confirmed</span>' in text
    assert '<span class="tag state-disputed">disputed</span>' in text
    assert "Total, unconfirmed games included" not in text  # they count: a plain total


def test_the_round_page_says_its_totals_count_excluded_games(client: Client) -> None:
    t = played("exclude")
    text = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    # Game 2 (disputed) is in the table's totals though not in the standings; game 3 withheld.
    assert "Total of the games shown, unconfirmed games included" in text
    Game.objects.filter(number=3).update(state=Game.State.CONFIRMED)
    caches["default"].clear()  # a write outside the services: no new version to show it
    text = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    assert "Total, unconfirmed games included" in text


def test_the_round_page_withholds_a_game_waiting_for_its_second_entry(client: Client) -> None:
    t = played("include")  # game 3 is entered, waiting
    text = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    assert "Entered, waiting for a second entry." in text
    assert "Total of the games shown" in text
    client.force_login(t.owner)
    text = client.get(f"/t/{t.slug}/rounds/1/").content.decode()
    assert "Entered, waiting for a second entry." not in text


def test_no_states_on_the_round_page_without_confirmation(client: Client) -> None:
    match = match_seated(players=4, public=True)
    play(match, games=2)
    text = client.get(f"/t/{match.round.tournament.slug}/rounds/1/").content.decode()
    assert "state-confirmed" not in text and "unconfirmed games" not in text


def test_the_standings_pdf_says_which_players_have_games_waiting(client: Client) -> None:
    t = played("exclude")
    response = client.get(f"/t/{t.slug}/standings.pdf")
    text = "".join(page.extract_text() for page in pages_of(response.content))
    assert "2 games await confirmation; the standings do not count them yet." in text
    names = t.entries.values_list("player__name", flat=True)
    assert all(f"{name} *" in text for name in names)


@pytest.mark.parametrize("tables", [1, 6])
def test_query_counts_stay_pinned_with_games_waiting(
    client: Client, tables: int, django_assert_num_queries
) -> None:
    t = tournament_played(
        tables=tables, confirmation="organiser", standings_unconfirmed="exclude", public=True
    )
    Game.objects.filter(number=2).update(state=Game.State.ENTERED)
    # Each page also reads the tournament's version (its cached body's key); the
    # tables' boxes also read each match's version and the unmatched version; the
    # current ranking reads which stages are seated.
    with django_assert_num_queries(15):
        assert client.get(f"/t/{t.slug}/").status_code == 200
    # The tournament page rendered the round's boxes: no games, seats or racks read.
    with django_assert_num_queries(6):
        assert client.get(f"/t/{t.slug}/rounds/1/").status_code == 200
    # The standings rows were computed by the tournament page for this version: shared.
    with django_assert_num_queries(3):
        assert client.get(f"/t/{t.slug}/standings/").status_code == 200
    with django_assert_num_queries(3):
        assert client.get(f"/t/{t.slug}/standings/?_export=json").status_code == 200


def test_no_footnote_when_everything_is_confirmed(client: Client) -> None:
    match = match_seated(players=4, public=True)
    play(match, games=2)
    text = client.get(f"/t/{match.round.tournament.slug}/standings/").content.decode()
    assert "unconfirmed-mark" not in text and "await confirmation" not in text
