"""The projector screen: who sees it, its slides, its clock, its state for polling."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.factories import round_play
from tests.tournaments.web.hall_support import ACTORS, client_as, tournament_seated
from tournaments.caching import tournament_version
from tournaments.models import Round
from tournaments.selectors.standings import ranking_current
from tournaments.services import clock
from tournaments.web.hall_pages import SCREEN_ROWS, SCREEN_TABLES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("public", [True, False])
def test_who_sees_the_screen_and_its_state(actor, public):
    tournament = tournament_seated(public=public)
    client = client_as(actor, tournament)
    seen = public or actor in {"owner", "co", "staff"}
    for url in (f"/t/{tournament.slug}/screen/", f"/t/{tournament.slug}/screen/state/"):
        assert client.get(url).status_code == (200 if seen else 404), url


def test_the_screen_has_no_site_menu_and_cycles_without_javascript():
    tournament = tournament_seated(players=8)
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/screen/")
    html = page.content.decode()
    assert 'class="site"' not in html  # its own layout
    # One standings page (8 players) and one page of tables (2 tables).
    assert page.context["slides"] and len(page.context["slides"]) == 2
    assert 'http-equiv="refresh"' in html and "url=?slide=2" in html
    assert f"/t/{tournament.slug}/tables/" in html
    second = client_as("anon", tournament).get(f"/t/{tournament.slug}/screen/?slide=2")
    assert "url=?slide=1" in second.content.decode()
    assert second.context["current"] == 2


@pytest.mark.parametrize(
    ("players", "standings", "tables"),
    [(4, 1, 1), (SCREEN_ROWS, 1, 1), (SCREEN_ROWS + 4, 2, 1), (4 * SCREEN_TABLES + 4, 3, 2)],
)
def test_slides_are_pages_of_standings_then_of_tables(players, standings, tables):
    tournament = tournament_seated(players=players)
    slides = client_as("anon", tournament).get(f"/t/{tournament.slug}/screen/").context["slides"]
    kinds = ["standings" if "screen-standings" in s else "tables" for s in slides]
    assert kinds == ["standings"] * standings + ["tables"] * tables


def test_the_tables_show_players_in_seat_order_with_their_totals():
    tournament = tournament_seated(players=4, games_per_round=2)
    round_ = Round.objects.get(tournament=tournament)
    round_play(round_)
    match = round_.matches.get()
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/screen/?slide=2")
    html = page.content.decode()
    names = [seat.player.name for seat in match.seats.order_by("position")]
    assert [html.index(n, html.index("screen-tables")) for n in names] == sorted(
        html.index(n, html.index("screen-tables")) for n in names
    )
    assert "2 of 2 games" in html


def test_bad_slide_numbers_wrap_or_start_over():
    tournament = tournament_seated(players=8)
    client = client_as("anon", tournament)
    for asked, shown in (("3", 1), ("0", 2), ("x", 1), ("-1", 1)):
        page = client.get(f"/t/{tournament.slug}/screen/", {"slide": asked})
        assert page.context["current"] == shown, asked


def test_the_clock_shows_once_started_and_the_state_follows():
    tournament = tournament_seated(round_minutes=45)
    client = client_as("anon", tournament)
    state = client.get(f"/t/{tournament.slug}/screen/state/").json()
    # The state also says the order the standings slides show and its stage.
    assert state == {
        "version": tournament_version(tournament=tournament),
        "clock": None,
        "stage": "qualifying",
        "stage_label": "Qualifying",
        "decided": False,
        "players": [r.player_id for r in ranking_current(tournament=tournament).rows],
    }
    assert 'data-clock data-remaining="2700" data-running="" hidden' in client.get(
        f"/t/{tournament.slug}/screen/"
    ).content.decode().replace("\n", "")

    round_ = Round.objects.get(tournament=tournament)
    clock.round_clock_start(round_=round_, now=timezone.now() - dt.timedelta(minutes=5))
    state = client.get(f"/t/{tournament.slug}/screen/state/").json()
    assert state["version"] == tournament_version(tournament=tournament)
    assert state["clock"]["state"] == "running"
    assert 40 * 60 - 2 <= state["clock"]["remaining"] <= 40 * 60
    html = client.get(f"/t/{tournament.slug}/screen/").content.decode()
    assert 'data-running="1"' in html and "clock-running" in html

    clock.round_clock_pause(round_=round_)
    state = client.get(f"/t/{tournament.slug}/screen/state/").json()
    assert state["clock"]["state"] == "paused"
    assert "clock-paused" in client.get(f"/t/{tournament.slug}/screen/").content.decode()


def test_a_new_result_moves_the_version_and_shows():
    tournament = tournament_seated(players=4, games_per_round=1)
    client = client_as("anon", tournament)
    before = client.get(f"/t/{tournament.slug}/screen/state/").json()["version"]
    round_play(Round.objects.get(tournament=tournament))
    after = client.get(f"/t/{tournament.slug}/screen/state/").json()["version"]
    assert after > before
    html = client.get(f"/t/{tournament.slug}/screen/?slide=2").content.decode()
    assert "1 of 1 game</span>" in html  # one game: no "1 of 1 games"


def test_the_screen_costs_a_few_queries_once_cached(django_assert_max_num_queries):
    tournament = tournament_seated(players=40)
    client = client_as("anon", tournament)
    client.get(f"/t/{tournament.slug}/screen/")
    with django_assert_max_num_queries(4):
        client.get(f"/t/{tournament.slug}/screen/")
    with django_assert_max_num_queries(3):
        client.get(f"/t/{tournament.slug}/screen/state/")


def test_the_tournament_page_links_the_screen_and_find_my_table():
    tournament = tournament_seated()
    html = client_as("anon", tournament).get(f"/t/{tournament.slug}/").content.decode()
    assert f"/t/{tournament.slug}/screen/" in html
    assert f"/t/{tournament.slug}/tables/" in html


@pytest.mark.parametrize("lang", ["da", "sv", "nb", "de", "nl"])
def test_the_screen_and_find_my_table_render_in_every_language(lang):
    # The hall's pages answer in the tournament's language (web.table_language).
    tournament = tournament_seated(round_minutes=30, language=lang)
    clock.round_clock_start(round_=Round.objects.get(tournament=tournament))
    client = client_as("anon", tournament)
    for page in ("screen", "tables"):
        answer = client.get(f"/{lang}/t/{tournament.slug}/{page}/")
        assert answer.status_code == 200
        assert f'lang="{lang}"' in answer.content.decode()


@pytest.mark.parametrize("players", [SCREEN_ROWS + 2, 2 * SCREEN_ROWS + 1, 2 * SCREEN_ROWS])
def test_every_standings_slide_is_full(players):
    """14 players: two slides of 12 (the second ends with the last two), not 12 and 2."""
    from tournaments.web.hall_pages import screen_pages

    tournament = tournament_seated(players=players)
    slides = client_as("anon", tournament).get(f"/t/{tournament.slug}/screen/").context["slides"]
    standings = [s for s in slides if "screen-standings" in s]
    assert [s.count('class="num rank"') for s in standings] == [SCREEN_ROWS] * len(standings)
    ranks = [int(r) for s in standings for r in _ranks(s)]
    assert sorted(set(ranks)) == sorted(set(range(1, players + 1)) & set(ranks))
    assert len(set(_names(standings))) == players  # everyone shown
    assert screen_pages(list(range(1, 15)), 12)[-1] == list(range(3, 15))
    assert screen_pages(list(range(1, 13)), 12) == [list(range(1, 13))]


def _ranks(slide: str) -> list[str]:
    import re

    return re.findall(r'<td class="num rank">(\d+)</td>', slide)


def _names(slides: list[str]) -> list[str]:
    import re

    return [n for s in slides for n in re.findall(r'<td class="name">(.*?)</td>', s)]
