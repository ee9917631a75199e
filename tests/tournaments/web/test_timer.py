"""The turn timer pages: the free one (``/timer/``) and a match's (``/m/<token>/timer/``)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.factories import match_seated
from tests.tournaments.web.support import play
from tournaments.web.timer import TimerSeat, seats_in_turn_order

pytestmark = pytest.mark.django_db


def _seats_shown(html: str) -> list[str]:
    return re.findall(r'data-timer-seat="\d+"[^>]*>([^<]*)</button>', html)


def _seconds(html: str) -> int:
    found = re.search(r'data-seconds="(\d+)"', html)
    assert found
    return int(found.group(1))


@pytest.mark.parametrize(
    ("count", "game", "first"),
    [(4, 1, 1), (4, 2, 2), (4, 4, 4), (4, 5, 1), (3, 3, 3), (3, 4, 1), (2, 2, 2), (2, 3, 1)],
)
def test_turn_order_starts_at_the_starting_seat_and_goes_round(
    count: int, game: int, first: int
) -> None:
    seats = [TimerSeat(n, f"S{n}") for n in range(1, count + 1)]
    ordered = seats_in_turn_order(seats, game_number=game)
    assert [s.position for s in ordered] == [(first - 1 + i) % count + 1 for i in range(count)]


@pytest.mark.parametrize(
    ("query", "seconds", "seats"),
    [
        ("", 60, 4),
        ("?seconds=40&seats=2", 40, 2),
        ("?seconds=90&seats=3", 90, 3),
        ("?seconds=120&seats=4", 120, 4),
        # Not a choice: the defaults, never an error page.
        ("?seconds=45&seats=3", 60, 4),
        ("?seconds=60&seats=5", 60, 4),
        ("?seconds=60&seats=1", 60, 4),
        ("?seconds=abc&seats=x", 60, 4),
    ],
)
def test_free_timer_takes_its_choices_from_the_query(
    client: Client, query: str, seconds: int, seats: int
) -> None:
    response = client.get("/timer/" + query)
    assert response.status_code == 200
    html = response.content.decode()
    assert _seconds(html) == seconds
    assert _seats_shown(html) == [f"Seat {n}" for n in range(1, seats + 1)]


def test_free_timer_is_kept_by_the_browser_and_explains_itself_without_javascript(
    client: Client,
) -> None:
    response = client.get("/timer/")
    assert "max-age" in response["Cache-Control"]
    html = response.content.decode()
    assert "The turn timer needs JavaScript" in html
    assert "draws three tiles from the pool" in html
    texts = json.loads(re.search(r'id="timer-texts"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert set(texts) >= {"start", "next", "pause", "resume", "up"}
    # Its own stylesheet and scripts as files (the Content-Security-Policy allows no
    # inline ones), kept by the service worker once fetched; not the site's layout.
    assert re.findall(r'<link rel="stylesheet" href="([^"]+)"', html) == ["/static/css/timer.css"]
    assert "<style" not in html and "site.css" not in html


def test_free_timer_in_another_language(client: Client) -> None:
    response = client.get("/de/timer/")
    assert response.status_code == 200
    assert '<html lang="de"' in response.content.decode()


def test_free_timer_answers_get_only(client: Client) -> None:
    assert client.post("/timer/").status_code == 405


@pytest.mark.parametrize(("played", "first"), [(0, 1), (1, 2), (3, 4)])
def test_match_timer_names_the_seats_from_the_next_games_starter(
    client: Client, played: int, first: int
) -> None:
    match = match_seated(players=4, turn_seconds=90)
    play(match, games=played)
    seats = list(match.seats.order_by("position").select_related("player"))
    response = client.get(f"/m/{match.token}/timer/")
    assert response.status_code == 200
    html = response.content.decode()
    assert _seconds(html) == 90
    names = [s.player.name for s in seats]
    assert _seats_shown(html) == names[first - 1 :] + names[: first - 1]
    assert f"game {played + 1}" in html
    # No choices on a match's timer: the tournament sets them.
    assert 'name="seconds"' not in html


def test_match_timer_of_a_private_tournament_answers_to_its_link(client: Client) -> None:
    match = match_seated(players=3, public=False, turn_seconds=40)
    response = client.get(f"/m/{match.token}/timer/")
    assert response.status_code == 200
    assert _seconds(response.content.decode()) == 40
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize("token", ["nope", "x" * 200, "0" * 22])
def test_match_timer_of_an_unknown_link_is_404(client: Client, token: str) -> None:
    assert client.get(f"/m/{token}/timer/").status_code == 404


def test_match_page_links_to_its_timer(client: Client) -> None:
    match = match_seated(players=2)
    assert f"/m/{match.token}/timer/" in client.get(f"/m/{match.token}/").content.decode()


@pytest.mark.parametrize(("planned", "played"), [(3, 2), (3, 3), (1, 1)])
def test_match_timer_counts_games_up_to_the_planned_number(
    client: Client, planned: int, played: int
) -> None:
    """A table that has recorded every game is told so: no "game 4 of 3"."""
    match = match_seated(players=3, games_per_round=planned)
    play(match, games=played)
    html = client.get(f"/m/{match.token}/timer/").content.decode()
    if played < planned:
        assert f"game {played + 1} of {planned}" in html
    else:
        assert "every game recorded" in html
        assert f"game {played + 1}" not in html
