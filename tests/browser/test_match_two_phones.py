"""Two phones at one table open the same match page and both enter the same
game: the second is answered 409 with the game the first stored, nothing is
stored twice; under double entry the second phone confirms the first's entry.

Set ``RACKSCORE_SHOTS`` to save screenshots in ``/tmp/match-shots`` (each at
390 px and at the desk's 1280 px).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from scoring import rules
from tests.browser.conftest import page_sized
from tests.factories import match_seated, seated_ids
from tournaments.models import Game, Match
from tournaments.services.games import game_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/match-shots")
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}


def shots(page: Any, name: str) -> None:
    """The page at a phone's width and at the desk's, when asked for."""
    if not os.environ.get("RACKSCORE_SHOTS"):
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for label, viewport in (("390", PHONE), ("1280", DESK)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(size)


def fill(page: Any, racks: tuple[str, str, str]) -> None:
    """Tiles for seats 1 and 2 (blank = went out), points for seat 3."""
    page.fill("#id_p1_tiles", racks[0])
    page.fill("#id_p2_tiles", racks[1])
    page.fill("#id_p3_points", racks[2])


def submit(page: Any) -> int:
    """Send the entry form; the status of the answer to the POST."""
    # The form's own POST, not the live preview's call to the calculator.
    posted = page.url.split("#")[0]
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == posted) as answer:
        page.click("form.game-form button[type=submit]")
    page.wait_for_load_state()
    return int(answer.value.status)


def played_once(**kwargs: Any) -> Match:
    match = match_seated(players=3, **kwargs)
    a, b, c = seated_ids(match)
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            rules.RackIn(player=a, points=4),
            rules.RackIn(player=b, tiles=""),
            rules.RackIn(player=c, points=9),
        ],
    )
    return match


def test_second_phone_entering_game_2_gets_the_stored_game(browser: Any, live_server: Any) -> None:
    match = played_once()
    url = f"{live_server.url}/m/{match.token}/"
    with (
        page_sized(browser, **PHONE) as first,
        page_sized(browser, **PHONE) as second,
    ):
        first.goto(url)
        second.goto(url)
        for phone in (first, second):
            assert phone.locator("h2", has_text="Record game 2").is_visible()
        shots(second, "01-record-game-2")

        fill(first, ("", "r5 j", "16"))
        assert submit(first) == 302
        assert first.locator("text=Game 2 recorded.").is_visible()

        fill(second, ("k3", "", "7"))  # what the second phone typed for the same game
        assert submit(second) == 409
        taken = second.locator("section.taken")
        assert taken.is_visible()
        text = taken.inner_text()
        assert "Game 2 was already entered by this table: here it is." in text
        assert "Nothing was stored." in text
        assert "R5 J" in text and "+51" in text
        assert "record game 3" in text
        assert second.locator("h2", has_text="Record game 3").is_visible()
        assert second.locator("input[name=number]").input_value() == "3"
        shots(second, "02-game-2-taken")

    assert Game.objects.filter(match=match).count() == 2
    assert sorted(Game.objects.values_list("number", flat=True)) == [1, 2]


def test_second_phone_confirms_a_double_entry(browser: Any, live_server: Any) -> None:
    match = played_once(confirmation="double_entry")
    Game.objects.update(state=Game.State.CONFIRMED)
    url = f"{live_server.url}/m/{match.token}/"
    with (
        page_sized(browser, **PHONE) as first,
        page_sized(browser, **PHONE) as second,
    ):
        # Both phones are at the table before the first entry is stored: a phone
        # that opens the page only afterwards cannot second it (a new session).
        second.goto(url)
        first.goto(url)
        fill(first, ("", "r5 j", "16"))
        assert submit(first) == 302
        assert first.locator("text=it counts once entered a second time").is_visible()
        # The first phone goes on to game 3; it never confirms its own entry.
        assert first.locator("h2", has_text="Record game 3").is_visible()
        shots(first, "03-entered-once")

        second.reload()
        heading = "Game 2 waits for a second entry — enter it again to confirm"
        assert second.locator("h2", has_text=heading).is_visible()
        assert second.locator("table.grid .state-entered").inner_text() == "entered"
        shots(second, "04-second-entry")
        fill(second, ("", "r5 j", "16"))
        assert submit(second) == 302
        assert second.locator("text=Game 2 confirmed: both entries agree.").is_visible()
        assert second.locator("table.grid .state-confirmed").count() == 2
        shots(second, "05-confirmed")

    assert Game.objects.filter(match=match).count() == 2
    assert Game.objects.get(number=2).state == Game.State.CONFIRMED


@pytest.mark.parametrize("confirmation", ["none", "double_entry"])
def test_four_players_fit_a_phone(browser: Any, live_server: Any, confirmation: str) -> None:
    """At 390 px the games table shows all four players' columns, no sideways
    scroll, with each game's state too (and a game waiting for its second entry)."""
    match = match_seated(players=4, confirmation=confirmation)
    names = ("Annemarie Vandenberghe", "Bartholomew Okonkwo", "Chiara Bellini", "Dmitri Volkov")
    seats = match.seats.select_related("player").order_by("position")
    for seat, name in zip(seats, names, strict=True):
        seat.player.name = name
        seat.player.save()
    ids = seated_ids(match)
    for racks in (
        ("", "r5 j k13 b12 o11", "b1 b2 b3 r10 r11", "k7 k8 o9 o10 o12"),
        ("r1 r2 r3 k4 k5", "", "j o13 b13 r13", "b7 b8 b9 k11 k12"),
        ("o1 o2 o3 o4 o5 o6", "r9 r8", "", "j j"),
    ):
        game_record(
            match=match,
            ending="rummikub",
            racks=[rules.RackIn(player=p, tiles=t) for p, t in zip(ids, racks, strict=True)],
        )
    Game.objects.filter(number__lt=3).update(state=Game.State.CONFIRMED)
    with page_sized(browser, **PHONE) as phone:
        phone.goto(f"{live_server.url}/m/{match.token}/")
        shots(phone, f"06-four-players-{confirmation}")
        overflow = phone.evaluate(
            "() => { const s = document.querySelector('#h-games + .scroll');"
            " return s.scrollWidth - s.clientWidth; }"
        )
        assert overflow <= 0
        last = phone.locator("table.grid thead th").last.bounding_box()
        assert last is not None and last["x"] + last["width"] <= PHONE["width"]
