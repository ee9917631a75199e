"""A scorer at a table records a game on the match page; a visitor sorts the
standings. Driven through a real browser."""

from __future__ import annotations

import pytest

from scoring import rules
from tests.factories import match_seated, seated_ids
from tournaments.models import Game
from tournaments.services.games import game_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_scorer_records_a_game_and_sees_the_scores(page, live_server) -> None:
    match = match_seated(players=3)
    names = [s.player.name for s in match.seats.select_related("player").order_by("position")]
    page.goto(f"{live_server.url}/m/{match.token}/")
    assert page.locator("h1").inner_text().startswith("Table 1")

    # A wrong tile first: refused next to that player's rack, nothing stored.
    page.fill("#id_p2_tiles", "r14")
    page.fill("#id_p3_points", "16")
    page.click("form.game-form button[type=submit]")
    assert "unknown tile “r14”" in page.locator(".rack.invalid .field-error").inner_text()
    assert Game.objects.count() == 0

    page.fill("#id_p2_tiles", "r5 j")
    page.click("form.game-form button[type=submit]")
    page.wait_for_selector("text=Game 1 recorded.")
    row = page.locator("table.grid tbody tr").first
    cells = row.locator("td")
    assert [cells.nth(i).inner_text().split("\n")[0] for i in range(3)] == ["+51", "-35", "-16"]
    assert names[0] in page.locator("table.grid thead").inner_text()
    assert page.locator("h2", has_text="Record game 2").is_visible()
    assert Game.objects.count() == 1


def test_standings_sort_by_clicking_a_heading(page, live_server) -> None:
    match = match_seated(players=4, slug="sortable")
    ids = seated_ids(match)
    game_record(
        match=match,
        ending="rummikub",
        racks=[rules.RackIn(player=p, points=v) for p, v in zip(ids, [0, 30, 5, 12], strict=True)],
    )
    page.goto(f"{live_server.url}/t/sortable/standings/")

    def scores() -> list[str]:
        # The ranking's column (total score here) comes right after the name.
        texts: list[str] = page.locator("table.standings tbody td:nth-child(3)").all_inner_texts()
        return texts

    assert scores() == ["+47", "-5", "-12", "-30"]  # ranked: best first
    page.click("table.standings thead th >> text=Points left on racks")
    page.wait_for_url("**sort=rack_total**")
    assert scores() == ["+47", "-5", "-12", "-30"]  # fewest rack points first
    page.click("table.standings thead th >> text=Points left on racks")
    page.wait_for_url("**sort=-rack_total**")
    assert scores() == ["-30", "-12", "-5", "+47"]


def test_tournament_page_follows_new_results_live(page, live_server) -> None:
    match = match_seated(players=2, slug="live")
    a, b = seated_ids(match)
    page.add_init_script("window.rackscoreLiveMs = 300")
    page.goto(f"{live_server.url}/t/live/")
    standings = page.locator('[data-live="standings"]')
    assert "+12" not in standings.inner_text()

    game_record(
        match=match,
        ending="rummikub",
        racks=[rules.RackIn(player=a, tiles=""), rules.RackIn(player=b, points=12)],
    )
    # No reload: the page fetches itself and swaps the live regions in.
    page.wait_for_function(
        "document.querySelector('[data-live=\"standings\"]').innerText.includes('+12')"
    )
    assert "+12" in page.locator('[data-live="rounds"]').inner_text()
