"""A table's phone loses the network mid-entry: the game is kept on the phone,
shown as waiting to send, and stored exactly once when the network returns; a
game recorded meanwhile from elsewhere is shown as a conflict beside the
recorded one; the page reopens offline from the service worker's copy.

Set ``RACKSCORE_SHOTS`` to save screenshots in ``/tmp/offline-shots`` (390 and 1280 px).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import rules
from tests.factories import match_seated, seated_ids
from tournaments.models import Game, Match, Tournament
from tournaments.services.games import game_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/offline-shots")
QUEUE = "#offline-queue"


def shot(page: Any, name: str) -> None:
    """The page at the phone's width and at a desk's, when asked for."""
    if not os.environ.get("RACKSCORE_SHOTS"):
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for label, width in (("390", 390), ("1280", 1280)):
        page.set_viewport_size({"width": width, "height": size["height"]})
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(size)


def fill(page: Any, racks: tuple[str, str, str]) -> None:
    """Tiles for seats 1 and 2 (blank = went out), points for seat 3."""
    page.fill("#id_p1_tiles", racks[0])
    page.fill("#id_p2_tiles", racks[1])
    page.fill("#id_p3_points", racks[2])


def save(page: Any) -> None:
    page.click("[data-offline-form] button[type=submit]")


def worker_ready(page: Any) -> None:
    """The service worker controls the page and keeps a copy of it."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    for _ in range(50):
        if page.evaluate(
            "caches.match(location.href, {ignoreSearch: true, ignoreVary: true}).then(Boolean)"
        ):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker kept no copy of the page")


def racks_of(match: Match, number: int) -> list[tuple[str, int]]:
    game = match.games.get(number=number)
    return [(r.tiles, int(r.score)) for r in game.racks.order_by("position")]


def test_games_entered_offline_wait_and_are_stored_once_in_order(page, live_server) -> None:
    match = match_seated(players=3)
    page.add_init_script("window.rackscoreRetryMs = 500")
    page.goto(f"{live_server.url}/m/{match.token}/")
    worker_ready(page)

    fill(page, ("", "r5 j", "16"))
    page.context.set_offline(True)  # the hall's Wi-Fi drops before the tap
    save(page)
    waiting = page.locator(f"{QUEUE} article.waiting")
    assert waiting.first.locator("h3").inner_text().endswith("Game 1: waiting to send")
    assert "R5 J" in waiting.first.inner_text().upper()
    assert page.locator("#h-next").inner_text() == "Record game 2"

    # A second game behind it, still offline.
    fill(page, ("k13", "", "7"))
    save(page)
    assert waiting.count() == 2
    assert page.locator("#h-next").inner_text() == "Record game 3"
    shot(page, "01-two-waiting")
    assert Game.objects.count() == 0

    page.context.set_offline(False)
    page.wait_for_selector(f"{QUEUE} .notice.sent >> text=Game 2 was sent and stored.")
    assert waiting.count() == 0
    assert Game.objects.count() == 2
    assert [g.number for g in Game.objects.order_by("pk")] == [1, 2]  # in the order entered
    assert racks_of(match, 1) == [("", 51), ("R5 J", -35), ("", -16)]
    assert racks_of(match, 2)[1] == ("", 20)
    # The games section follows without a reload; the form offers game 3.
    page.wait_for_selector("section[aria-labelledby=h-games] table.grid")
    shot(page, "02-sent")

    page.reload()
    assert page.locator(f"{QUEUE} article").count() == 0
    assert page.locator("#h-next").inner_text() == "Record game 3"
    assert Game.objects.count() == 2


def test_answer_lost_on_the_way_back_is_sent_again_and_stored_once(browser, live_server) -> None:
    """The server stores the kept game but its answer never arrives: the retry
    carries the same Idempotency-Key and is answered with the first answer."""
    match = match_seated(players=3)
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.add_init_script("window.rackscoreRetryMs = 500")
    keys: list[str] = []

    def answer_lost_once(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        if len(keys) == 1:
            route.fetch()  # reaches the server and stores the game...
            route.abort("internetdisconnected")  # ...but the phone never hears back
        else:
            route.continue_()

    try:
        page.route(f"**/api/v1/matches/{match.pk}/games/", answer_lost_once)
        page.goto(f"{live_server.url}/m/{match.token}/")
        fill(page, ("", "r5 j", "16"))
        context.set_offline(True)
        save(page)
        page.locator(f"{QUEUE} article.waiting").wait_for()
        context.set_offline(False)
        page.wait_for_selector(f"{QUEUE} .notice.sent >> text=Game 1 was sent and stored.")
        assert len(keys) >= 2 and len(set(keys)) == 1 and keys[0]
        assert Game.objects.count() == 1
        assert page.locator(f"{QUEUE} article").count() == 0
    finally:
        context.close()


def one_game_kept_offline(page: Any, live_server: Any, match: Match) -> None:
    """Open the match page and enter game 1 while the phone is offline: it waits."""
    page.add_init_script("window.rackscoreRetryMs = 500")
    page.goto(f"{live_server.url}/m/{match.token}/")
    fill(page, ("", "r5 j", "16"))
    page.context.set_offline(True)
    save(page)
    page.locator(f"{QUEUE} article.waiting").wait_for()


def test_game_recorded_meanwhile_is_shown_as_a_conflict(page, live_server) -> None:
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    one_game_kept_offline(page, live_server, match)
    # Meanwhile another phone records game 1 with other racks.
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            rules.RackIn(player=a, tiles=""),
            rules.RackIn(player=b, points=9),
            rules.RackIn(player=c, points=3),
        ],
        number=1,
    )
    page.context.set_offline(False)
    conflict = page.locator(f"{QUEUE} article.conflict")
    conflict.wait_for()
    text = conflict.inner_text()
    assert "Game 1 was already recorded from elsewhere with other racks" in text
    assert "+12" in text and "-9" in text  # the recorded game
    assert "R5 J" in text.upper()  # beside what this phone kept
    shot(page, "03-conflict")
    assert Game.objects.count() == 1
    assert racks_of(match, 1)[1] == ("", -9)

    conflict.locator("button").click()
    expect(page.locator(f"{QUEUE} article")).to_have_count(0)
    expect(page.locator("#h-next")).to_have_text("Record game 2")


def test_a_kept_game_in_alias_letters_is_known_as_the_one_stored(page, live_server) -> None:
    """A kept "s5 g3 z07" reads as the engine reads it (K5 O3 K7): the
    game stored meanwhile with those racks is this phone's own, not a conflict."""
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    page.add_init_script("window.rackscoreRetryMs = 500")
    page.goto(f"{live_server.url}/m/{match.token}/")
    fill(page, ("", "s5 g3 z07", "16"))
    page.context.set_offline(True)
    save(page)
    page.locator(f"{QUEUE} article.waiting").wait_for()
    # Its first try got through; only the answer was lost, and the key with it.
    game_record(
        match=match,
        ending="rummikub",
        racks=[
            rules.RackIn(player=a, tiles=""),
            rules.RackIn(player=b, tiles="K5 O3 K7"),
            rules.RackIn(player=c, points=16),
        ],
        number=1,
    )
    page.context.set_offline(False)
    page.wait_for_selector(f"{QUEUE} .notice.sent >> text=Game 1 was sent and stored.")
    assert page.locator(f"{QUEUE} article.conflict").count() == 0
    assert Game.objects.count() == 1


def worker_offline(browser: Any, live_server: Any) -> None:
    """Take the service worker itself off the network: Playwright's offline mode
    stops the page's own requests only, not those the worker makes for it."""
    cdp = browser.new_browser_cdp_session()
    targets = cdp.send("Target.getTargets")["targetInfos"]
    worker = next(
        t for t in targets if t["type"] == "service_worker" and t["url"].startswith(live_server.url)
    )
    session = cdp.send("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": False})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    for number, (method, params) in enumerate(
        [("Network.enable", {}), ("Network.emulateNetworkConditions", offline)], start=1
    ):
        message = {"id": number, "method": method, "params": params}
        cdp.send(
            "Target.sendMessageToTarget",
            {"sessionId": session["sessionId"], "message": json.dumps(message)},
        )


def test_match_page_reopens_offline_and_keeps_a_failed_post(page, browser, live_server) -> None:
    match = match_seated(players=3, name="Club night")
    page.add_init_script("window.rackscoreRetryMs = 500")
    url = f"{live_server.url}/m/{match.token}/"
    page.goto(url)
    worker_ready(page)
    worker_offline(browser, live_server)
    Tournament.objects.filter(pk=match.round.tournament_id).update(name="Renamed")

    page.goto(url)  # the worker's copy: the name as this phone last saw it
    assert page.locator("p.crumbs").inner_text() == "Club night"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(251, 250, 246)"
    shot(page, "04-reopened-offline")

    # The phone thinks it is online: the form posts, the post fails on the way,
    # the worker hands the game to the page, which sends it through the API.
    fill(page, ("", "r5 j", "16"))
    save(page)
    page.wait_for_selector(f"{QUEUE} .notice.sent >> text=Game 1 was sent and stored.")
    assert Game.objects.count() == 1
    assert racks_of(match, 1) == [("", 51), ("R5 J", -35), ("", -16)]


def test_without_javascript_the_form_posts_as_before(browser, live_server) -> None:
    match = match_seated(players=3)
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/m/{match.token}/")
        assert page.locator(QUEUE).is_hidden()
        fill(page, ("", "r5 j", "16"))
        save(page)
        page.wait_for_selector("text=Game 1 recorded.")
        assert Game.objects.count() == 1
    finally:
        context.close()


def test_a_game_sent_from_the_queue_counts_as_entered_on_this_phone(page, live_server) -> None:
    """Under double entry the phone that entered a game offline is not offered
    its second entry: the queue tells the page's session, as a posted form does."""
    match = match_seated(players=3, confirmation=Tournament.Confirmation.DOUBLE_ENTRY)
    one_game_kept_offline(page, live_server, match)
    with page.expect_response(lambda r: r.url.endswith("/mine/")) as marked:
        page.context.set_offline(False)
    assert marked.value.status == 204
    assert match.games.get(number=1).state == Game.State.ENTERED
    page.reload()
    expect(page.locator("#h-next")).to_have_text("Record game 2")
    assert "wait" in page.locator("main").inner_text().lower()
