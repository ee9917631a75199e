"""A whole event run from the organiser desk by a user without the staff flag:
create the tournament, import its players, seat and play every round with the
match links on a phone, correct and delete games on the desk, play the
semi-finals and the final, finish, and find the same placings on the
tournament page as in the final report PDF.

Set ``RACKSCORE_SHOTS`` to save a screenshot of every step in
``/tmp/desk-shots`` (desk at 1280 px, phone at 390 px).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from tests.browser.conftest import click_to_load, page_sized
from tournaments.models import AuditEvent, Entry, Game, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/desk-shots")
PLAYERS = [
    ("Ada Berg", "Lakeside"),
    ("Bo Carlsen", "Lakeside"),
    ("Cato Dahl", "Harbour"),
    ("Dina Eng", "Harbour"),
    ("Emil Fors", ""),
    ("Frida Gran", "Lakeside"),
    ("Gustav Holm", "Harbour"),
    ("Hedda Isaksen", ""),
    ("Ivar Jensen", "Lakeside"),
    ("Jonas Kvist", "Harbour"),
    ("Kari Lund", ""),
    ("Liv Moe", "Lakeside"),
    ("Mats Nygaard", "Harbour"),
]
WALK_IN = "Nora Olsen"


class Shots:
    """Numbered screenshots, only when asked for (CI spends no time on them)."""

    def __init__(self) -> None:
        self.enabled = bool(os.environ.get("RACKSCORE_SHOTS"))
        self.count = 0
        if self.enabled:
            SHOTS.mkdir(parents=True, exist_ok=True)
            for old in SHOTS.glob("*.png"):
                old.unlink()

    def __call__(self, page: Any, name: str) -> None:
        if self.enabled:
            self.count += 1
            page.screenshot(path=str(SHOTS / f"{self.count:02d}-{name}.png"), full_page=True)

    def narrow(self, page: Any, name: str) -> None:
        """The desk page as it is on a phone (390 px), then back to the desk's width."""
        if self.enabled:
            size = page.viewport_size
            page.set_viewport_size({"width": 390, "height": 844})
            self(page, f"{name}-390")
            page.set_viewport_size(size)


@pytest.fixture
def desk(browser: Any, live_server: Any) -> Iterator[Any]:
    with page_sized(browser, width=1280, height=900) as page:
        yield page


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    """A scorer's phone at the table: another browser, nobody logged in."""
    with page_sized(browser, width=390, height=844) as page:
        yield page


def message(page: Any) -> str:
    text: str = page.locator(".messages").inner_text()
    return text


def match_links(desk: Any) -> list[str]:
    """The latest round's table pages, as listed on the desk."""
    links = desk.locator("#rounds .match-list li > a[href*='/m/']")
    return [links.nth(i).evaluate("a => a.href") for i in range(links.count())]


def play(phone: Any, url: str, *, base: int, games: int, shots: Shots, name: str) -> None:
    """Record every game of a table on its own page: seat 1 goes out, the rest keep points."""
    phone.goto(url)
    for game in range(1, games + 1):
        seats = phone.locator("form.game-form fieldset.rack").count()
        for position in range(2, seats + 1):
            phone.fill(f"#id_p{position}_points", str(base + 3 * position + game))
        if game == 1:
            shots(phone, f"{name}-entry")
        phone.click("form.game-form button[type=submit]")
        phone.wait_for_selector(f"text=Game {game} recorded.")
    assert phone.locator("p.done").is_visible()
    shots(phone, f"{name}-done")


def play_round(desk: Any, phone: Any, *, games: int, shots: Shots, name: str) -> None:
    links = match_links(desk)
    assert links
    for table, link in enumerate(links, start=1):
        play(
            phone,
            link,
            base=7 * table,
            games=games,
            shots=shots,
            name=f"{name}-table{table}" if table == 1 else f"{name}-t{table}",
        )
    desk.reload()


def places_in_pdf(pdf: bytes, names: list[str]) -> list[str]:
    """The players named in the report's final standings, in the order printed."""
    assert pdf.startswith(b"%PDF-")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    table = text.split("Final standings", 1)[1].split("Results by table", 1)[0]
    table = re.sub(r"\s+", " ", table)
    found = {name: table.find(name) for name in names}
    assert all(at >= 0 for at in found.values()), found
    return sorted(names, key=lambda name: found[name])


def test_an_organiser_runs_a_whole_event_from_the_desk(
    desk: Any, phone: Any, live_server: Any, tmp_path: Path
) -> None:
    shots = Shots()
    get_user_model().objects.create_user("olga", password="rummikub-desk")
    url = live_server.url

    # Log in (no staff flag) and create the tournament: two rounds, semi-finals, final.
    desk.goto(f"{url}/accounts/login/")
    desk.fill("#id_username", "olga")
    desk.fill("#id_password", "rummikub-desk")
    desk.click("main form button[type=submit]")
    desk.click("text=New tournament")
    desk.fill("#id_name", "Desk Cup")
    desk.fill("#id_rounds", "2")
    desk.fill("#id_games_per_round", "1")
    desk.fill("#id_semifinal_players", "8")
    shots(desk, "new-tournament")
    desk.click("main form button[type=submit] >> text=Create tournament")
    desk.wait_for_url("**/t/desk-cup/organise/")
    assert "Tournament “Desk Cup” created." in message(desk)
    assert "No players yet" in desk.locator("#next-step").inner_text()
    assert not desk.locator("text=Finish tournament").count()  # nothing to finish yet
    shots(desk, "desk-empty")
    tournament = Tournament.objects.get(slug="desk-cup")
    assert not tournament.owner.is_staff and tournament.semifinal_players == 8

    # Import 13 players from a CSV file with a bad line: refused, nothing imported.
    lines = [f"{n},{c}" for n, c in PLAYERS]
    bad = [*lines[:5], ",Lakeside", *lines[5:]]
    csv = tmp_path / "players.csv"
    csv.write_text("name,club\n" + "\n".join(bad) + "\n", encoding="utf-8")
    desk.click("text=Import a list of players")
    desk.set_input_files("form.import-form input[type=file]", str(csv))
    shots(desk, "import-form")
    click_to_load(desk, "form.import-form button[type=submit]")
    desk.wait_for_url("**/organise/players/import/")
    assert "Nothing imported: 1 problem in the list." in desk.locator(".errors").inner_text()
    bad_row = desk.locator("table.import-preview tr.invalid")
    assert bad_row.count() == 1
    assert "the name is missing" in bad_row.inner_text()
    assert bad_row.locator("td").first.inner_text() == "7"  # the header is line 1
    assert not desk.locator("form.confirm-import").count()
    assert Entry.objects.count() == 0
    shots(desk, "import-error")

    # Fix the line in the list the preview gives back, preview again, import.
    given = desk.input_value("#id_text")
    assert ",Lakeside" in given
    desk.fill("#id_text", given.replace("\n,Lakeside\n", "\n"))
    click_to_load(desk, "text=Preview again")
    assert not desk.locator("table.import-preview tr.invalid").count()
    shots(desk, "import-preview")
    desk.click("text=Import and enter 13 players")
    desk.wait_for_url("**/t/desk-cup/organise/")
    assert "13 players imported and entered (13 new)." in message(desk)
    assert Entry.objects.filter(tournament=tournament).count() == 13
    assert "Ready: seat round 1 (13 active players)." in desk.locator("#next-step").inner_text()
    shots(desk, "imported")

    # A walk-in, typed in one line.
    desk.fill("form.player-add input[name=name]", WALK_IN)
    desk.click("form.player-add button[type=submit]")
    assert f"{WALK_IN} entered." in message(desk)
    assert Entry.objects.filter(tournament=tournament).count() == 14

    # Round 1: seated from the next-step panel, played on the phone.
    desk.click("#next-step button >> text=Seat round 1")
    assert "Round 1 of 2: 0 of 4 tables complete." in desk.locator("#next-step").inner_text()
    shots(desk, "round1-seated")
    shots.narrow(desk, "round1-seated")
    play_round(desk, phone, games=1, shots=shots, name="r1")
    assert "Round 1 of 2 complete: seat round 2." in desk.locator("#next-step").inner_text()
    shots(desk, "round1-complete")

    # Results exist: plan settings stay editable. Two games a table from round 2 on.
    desk.click("text=Edit settings")
    desk.fill("#id_games_per_round", "2")
    shots(desk, "settings-with-results")
    desk.click("text=Save settings")
    assert "Settings saved." in message(desk)

    desk.click("#next-step button >> text=Seat round 2")
    assert "Round 2 of 2: 0 of 4 tables complete." in desk.locator("#next-step").inner_text()
    play_round(desk, phone, games=2, shots=shots, name="r2")
    assert "Round 2 of 2 complete: seat the semi-finals." in desk.locator("#next-step").inner_text()
    shots(desk, "round2-complete")

    # On the desk: correct game 1 of table 1 (not its last game).
    desk.click("#rounds .match-list li >> nth=0 >> text=Games and history")
    desk.click(".game-actions li >> nth=0 >> text=Correct")
    assert desk.locator("#h-correct").inner_text() == "Correct game 1"
    desk.fill("#id_fix-p2_points", "40")
    shots(desk, "correct-game")
    desk.click("#correct button[type=submit]")
    assert "Game 1 corrected." in message(desk)
    first = Game.objects.get(match__round__number=2, match__table=1, number=1)
    assert first.version == 2
    assert "-40" in desk.locator("table.grid tbody tr").first.inner_text()
    assert "Game corrected" in desk.locator("table.history").inner_text()
    shots(desk, "corrected")
    shots.narrow(desk, "corrected")

    # Delete game 1 of table 2, confirmed on its own page, then enter it again.
    desk.goto(f"{url}/t/desk-cup/organise/")
    desk.click("#rounds .match-list li >> nth=1 >> text=Games and history")
    table2 = desk.url
    desk.click(".game-actions li >> nth=0 >> text=Delete")
    assert desk.locator("h1").inner_text() == "Delete game 1?"
    shots(desk, "delete-confirm")
    desk.click("button >> text=Delete game 1")
    assert "Game 1 deleted." in message(desk)
    assert desk.url == table2
    assert not Game.objects.filter(match__round__number=2, match__table=2, number=1).exists()
    assert "Game deleted" in desk.locator("table.history").inner_text()
    assert desk.locator("#h-next").inner_text() == "Record game 1"
    shots(desk, "deleted")
    desk.goto(f"{url}/t/desk-cup/organise/")
    assert "Round 2 of 2: 3 of 4 tables complete." in desk.locator("#next-step").inner_text()
    desk.go_back()
    seats = desk.locator("form.game-form:not(#correct form) fieldset.rack").count()
    for position in range(2, seats + 1):
        desk.fill(f"#id_p{position}_points", str(10 + position))
    desk.click("section:has(#h-next) button[type=submit]")
    assert "Game 1 recorded." in message(desk)
    assert Game.objects.filter(match__round__number=2, match__table=2).count() == 2
    assert AuditEvent.objects.filter(game_number=1, table=2, round_number=2, action="game.deleted")
    shots(desk, "re-entered")

    # Semi-finals and the final, seated from the panel and played on the phone.
    desk.goto(f"{url}/t/desk-cup/organise/")
    desk.click("#next-step button >> text=Seat the semi-finals")
    assert "Semi-finals: 0 of 2 tables complete." in desk.locator("#next-step").inner_text()
    shots(desk, "semifinals-seated")
    play_round(desk, phone, games=2, shots=shots, name="semi")
    assert "Semi-finals complete: seat the final." in desk.locator("#next-step").inner_text()
    click_to_load(desk, "#next-step button >> text=Seat the final")
    assert "Final: 2 games left." in desk.locator("#next-step").inner_text()
    assert not desk.locator("#swap").count()  # one table: nobody to swap with
    shots(desk, "final-seated")
    play_round(desk, phone, games=2, shots=shots, name="final")
    assert "Final complete: finish the tournament." in desk.locator("#next-step").inner_text()
    shots(desk, "final-complete")

    # Finish, after the confirmation page.
    desk.click("#next-step >> text=Finish the tournament…")
    shots(desk, "finish-confirm")
    desk.click("main form button[type=submit] >> text=Finish tournament")
    assert "The tournament is finished" in message(desk)
    assert "Finished" in desk.locator("#next-step").inner_text()
    shots(desk, "finished")

    # The placings on the tournament page are the report's.
    desk.click("#next-step a.button >> text=Final placings")
    desk.wait_for_url(lambda address: address.endswith("/t/desk-cup/#places"))
    rows = desk.locator("#places tbody tr")
    web = [rows.nth(i).locator("td.name").inner_text() for i in range(rows.count())]
    assert sorted(web) == sorted([n for n, _c in PLAYERS] + [WALK_IN])
    shots(desk, "placings")
    phone.goto(f"{url}/t/desk-cup/")
    shots(phone, "placings-phone")
    report = desk.context.request.get(f"{url}/t/desk-cup/report.pdf")
    assert report.ok
    assert places_in_pdf(report.body(), web) == web
