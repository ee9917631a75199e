"""Creating a tournament from a format in the browser: the chooser above the
form fills the settings, the organiser changes one, and the new tournament
keeps the format's settings, the change and the format's name. Screenshots at
phone and desk widths when RACKSCORE_SHOTS names a folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import page_sized
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("RACKSCORE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"formats-{name}.png"), full_page=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_a_format_fills_the_new_tournament_form(browser: Any, live_server: Any, width: int):
    get_user_model().objects.create_user("fran", password="rummikub-formats")
    with page_sized(browser, width=width, height=900) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "fran")
        page.fill("#id_password", "rummikub-formats")
        page.click("main form button[type=submit]")
        page.goto(f"{live_server.url}/t/new/")
        # A new tournament starts with the chooser open: the first choice to make.
        assert page.locator("details.formats").get_attribute("open") is not None
        shot(page, f"chooser-{width}")
        page.check("input[name=format][value=belgian_club]")
        page.click(".formats form button[type=submit]")
        page.wait_for_url("**/t/new/?format=belgian_club")
        assert page.input_value("#id_joker_penalty") == "25"
        assert page.input_value("#id_semifinal_players") == "8"
        assert "Belgian club championship" in page.inner_text("details.formats > summary")
        assert page.is_checked("input[name=format][value=belgian_club]")
        shot(page, f"filled-{width}")
        page.fill("#id_name", "Brussels Open")
        page.fill("#id_games_per_round", "2")
        page.click("main form button[type=submit] >> text=Create tournament")
        page.wait_for_url("**/t/brussels-open/organise/")
    t = Tournament.objects.get(slug="brussels-open")
    assert (t.format, t.joker_penalty, t.games_per_round, t.final_from) == (
        "belgian_club",
        25,
        2,
        "stage_points",
    )
