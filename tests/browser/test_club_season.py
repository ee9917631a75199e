"""A club secretary's season, all through the pages, on a phone and on a desk:
sign up, create the club, import its members, create a season (rank points,
best 3 of 4 evenings, ranked after 2, guests left out), run four evenings
(check-in, seat round 1, record the games on the desk, finish), then read the
season table and hold it to design §5's rules computed here from the
evenings' games, and to the API's standings.

Set ``RACKSCORE_SHOTS`` to save a screenshot of every step in
``/tmp/season-shots``.
"""

from __future__ import annotations

import os
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import click_to_load, page_sized
from tournaments.models import Club, Entry, Player, Rack, Season, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/season-shots")
USERNAME = "selma"
PASSWORD = "tiles-on-tuesday-42"
CLUB = "Harbour Rummikub Club"
MEMBERS = [
    "Ada Berg",
    "Bo Carlsen",
    "Cato Dahl",
    "Dina Eng",
    "Emil Fors",
    "Frida Gran",
    "Gustav Holm",
    "Hedda Isaksen",
    "Ivar Jensen",
    "Jonas Kvist",
    "Kari Lund",
    "Liv Moe",
]
ONCE = "Kari Lund"  # plays the first evening only: not yet qualified
TWICE = "Liv Moe"  # away on evenings 2 and 3: ranked after 2 evenings
GUEST = "Nils Guest"  # a guest on evening 3
BEST_OF = 3
MIN_EVENINGS = 2


class Shots:
    """Numbered screenshots, only when asked for."""

    def __init__(self, width: int) -> None:
        self.enabled = bool(os.environ.get("RACKSCORE_SHOTS"))
        self.width = width
        self.count = 0
        if self.enabled:
            SHOTS.mkdir(parents=True, exist_ok=True)

    def __call__(self, page: Any, name: str) -> None:
        if self.enabled:
            self.count += 1
            path = SHOTS / f"{self.width}-{self.count:02d}-{name}.png"
            page.screenshot(path=str(path), full_page=True)


def message(page: Any) -> str:
    text: str = page.locator(".messages").inner_text()
    return text


def number(text: str) -> Decimal:
    return Decimal(text.strip().replace(",", ""))


# ----------------------------------------------------------------------------- design §5


def rank_points(n: int, first: int, last: int) -> Decimal:
    """Place p of n: 1000 × (n − p) / (n − 1), ties at the mean of their places,
    1000 when alone; rounded once to two places, halves up."""
    if n == 1:
        return Decimal(1000)
    exact = Fraction(1000) * (n - Fraction(first + last, 2)) / (n - 1)
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


def evening_places(evening: Tournament) -> list[tuple[str, Decimal]]:
    """Who played the evening (a game or more) and their score there, best first,
    from its recorded racks."""
    scores: dict[str, Decimal] = defaultdict(Decimal)
    for name, score in Rack.objects.filter(game__match__round__tournament=evening).values_list(
        "player__name", "score"
    ):
        scores[name] += score
    return sorted(scores.items(), key=lambda item: -item[1])


def expected_season(
    evenings: list[Tournament], members: set[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The season table by design §5, worked out from each evening's scores:
    (ranked rows, unranked rows), each row name, points, evenings, best, counted."""
    earned: dict[str, dict[int, Decimal]] = defaultdict(dict)
    order = {e.pk: i for i, e in enumerate(evenings)}
    for evening in evenings:
        places = evening_places(evening)
        scores = [score for _name, score in places]
        for name, score in places:
            first = 1 + sum(1 for s in scores if s > score)
            last = first + scores.count(score) - 1
            earned[name][evening.pk] = rank_points(len(places), first, last)
    rows: list[dict[str, Any]] = []
    for name, by_evening in earned.items():
        if name not in members:
            continue  # guests: left out, their evenings still count for the others
        best_first = sorted(by_evening, key=lambda e: (-by_evening[e], order[e]))
        counted = sorted(best_first[:BEST_OF], key=order.__getitem__)
        rows.append(
            {
                "name": name,
                "points": sum((by_evening[e] for e in counted), Decimal(0)),
                "evenings": len(by_evening),
                "best": max(by_evening.values()),
                "counted": counted,
            }
        )
    ranked = [r for r in rows if r["evenings"] >= MIN_EVENINGS]
    unranked = [r for r in rows if r["evenings"] < MIN_EVENINGS]
    ranked.sort(key=lambda r: (-r["points"], -r["evenings"], -r["best"], r["name"].casefold()))
    previous: tuple[Decimal, int, Decimal] | None = None
    for index, row in enumerate(ranked):
        key = (row["points"], row["evenings"], row["best"])
        row["rank"] = ranked[index - 1]["rank"] if key == previous else index + 1
        previous = key
    unranked.sort(key=lambda r: (-r["evenings"], -r["points"], r["name"].casefold()))
    for row in unranked:
        row["rank"] = None
    return ranked, unranked


# ----------------------------------------------------------------------------- the pages


def season_table_rows(table: Any, evening_ids: list[int]) -> list[dict[str, Any]]:
    """A season table as the page shows it; an evening's points struck through
    do not count."""
    headers = table.locator("thead th").all_inner_texts()
    assert [h.strip() for h in headers[:5]] == ["#", "Player", "Points", "Evenings", "Best"]
    assert len(headers) == 5 + len(evening_ids)
    rows: list[dict[str, Any]] = []
    lines = table.locator("tbody tr")
    for i in range(lines.count()):
        cells = lines.nth(i).locator("td")
        texts = [t.strip() for t in cells.all_inner_texts()]
        counted = []
        for column, evening_id in enumerate(evening_ids, start=5):
            if texts[column] and not cells.nth(column).locator("s").count():
                counted.append(evening_id)
        rows.append(
            {
                "rank": None if texts[0] in ("", "—") else int(texts[0]),
                "name": texts[1],
                "points": number(texts[2]),
                "evenings": int(texts[3]),
                "best": number(texts[4]),
                "counted": counted,
            }
        )
    return rows


def record_round(page: Any, *, evening: int, shots: Shots) -> int:
    """Record the one game of every table of round 1 on the desk: seat 1 goes
    out, the others keep points that give everyone a score of their own."""
    desk = page.url
    links = page.locator("#rounds .match-list li a.small")
    tables = [links.nth(i).evaluate("a => a.href") for i in range(links.count())]
    assert tables
    for table, address in enumerate(tables, start=1):
        page.goto(address)
        seats = page.locator("section:has(#h-next) form.game-form fieldset.rack").count()
        assert seats >= 2
        for position in range(2, seats + 1):
            page.fill(f"#id_p{position}_points", str(5 + 10 * table + 2 * position + evening))
        if table == 1:
            shots(page, f"evening{evening}-game")
        page.click("section:has(#h-next) button[type=submit]")
        assert "Game 1 recorded." in message(page)
    page.goto(desk)
    return len(tables)


def run_evening(
    page: Any,
    *,
    season_url: str,
    number: int,
    away: list[str],
    back: list[str],
    guest: str | None,
    shots: Shots,
) -> Tournament:
    """New evening on the season page; tick who is here, save and seat round 1 (the
    check-in's own button); play and finish round 1."""
    page.goto(season_url)
    page.click(".season-actions button >> text=New evening")
    page.wait_for_url("**/checkin/")
    assert "tick who is here, then seat round 1" in message(page)
    evening = Tournament.objects.order_by("-pk").first()
    assert evening is not None and evening.season_id is not None
    if guest:
        page.fill(".guest-form input[name=name]", guest)
        page.click(".guest-form button[type=submit]")
        assert f"{guest} is here as a guest." in message(page)
    for name in away:
        page.locator(f"li[data-name='{name}'] input[name=here]").uncheck()
    for name in back:
        page.locator(f"li[data-name='{name}'] input[name=here]").check()
    shots(page, f"evening{number}-checkin")
    page.click("#checkin-form button[name=seat]")
    page.wait_for_url(f"**/t/{evening.slug}/organise/")
    here = set(
        Entry.objects.filter(tournament=evening, status=Entry.Status.ACTIVE).values_list(
            "player__name", flat=True
        )
    )
    assert f"{len(here)} players are here." in message(page)
    assert "Round 1 seated." in message(page)
    assert "Round 1 of 1: 0 of" in page.locator("#next-step").inner_text()
    shots(page, f"evening{number}-seated")
    tables = record_round(page, evening=number, shots=shots)
    step = page.locator("#next-step").inner_text()
    assert "Round 1 of 1 complete" in step, step
    page.click("#next-step >> text=Finish the tournament…")
    page.click("main form button[type=submit] >> text=Finish tournament")
    assert "The tournament is finished" in message(page)
    evening.refresh_from_db()
    assert evening.status == Tournament.Status.FINISHED
    assert {n for n, _s in evening_places(evening)} == here
    assert 1 < tables <= len(here) // 2
    return evening


@pytest.mark.parametrize("width", [390, 1280])
def test_a_club_secretary_runs_a_season(browser: Any, live_server: Any, width: int) -> None:
    shots = Shots(width)
    url = live_server.url
    with page_sized(browser, width=width, height=900) as page:
        # 1. Sign up: logged in at once, on the home page.
        page.goto(f"{url}/accounts/signup/")
        page.fill("#id_username", USERNAME)
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        shots(page, "signup")
        page.click("main form.account-form button[type=submit]")
        page.wait_for_url(f"{url}/")
        assert f"Welcome, {USERNAME}: your account is ready." in message(page)
        assert page.locator(f"text=Log out ({USERNAME})").count() == 1
        user = get_user_model().objects.get(username=USERNAME)
        assert not user.is_staff

        # 2. The club.
        page.goto(f"{url}/c/new/")
        page.fill("#id_name", CLUB)
        page.fill("#id_city", "Bergen")
        page.click("form.club-form button[type=submit] >> text=Create club")
        page.wait_for_url(f"{url}/c/harbour-rummikub-club/")
        assert f"Club “{CLUB}” created." in message(page)
        club = Club.objects.get(slug="harbour-rummikub-club")
        assert club.created_by == user and club.public
        shots(page, "club")

        # 3. Twelve members from a pasted list: preview, then import.
        page.click(".club-actions >> text=Members")
        page.click("text=Import a list")
        page.fill("#id_text", "name\n" + "\n".join(MEMBERS) + "\n")
        click_to_load(page, "form.import-form button[type=submit] >> text=Preview")
        preview = page.locator("table.import-preview tbody tr")
        assert preview.count() == len(MEMBERS)
        assert not page.locator("table.import-preview tr.invalid").count()
        assert Player.objects.count() == 0  # nothing stored before the confirmation
        shots(page, "import-preview")
        page.click("form.confirm-import button[type=submit] >> text=Import 12 members")
        page.wait_for_url("**/c/harbour-rummikub-club/members/")
        assert "12 members imported (12 new)." in message(page)
        assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == MEMBERS

        # 4. The season: rank points, best 3 of 4, ranked after 2 evenings, no guests.
        page.goto(f"{url}/c/harbour-rummikub-club/")
        page.click("#seasons >> text=New season")
        page.fill("#id_name", "Autumn")
        page.select_option("#id_evening_points", "rank_points")
        page.fill("#id_best_of", str(BEST_OF))
        page.fill("#id_min_evenings", str(MIN_EVENINGS))
        page.select_option("#id_guests", "exclude")
        page.fill("#id_evening_rounds", "1")
        page.fill("#id_evening_games", "1")
        shots(page, "season-form")
        page.click("form.season-form button[type=submit] >> text=Create season")
        assert "Season “Autumn” created." in message(page)
        season = Season.objects.get(club=club)
        assert (season.evening_points, season.best_of, season.min_evenings, season.guests) == (
            "rank_points",
            BEST_OF,
            MIN_EVENINGS,
            "exclude",
        )
        season_url = page.url
        assert season_url.endswith(f"/c/harbour-rummikub-club/seasons/{season.pk}/")

        # 5. Four evenings. The first: everyone ticked by hand.
        runs: list[dict[str, Any]] = [
            {"away": [], "back": MEMBERS, "guest": None},
            {"away": [ONCE, TWICE], "back": [], "guest": None},  # two absentees
            {"away": [], "back": [], "guest": GUEST},  # a guest on the spot
            {"away": [GUEST], "back": [TWICE], "guest": None},
        ]
        evenings = [
            run_evening(page, season_url=season_url, number=n, shots=shots, **run)
            for n, run in enumerate(runs, start=1)
        ]
        assert [len(evening_places(e)) for e in evenings] == [12, 10, 11, 11]

        # Every evening's standings page ranks its players as their scores do
        # (and no two share a score: the places below are unambiguous).
        for evening in evenings:
            places = evening_places(evening)
            assert len({score for _n, score in places}) == len(places)
            page.goto(f"{url}/t/{evening.slug}/standings/")
            shown = page.locator("table.standings tbody tr td:nth-child(2)").all_inner_texts()
            played = {name for name, _s in places}
            assert [n.strip() for n in shown if n.strip() in played] == [n for n, _s in places]

        # 6. The season table against §5's rules worked out here.
        ranked, unranked = expected_season(evenings, set(MEMBERS))
        assert [r["name"] for r in unranked] == [ONCE]
        assert len(ranked) == len(MEMBERS) - 1
        assert any(len(r["counted"]) == BEST_OF < r["evenings"] for r in ranked)
        page.goto(season_url)
        shots(page, "season")
        ids = [e.pk for e in evenings]
        tables = page.locator("table.season-table")
        assert tables.count() == 2
        assert season_table_rows(tables.nth(0), ids) == ranked
        assert page.locator("#h-unranked").inner_text() == "Not yet qualified"
        assert season_table_rows(page.locator("section:has(#h-unranked) table"), ids) == (unranked)
        assert GUEST not in " ".join(tables.all_inner_texts())
        struck = page.locator("table.season-table td s")
        assert struck.count() == sum(r["evenings"] - len(r["counted"]) for r in ranked)

        # The same season through the API.
        answer = page.request.get(f"{url}/api/v1/seasons/{season.pk}/standings/")
        assert answer.ok
        body = answer.json()
        members = dict(Player.objects.filter(club=club).values_list("name", "pk"))
        for rows, key in ((ranked, "results"), (unranked, "unranked")):
            assert body[key] == [
                {
                    "rank": r["rank"],
                    "player": members[r["name"]],
                    "name": r["name"],
                    "points": float(r["points"]) if r["points"] % 1 else int(r["points"]),
                    "evenings": r["evenings"],
                    "counted": r["counted"],
                    "best": float(r["best"]) if r["best"] % 1 else int(r["best"]),
                }
                for r in rows
            ]
