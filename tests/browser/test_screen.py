"""The hall in a browser: the projector screen cycles its slides, counts the
round clock down and shows a result recorded while it is open; find my table
filters as a name is typed.

Set ``RACKSCORE_SHOTS`` to save screenshots in ``/tmp/screen-shots``
(the screen at 1920 and 1280 px, the screen and find my table at 390 px).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.rules import RackIn
from tests.browser.conftest import page_sized
from tests.factories import PlayerFactory, seated_ids, tournament_entered
from tournaments.models import Match, Tournament
from tournaments.services import clock, entries, games, rounds
from tournaments.web import hall_pages as hall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/screen-shots")


def _shot(page: Any, name: str) -> None:
    if os.environ.get("RACKSCORE_SHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    # The live server runs in this process: the screen cycles and polls fast.
    monkeypatch.setattr(hall, "SLIDE_SECONDS", 2)
    monkeypatch.setattr(hall, "POLL_SECONDS", 1)


def _event() -> Tournament:
    tournament = tournament_entered(players=0, round_minutes=30, games_per_round=4)
    names = [
        "Ada Berg", "Bo Carlsen", "Cato Dahl", "Dina Eng", "Emil Fors", "Frida Gran",
        "Gustav Holm", "Hedda Isaksen", "Ivar Jensen", "Jonas Kvist", "Kari Lund",
        "Liv Moe", "Mats Nygaard", "Nora Olsen", "Ole Pedersen", "Pia Qvist",
    ]  # fmt: skip
    people = [PlayerFactory(name=n) for n in names]
    entries.entries_add(tournament=tournament, player_ids=[p.pk for p in people])
    round_ = rounds.round_seat_next(tournament=tournament)
    clock.round_clock_start(round_=round_)
    return tournament


def _visible_slide(page: Any) -> int:
    return int(
        page.evaluate(
            "Array.from(document.querySelectorAll('#slides > .slide'))"
            ".findIndex(s => !s.hidden) + 1"
        )
    )


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (390, 844)])
def test_the_screen_cycles_counts_down_and_follows_a_new_result(
    browser, live_server, quick, width, height
):
    tournament = _event()
    with page_sized(browser, width=width, height=height) as page:
        page.goto(f"{live_server.url}/t/{tournament.slug}/screen/")
        assert page.locator("header.site").count() == 0
        # 16 players: two pages of standings, then one of the four tables.
        assert page.locator("#slides > .slide").count() == 3
        assert _visible_slide(page) == 1
        _shot(page, f"screen-{width}-standings")
        page.wait_for_function(
            "Array.from(document.querySelectorAll('#slides > .slide'))"
            ".findIndex(s => !s.hidden) === 1",
            timeout=6000,
        )
        # The clock counts down from the server's time.
        time = page.locator(".screen-clock [data-clock-time]")
        assert re.fullmatch(r"(29|30):\d\d", time.inner_text())
        first = time.inner_text()
        page.wait_for_function(
            f"document.querySelector('.screen-clock [data-clock-time]').textContent !== '{first}'",
            timeout=4000,
        )
        assert "1 of 4 games" not in page.locator("#slides").text_content()

        match = Match.objects.filter(round__tournament=tournament).order_by("table")[0]
        ids = seated_ids(match)
        games.game_record(
            match=match,
            ending="rummikub",
            racks=[RackIn(player=ids[0], tiles="")] + [RackIn(player=p, points=9) for p in ids[1:]],
        )
        page.wait_for_function(
            "document.querySelector('#slides').textContent.includes('1 of 4 games')",
            timeout=8000,
        )
        # Still cycling after the slides were fetched again.
        page.wait_for_function(
            "Array.from(document.querySelectorAll('#slides > .slide'))"
            ".findIndex(s => !s.hidden) === 2",
            timeout=8000,
        )
        assert "+27" in page.locator("#slides").text_content()
        _shot(page, f"screen-{width}-tables")

        # A pause reaches the screen at its next poll.
        clock.round_clock_pause(round_=match.round)
        page.wait_for_selector(".screen-clock.clock-paused", timeout=5000)
        assert page.locator(".screen-clock .label-paused").is_visible()


def test_the_screen_at_1280(browser, live_server, quick):
    tournament = _event()
    with page_sized(browser, width=1280, height=720) as page:
        page.goto(f"{live_server.url}/t/{tournament.slug}/screen/")
        # Twelve rows fit the slide: nothing runs below the foot.
        foot = page.locator(".screen-foot").bounding_box()
        table = page.locator("#slide-1 table").bounding_box()
        assert table["y"] + table["height"] <= foot["y"] + 1
        _shot(page, "screen-1280-standings")


def test_find_my_table_filters_as_a_name_is_typed(browser, live_server):
    tournament = _event()
    with page_sized(browser, width=390, height=844) as page:
        page.goto(f"{live_server.url}/t/{tournament.slug}/")
        page.get_by_role("link", name="Find my table").click()
        page.wait_for_load_state("load")
        rows = page.locator(".find-table tbody tr")
        assert rows.count() == 16
        page.fill("#find-q", "nora")
        expect(page.locator(".find-table tbody tr:visible")).to_have_count(1)
        row = page.locator(".find-table tbody tr:visible")
        assert "Nora Olsen" in row.inner_text()
        _shot(page, "tables-390")
        page.fill("#find-q", "zzz")
        expect(page.locator(".find-table tbody tr:visible")).to_have_count(0)
        assert page.locator("[data-find-none]").is_visible()
        # Without JavaScript the same search is a GET.
        page.goto(f"{live_server.url}/t/{tournament.slug}/tables/?q=Ole")
        assert page.locator(".find-table tbody tr").count() == 1


def test_without_javascript_the_screen_moves_on_by_itself(browser, live_server, quick):
    tournament = _event()
    context = browser.new_context(
        viewport={"width": 1280, "height": 720}, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.slug}/screen/")
        assert page.locator("#slide-1").is_visible()
        page.wait_for_url(re.compile(r"\?slide=2$"), timeout=8000)
        assert page.locator("#slide-2").is_visible()
        assert not page.locator("#slide-1").is_visible()
    finally:
        context.close()
