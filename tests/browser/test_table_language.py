"""A Danish tournament's QR link opens in Danish in a browser that asks for
English; a visitor who picks English with the switcher gets English there the
next time they open the link (tournaments.web.table_language)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import match_seated
from tournaments.selectors.print_data import scoresheets_data

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_qr_link_opens_in_the_tournaments_language_until_the_visitor_picks_one(
    browser: Any, live_server: Any
) -> None:
    match = match_seated(players=3, language="da", name="Forårsturnering")
    sheets = scoresheets_data(round_=match.round, base_url=live_server.url)
    link = sheets["sheets"][0]["url"]
    assert link == f"{live_server.url}/da/m/{match.token}/"
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="en-GB",
        extra_http_headers={"Accept-Language": "en-GB,en;q=0.9"},
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(link)
        assert page.locator("html").get_attribute("lang") == "da"
        assert page.get_by_role("button", name="Gem spil").count() == 1
        # The unprefixed address a hand typed or an older sheet printed: Danish too.
        page.goto(f"{live_server.url}/m/{match.token}/")
        assert page.url == link
        assert page.locator("html").get_attribute("lang") == "da"
        # The visitor picks English with the switcher (it submits itself).
        with page.expect_navigation():
            page.select_option("#lang-select", "en")
        assert page.url == f"{live_server.url}/m/{match.token}/"
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.get_by_role("button", name="Save game").count() == 1
        # Next time, from the printed link: English, the visitor's own choice.
        page.goto(link)
        assert page.url == f"{live_server.url}/m/{match.token}/"
        assert page.locator("html").get_attribute("lang") == "en"
        page.goto(f"{live_server.url}/da/m/{match.token}/timer/")
        assert page.locator("html").get_attribute("lang") == "en"
    finally:
        context.close()
