"""A scorer enters a game with the tile picker: the preview shows the scores the
calculator gives before saving, every refusal is listed at once above the form,
the set's limit disables a tile held twice at the table, and the game is stored
with those scores. The calculator page has the same picker.

Set ``RACKSCORE_SHOTS`` to save screenshots in ``/tmp/picker-shots`` (each at
360 px and at 1920 px).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import page_sized
from tests.factories import match_seated
from tournaments.models import Game, Player, Rack

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/picker-shots")
VIEWPORTS = {"390": (390, 844), "1920": (1920, 1080)}
NAMES = ["Annemarie Kristoffersen", "Bo", "Charlotte Vandenbroucke", "Dagfinn Østergaard"]


def shots(page: Any, name: str) -> None:
    if not os.environ.get("RACKSCORE_SHOTS"):
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in ((360, 780), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(size)


def _rack(page: Any, seat: int) -> Any:
    return page.locator("form.game-form fieldset.rack").nth(seat - 1)


def _tap(page: Any, seat: int, label: str) -> None:
    rack = _rack(page, seat)
    toggle = rack.locator(".picker-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    rack.get_by_role("button", name=label, exact=True).click()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_game_entered_with_the_picker_is_previewed_and_stored(
    browser: Any, live_server: Any, viewport: str
) -> None:
    match = match_seated(players=4)
    for seat, name in zip(match.seats.order_by("position"), NAMES, strict=True):
        Player.objects.filter(pk=seat.player_id).update(name=name)
    width, height = VIEWPORTS[viewport]
    with page_sized(browser, width=width, height=height) as page:
        page.goto(f"{live_server.url}/m/{match.token}/")
        preview = page.locator("form.game-form .preview")
        assert "Enter the racks" in preview.inner_text()

        _rack(page, 1).locator(".picker-emptied").click()
        _tap(page, 2, "red 7")
        _tap(page, 2, "red 7")
        # The set holds two red 7s: no third, at any rack of the table.
        for seat in (2, 3):
            rack = _rack(page, seat)
            if rack.locator(".picker-toggle").get_attribute("aria-expanded") != "true":
                rack.locator(".picker-toggle").click()
            assert rack.get_by_role("button", name="red 7", exact=True).is_disabled()
        _tap(page, 2, "joker")
        assert page.input_value("#id_p2_tiles") == "R7 R7 J"
        # Thumb-sized tiles that wrap: nothing runs off a phone's screen.
        box = _rack(page, 2).get_by_role("button", name="blue 13", exact=True).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        _tap(page, 3, "black 13")
        _tap(page, 3, "blue 1")
        # A chosen tile taken back with one tap.
        _rack(page, 3).get_by_role("button", name="Remove blue 1").click()
        assert page.input_value("#id_p3_tiles") == "K13"
        page.fill("#id_p4_points", "16")

        table = preview.locator("table.preview-scores")
        table.wait_for(state="visible")
        page.wait_for_function(
            "document.querySelector('.preview-scores').innerText.includes('+73')"
        )
        cells = table.locator("tbody td:nth-child(3)").all_inner_texts()
        assert cells == ["+73", "-44", "-13", "-16"]
        assert "winner" in table.locator("tbody tr").first.inner_text()
        shots(page, "match-preview")

        page.click("form.game-form button[type=submit]")
        page.wait_for_selector("text=Game 1 recorded.")
        game = Game.objects.get()
        scores = list(
            Rack.objects.filter(game=game).order_by("position").values_list("score", flat=True)
        )
        assert scores == [73, -44, -13, -16]
        shots(page, "match-recorded")


def test_every_refusal_is_listed_at_once_with_links(page: Any, live_server: Any) -> None:
    match = match_seated(players=4)
    page.goto(f"{live_server.url}/m/{match.token}/")
    # Two racks' own mistakes and the game's (nobody emptied the rack), together.
    page.fill("#id_p1_tiles", "R1")
    page.fill("#id_p2_tiles", "r14")
    page.fill("#id_p3_tiles", "K3 X9")
    page.fill("#id_p4_points", "5")
    errors = page.locator("form.game-form .preview-errors")
    errors.wait_for(state="visible")
    page.wait_for_function("document.querySelectorAll('.preview-errors li').length >= 3")
    links = errors.locator("a")
    texts = links.all_inner_texts()
    assert any("r14" in t for t in texts)
    assert any("X9" in t for t in texts)
    assert any("empty rack" in t for t in texts)
    assert links.first.get_attribute("href") == "#id_p2_tiles"
    links.first.click()
    assert page.evaluate("document.activeElement.id") == "id_p2_tiles"
    shots(page, "match-errors")
    assert Game.objects.count() == 0


def test_the_calculator_has_the_picker_and_preview(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/calculator/")
    page.select_option("select[name=players]", "2")
    page.fill("#id_p1_name", "Ann")
    page.fill("#id_p2_name", "Ben")
    _rack(page, 1).locator(".picker-emptied").click()
    _tap(page, 2, "orange 5")
    # The keyboard works as the thumb does.
    tile = _rack(page, 2).get_by_role("button", name="red 1", exact=True)
    tile.focus()
    page.keyboard.press("Enter")
    assert page.input_value("#id_p2_tiles") == "O5 R1"
    _rack(page, 2).get_by_role("button", name="Remove red 1").focus()
    page.keyboard.press("Enter")
    assert page.input_value("#id_p2_tiles") == "O5"
    page.click("details.settings summary")
    page.fill("#id_joker_penalty", "25")
    _tap(page, 2, "joker")
    page.wait_for_function(
        "document.querySelector('.preview-scores') && "
        "document.querySelector('.preview-scores').innerText.includes('+30')"
    )
    rows = page.locator(".preview-scores tbody tr").all_inner_texts()
    assert rows[0].startswith("Ann") and "+30" in rows[0]
    assert "-30" in rows[1]
    shots(page, "calculator-preview")


def test_without_javascript_the_form_is_plain(browser: Any, live_server: Any) -> None:
    match = match_seated(players=2)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/m/{match.token}/")
        assert page.locator(".picker").count() == 0
        assert page.locator(".preview").count() == 0
        page.fill("#id_p2_tiles", "R7")
        page.click("form.game-form button[type=submit]")
        page.wait_for_selector("text=Game 1 recorded.")
    finally:
        context.close()


def test_a_bonus_the_calculator_answers_gets_its_column(page: Any, live_server: Any) -> None:
    answer = {
        "ending": "rummikub",
        "winners": ["Ann"],
        "scores": [
            {"player": "Ann", "rack_value": 0, "score": 25, "bonus": 50},
            {"player": "Ben", "rack_value": 31, "score": -25, "bonus": 0},
        ],
    }
    page.route(
        "**/api/v1/score/",
        lambda route: route.fulfill(status=200, json=answer),
    )
    page.goto(f"{live_server.url}/calculator/")
    page.select_option("select[name=players]", "2")
    page.fill("#id_p1_name", "Ann")
    page.fill("#id_p2_name", "Ben")
    page.fill("#id_p2_points", "31")
    page.locator(".preview-scores").wait_for(state="visible")
    assert "Bonus" in page.locator(".preview-scores thead").inner_text()
    assert page.locator(".preview-scores tbody tr").first.locator("td").all_inner_texts() == [
        "0",
        "+25",
        "+50",
    ]
