"""The turn timer counts a turn down, warns at 10 seconds, shows the reminder at 0
and passes the turn on a tap; the player's page shows their running totals.

The page's clock is Playwright's (``page.clock``), so a minute passes at once.
Set ``RACKSCORE_SHOTS`` to save screenshots in ``/tmp/timer-shots`` (each at
360 px and at 1920 px).
"""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import page_sized
from tests.factories import match_seated
from tests.tournaments.web.support import play
from tournaments.models import Player, Rack

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/timer-shots")
VIEWPORTS = {"390": (390, 844), "1920": (1920, 1080)}


def shots(page: Any, name: str) -> None:
    if not os.environ.get("RACKSCORE_SHOTS"):
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in ((360, 780), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(size)


@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
def test_match_timer_counts_down_warns_and_passes_the_turn(
    browser: Any, live_server: Any, viewport: str
) -> None:
    match = match_seated(players=3, turn_seconds=40)
    play(match, games=1)  # game 2 next: seat 2 starts
    names = [s.player.name for s in match.seats.order_by("position").select_related("player")]
    width, height = VIEWPORTS[viewport]
    with page_sized(browser, width=width, height=height) as page:
        page.clock.install()
        page.add_init_script(
            "window.__beeps = 0; window.__buzz = [];"
            "navigator.vibrate = function (p) { window.__buzz.push(p); return true; };"
            "(function () { var C = window.AudioContext; if (!C) return;"
            "  var o = C.prototype.createOscillator;"
            "  C.prototype.createOscillator = function () { window.__beeps++;"
            "    return o.call(this); }; })();"
        )
        page.goto(f"{live_server.url}/m/{match.token}/timer/")
        tap = page.locator("[data-timer-tap]")
        time = page.locator("[data-timer-time]")
        assert time.inner_text() == "40"
        assert page.locator("[data-timer-name]").inner_text() == names[1]
        shots(page, "timer-idle")
        tap.click()
        page.clock.run_for(29_000)
        assert time.inner_text() == "11"
        assert page.locator("body.is-warning").count() == 0
        page.clock.run_for(1_500)
        assert time.inner_text() == "10"
        assert page.locator("body.is-warning").count() == 1
        assert page.evaluate("window.__buzz.length") == 1
        assert page.evaluate("window.__beeps") >= 1
        shots(page, "timer-warning")
        page.clock.run_for(10_000)
        assert time.inner_text() == "0"
        assert page.locator("body.is-up").count() == 1
        reminder = page.locator("[data-timer-reminder]")
        assert reminder.is_visible()
        assert "draw three" in reminder.inner_text()
        shots(page, "timer-up")
        # Next player: seat 3, a fresh turn.
        tap.click()
        assert page.locator("[data-timer-name]").inner_text() == names[2]
        assert time.inner_text() == "40"
        assert page.locator("body.is-up, body.is-warning").count() == 0
        # Pause holds the time; the seat buttons pick whose turn it is.
        page.clock.run_for(5_000)
        page.locator("[data-timer-pause]").click()
        page.clock.run_for(20_000)
        assert time.inner_text() == "35"  # paused: rendered when the pause was pressed
        page.locator("[data-timer-pause]").click()
        # The display ticks five times a second: a quarter of a second on, it shows 30.
        page.clock.run_for(5_250)
        assert time.inner_text() == "30"
        page.locator("[data-timer-seat='0']").click()
        assert page.locator("[data-timer-name]").inner_text() == names[1]


def test_free_timer_choices(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/timer/")
    page.select_option("select[name=seconds]", "90")
    page.select_option("select[name=seats]", "2")
    page.locator(".t-form button[type=submit]").click()
    page.wait_for_url("**seconds=90**")
    assert page.locator("[data-timer-time]").inner_text() == "90"
    assert page.locator("[data-timer-seat]").count() == 2
    shots(page, "timer-free")


def test_timer_without_javascript_explains_and_shows_the_rule(
    browser: Any, live_server: Any
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/timer/")
        assert page.locator(".t-nojs").is_visible()
        assert not page.locator("[data-timer-tap]").is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
def test_player_page_totals(browser: Any, live_server: Any, viewport: str) -> None:
    match = match_seated(players=4)
    Player.objects.filter(seats__match=match, seats__position=1).update(
        name="Annemarie Kristoffersen"
    )
    play(match, games=3)
    seat = match.seats.get(position=1)
    scores = [
        r.score + r.bonus for r in Rack.objects.filter(player=seat.player).order_by("game__number")
    ]
    width, height = VIEWPORTS[viewport]
    with page_sized(browser, width=width, height=height) as page:
        page.goto(f"{live_server.url}/t/{match.round.tournament.slug}/standings/")
        page.get_by_role("link", name=seat.player.name).click()
        page.wait_for_url(f"**/p/{seat.player_id}/")
        running = page.locator("[data-running]").all_inner_texts()
        assert [Decimal(t.replace("+", "")) for t in running] == [
            sum(scores[: i + 1]) for i in range(len(scores))
        ]
        total = page.locator("[data-player-total]").inner_text()
        assert Decimal(total.replace("+", "")) == sum(scores)
        # No cell runs off a phone's screen.
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert not overflow
        shots(page, "player")
        other = match.seats.get(position=2).player
        page.get_by_role("link", name=other.name).first.click()
        page.wait_for_url(f"**/p/{other.pk}/")


@pytest.mark.parametrize("language", ["", "/de", "/nb"])
def test_phone_pages_do_not_run_off_the_screen(
    browser: Any, live_server: Any, language: str
) -> None:
    match = match_seated(players=4, ranking="table_points")
    Player.objects.filter(seats__match=match, seats__position=1).update(
        name="Annemarie Kristoffersen-Vandenbroucke"
    )
    play(match, games=2)
    slug = match.round.tournament.slug
    with page_sized(browser, width=360, height=780) as page:
        for name, path in (
            ("home", "/"),
            ("standings", f"/t/{slug}/standings/"),
            ("tournament", f"/t/{slug}/"),
            ("round", f"/t/{slug}/rounds/1/"),
        ):
            page.goto(f"{live_server.url}{language}{path}")
            wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert wide <= 0, (name, wide)
            shots(page, f"phone-{name}{language.replace('/', '-')}")
        # The standings scroll inside their box, the player's name staying in view.
        page.goto(f"{live_server.url}{language}/t/{slug}/standings/")
        assert page.locator(".scroll-hint").is_visible()
        name = page.locator("table.standings tbody tr td:nth-child(2)").first
        before = name.bounding_box()
        page.locator(".scroll:has(table.standings)").evaluate("el => el.scrollLeft = 400")
        after = name.bounding_box()
        assert after is not None and before is not None
        assert abs(after["x"] - before["x"]) < 60
