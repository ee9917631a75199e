"""Live polls in a browser: the projector and a match page ask for their state
with the ETag they last had, get 304s while nothing changes, and follow a game
recorded elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import RackIn
from tests.browser.conftest import page_sized
from tests.factories import match_seated, seated_ids
from tournaments.models import Match
from tournaments.services import games
from tournaments.web import hall_pages as hall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _record(match: Match) -> None:
    ids = seated_ids(match)
    games.game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=ids[0], tiles="")] + [RackIn(player=p, points=9) for p in ids[1:]],
    )


def _statuses(page: Any, path: str) -> list[int]:
    """The statuses of the page's requests to ``path``, as they arrive."""
    seen: list[int] = []
    page.on("response", lambda r: seen.append(r.status) if r.url.endswith(path) else None)
    return seen


def test_the_projector_polls_with_its_etag_and_follows_a_game(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hall, "POLL_SECONDS", 1)
    match = match_seated(players=4, games_per_round=3)
    slug = match.round.tournament.slug
    with page_sized(browser, width=1280, height=720) as page:
        seen = _statuses(page, f"/t/{slug}/screen/state/")
        page.goto(f"{live_server.url}/t/{slug}/screen/")
        page.wait_for_timeout(3500)
        # The first poll is answered in full, every later one with a 304.
        assert seen[0] == 200
        assert seen[1:] and set(seen[1:]) == {304}
        _record(match)
        page.wait_for_function(
            "document.querySelector('#slides').textContent.includes('1 of 3 games')",
            timeout=8000,
        )
        assert seen.count(200) == 2


def test_a_match_page_polls_with_its_etag_and_follows_a_game(
    browser: Any, live_server: Any
) -> None:
    match = match_seated(players=4, games_per_round=3)
    with page_sized(browser, width=390, height=844) as page:
        page.add_init_script("window.rackscoreLiveMs = 500;")
        seen = _statuses(page, f"/m/{match.token}/state/")
        page.goto(f"{live_server.url}/m/{match.token}/")
        page.wait_for_timeout(2000)
        assert seen[0] == 200
        assert seen[1:] and set(seen[1:]) == {304}
        _record(match)
        page.wait_for_function(
            "document.querySelector('section[aria-labelledby=h-games]').textContent"
            ".includes('+27')",
            timeout=8000,
        )
