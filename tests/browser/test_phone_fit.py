"""On a 390 px phone, under the site's Content-Security-Policy: the desk's players
table needs no sideways scroll (each row's Check out and Withdraw in view), and
"Enter several players at once" is a list of checkboxes that a filter box
narrows, ticked players kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.conftest import page_sized
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _logged_in(page: Any, live_server: Any, user: Any) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.mark.parametrize("prefix", ["", "/da"])
def test_the_desk_players_fit_a_phone_and_are_ticked_through_a_filter(browser, live_server, prefix):
    tournament = TournamentFactory(slug="club-night")
    for name in ("Anna Jensen", "Ben Larsen", "Cleo Nielsen", "Dan Hansen"):
        EntryFactory(tournament=tournament, player=PlayerFactory(name=name))
    earlier = TournamentFactory(owner=tournament.owner)
    for name in ("Åse Lund", "Bjørn Hansen", "Ole Olsen"):
        EntryFactory(tournament=earlier, player=PlayerFactory(name=name))
    with page_sized(browser, width=390, height=900, csp=True) as page:
        _logged_in(page, live_server, tournament.owner)
        page.goto(f"{live_server.url}{prefix}/t/club-night/organise/")
        wrap = page.locator("section#players .scroll")
        assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for button in page.locator("table.desk-players .row-actions .button").all():
            box = button.bounding_box()
            assert box is not None and box["x"] + box["width"] <= 390

        page.locator("details:has(.pick-many) summary").click()
        assert page.locator(".pick-many select").count() == 0
        boxes = page.locator("#pick-players input[type=checkbox]")
        assert boxes.count() == 3
        page.fill("#pick-filter", "hansen")
        shown = page.locator("#pick-players li:not([hidden])")
        assert shown.count() == 1 and "Bjørn Hansen" in shown.inner_text()
        shown.locator("input").check()
        page.fill("#pick-filter", "ase")  # accents aside: finds Åse
        assert page.locator("#pick-players li:not([hidden])").count() == 2  # Åse, and Bjørn ticked
        page.locator("#pick-players li:not([hidden])", has_text="Åse").locator("input").check()
        page.locator(".pick-many button[type=submit]").click()
        page.wait_for_load_state("load")
    names = set(tournament.entries.values_list("player__name", flat=True))
    assert {"Åse Lund", "Bjørn Hansen"} <= names and "Ole Olsen" not in names
