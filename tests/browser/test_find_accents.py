"""Names found in the browser whatever their accents: find my table folds what
is typed with the server's table, under the site's Content-Security-Policy;
and the desk's import preview offers a match with its box to tick.

Set ``RACKSCORE_SHOTS_DIR`` to save screenshots there (390 and 1280 px wide,
English and Danish)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import page_sized
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Bjørn Hansen", "Åse Lund", "Mette Østergaard", "Lars Eriksen", "Ole Olsen")


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("RACKSCORE_SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("prefix", ["", "/da"])
def test_find_my_table_finds_bjorn_and_aase_as_they_are_typed(browser, live_server, width, prefix):
    tournament = TournamentFactory(public=True, owner__password=None)
    for name in NAMES:
        EntryFactory(tournament=tournament, player=PlayerFactory(name=name))
    rounds.round_seat_next(tournament=tournament)
    with page_sized(browser, width=width, height=800, csp=True) as page:
        page.goto(f"{live_server.url}{prefix}/t/{tournament.slug}/tables/")
        rows = page.locator(".find-table tbody tr:visible")
        expect(rows).to_have_count(len(NAMES))
        for typed, found in (
            ("Bjorn", "Bjørn Hansen"),
            ("Aase", "Åse Lund"),
            ("ase", "Åse Lund"),
            ("ostergaard", "Mette Østergaard"),
            ("ØSTERGÅRD", "Mette Østergaard"),
        ):
            page.fill("#find-q", typed)
            expect(rows).to_have_count(1)
            assert found in rows.inner_text()
        page.fill("#find-q", "Bjorn")
        _shot(page, f"tables{prefix.replace('/', '-')}-{width}")
        page.fill("#find-q", "zzz")
        expect(rows).to_have_count(0)
        assert page.locator("[data-find-none]").is_visible()


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("prefix", ["", "/da"])
def test_the_import_preview_offers_a_match_to_untick(browser, live_server, width, prefix):
    tournament = TournamentFactory(slug="club-night")
    lars = PlayerFactory(name="Lars Eriksen", created_by=tournament.owner)
    client = Client()
    client.force_login(tournament.owner)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    with page_sized(browser, width=width, height=900, csp=True) as page:
        page.context.add_cookies(
            [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
        )
        page.goto(f"{live_server.url}{prefix}/t/club-night/organise/players/import/")
        _shot(page, f"import{prefix.replace('/', '-')}-{width}")
        page.fill("textarea[name=text]", "Navn;Klub\nLars   Eriksen;\nMette Sørensen;Roskilde\n")
        page.locator(".import-form button[type=submit]").click()
        page.wait_for_load_state("load")
        box = page.locator("input[name=new][value='2']")
        expect(box).to_have_count(1)
        _shot(page, f"import-preview{prefix.replace('/', '-')}-{width}")
        box.check()
        page.locator("#import-confirm button[type=submit]").click()
        page.wait_for_load_state("load")
    # The box ticked: a new Lars Eriksen is entered, not the one there was.
    assert tournament.entries.count() == 2
    assert tournament.entries.filter(player__name="Lars Eriksen").count() == 1
    assert not tournament.entries.filter(player=lars).exists()
