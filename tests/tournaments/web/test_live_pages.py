"""Live pages cost nothing while nothing changed: each answers a strong ETag
of the tournament's version with ``Cache-Control: no-cache``, a 304 with no
body to that ETag in ``If-None-Match`` (decided in a fixed, small number of
queries, before anything is rendered), and a new ETag once a game is recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tests.factories import match_seated
from tests.tournaments.web.hall_support import client_as
from tests.tournaments.web.support import play
from tournaments.live import live_tag
from tournaments.models import Match
from tournaments.services import clock

pytestmark = pytest.mark.django_db

# What each live address is, from a seated match: its path.
LIVE: dict[str, Callable[[Match], str]] = {
    "tournament": lambda m: f"/t/{m.round.tournament.slug}/",
    "round": lambda m: f"/t/{m.round.tournament.slug}/rounds/{m.round.number}/",
    "standings": lambda m: f"/t/{m.round.tournament.slug}/standings/",
    "standings-qualifying": lambda m: f"/t/{m.round.tournament.slug}/standings/?stage=qualifying",
    "standings-csv": lambda m: f"/t/{m.round.tournament.slug}/standings/?_export=csv",
    "standings-xlsx": lambda m: f"/t/{m.round.tournament.slug}/standings/?_export=xlsx",
    "standings-ods": lambda m: f"/t/{m.round.tournament.slug}/standings/?_export=ods",
    "standings-json": lambda m: f"/t/{m.round.tournament.slug}/standings/?_export=json",
    "standings-pdf": lambda m: f"/t/{m.round.tournament.slug}/standings.pdf",
    "screen-state": lambda m: f"/t/{m.round.tournament.slug}/screen/state/",
    "match-state": lambda m: f"/m/{m.token}/state/",
}
# Queries of a 304 for a visitor: one, the tournament's head with its version
# (a match state: the match and its version in one).
NOT_MODIFIED_QUERIES = dict.fromkeys(LIVE, 1)
# Pages in the site layout: their ETag is the viewer's own.
PAGES = {"tournament", "round", "standings", "standings-qualifying"}


def _seated() -> Match:
    return match_seated(players=4, games_per_round=3)


def _queries(call: Callable[[], Any]) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as queries:
        answer = call()
    return answer, len(queries)


@pytest.mark.parametrize("name", LIVE)
def test_a_live_answer_is_not_sent_again_until_a_game_is_recorded(name: str) -> None:
    match = _seated()
    url = LIVE[name](match)
    client = Client()
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    assert "no-cache" in first["Cache-Control"]
    again, queries = _queries(lambda: client.get(url, headers={"If-None-Match": etag}))
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert "no-cache" in again["Cache-Control"]
    assert queries == NOT_MODIFIED_QUERIES[name]
    # Any of several tags, as a cache that kept two versions sends them.
    listed = client.get(url, headers={"If-None-Match": f'"old", {etag}'})
    assert listed.status_code == 304
    play(match, games=1)
    moved = client.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.content
    assert moved["ETag"] != etag


@pytest.mark.parametrize("name", sorted(set(LIVE) - {"match-state"}))
@pytest.mark.parametrize("actor", ["anon", "other"])
def test_a_private_tournaments_etag_tells_a_stranger_nothing(name: str, actor: str) -> None:
    match = match_seated(players=4, public=False)
    url = LIVE[name](match)
    tournament = match.round.tournament
    owner = client_as("owner", tournament)
    first = owner.get(url)
    assert first.status_code == 200
    assert "private" in first["Cache-Control"]
    stranger = client_as(actor, tournament).get(url, headers={"If-None-Match": first["ETag"]})
    assert stranger.status_code == 404
    assert "ETag" not in stranger


@pytest.mark.parametrize("actor", ["owner", "co", "staff"])
@pytest.mark.parametrize("name", ["tournament", "round", "standings"])
def test_a_private_tournaments_organiser_gets_a_304_in_a_fixed_number_of_queries(
    actor: str, name: str
) -> None:
    match = match_seated(players=4, public=False)
    organiser = client_as(actor, match.round.tournament)
    url = LIVE[name](match)
    first = organiser.get(url)
    assert first.status_code == 200
    answer, queries = _queries(lambda: organiser.get(url, headers={"If-None-Match": first["ETag"]}))
    assert answer.status_code == 304
    # The session, the user, the tournament's head (with its version and whether
    # the user organises it: a co-organiser's too).
    assert queries == 3


def test_a_match_links_etag_never_matches_another_link() -> None:
    match = _seated()
    other = match_seated(players=4, tournament=match.round.tournament)
    client = Client()
    first = client.get(LIVE["match-state"](match))
    second = client.get(LIVE["match-state"](other))
    # Same version (nothing recorded at either), yet each link its own tag.
    assert first.json() == second.json()
    assert first["ETag"] != second["ETag"]
    crossed = client.get(LIVE["match-state"](other), headers={"If-None-Match": first["ETag"]})
    assert crossed.status_code == 200
    assert "private" in first["Cache-Control"]


def test_a_game_at_another_table_leaves_a_match_state_alone() -> None:
    match = _seated()
    other = match_seated(players=4, tournament=match.round.tournament)
    client = Client()
    etag = client.get(LIVE["match-state"](match))["ETag"]
    play(other, games=1)
    again = client.get(LIVE["match-state"](match), headers={"If-None-Match": etag})
    assert again.status_code == 304
    play(match, games=1)
    assert (
        client.get(LIVE["match-state"](match), headers={"If-None-Match": etag}).status_code == 200
    )


def test_a_match_state_of_an_unknown_link_is_404() -> None:
    assert Client().get("/m/no-such-link-at-all-here/state/").status_code == 404


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_s_etag_is_its_viewer_s_own(name: str) -> None:
    match = _seated()
    url = LIVE[name](match)
    tournament = match.round.tournament
    tags = {actor: client_as(actor, tournament).get(url)["ETag"] for actor in ("anon", "owner")}
    other = client_as("other", tournament)
    tags["other"] = other.get(url)["ETag"]
    assert len(set(tags.values())) == 3
    for actor in ("anon", "owner"):
        assert other.get(url, headers={"If-None-Match": tags[actor]}).status_code == 200
    assert "private" in other.get(url)["Cache-Control"]


@pytest.mark.parametrize("name", ["tournament", "standings", "screen-state", "match-state"])
def test_each_language_has_its_own_etag(name: str) -> None:
    match = _seated()
    url = LIVE[name](match)
    client = Client()
    english = client.get(url)["ETag"]
    german = client.get(f"/de{url}", headers={"If-None-Match": english})
    assert german.status_code == 200
    assert german["ETag"] != english


def test_each_standings_query_has_its_own_etag() -> None:
    match = _seated()
    client = Client()
    tags = {
        client.get(LIVE[name](match))["ETag"]
        for name in LIVE
        if name.startswith("standings") and name != "standings-pdf"
    }
    assert len(tags) == 6


def test_a_redirect_to_the_canonical_standings_carries_no_etag() -> None:
    match = _seated()
    answer = Client().get(LIVE["standings"](match) + "?junk=1")
    assert answer.status_code == 302
    assert "ETag" not in answer


def test_the_round_clock_moves_the_screen_state() -> None:
    match = match_seated(players=4, round_minutes=45)
    client = Client()
    url = LIVE["screen-state"](match)
    etag = client.get(url)["ETag"]
    clock.round_clock_start(round_=match.round)
    moved = client.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.json()["clock"]["state"] == "running"


def test_waiting_messages_are_shown_never_hidden_behind_a_304() -> None:
    match = _seated()
    tournament = match.round.tournament
    owner = client_as("owner", tournament)
    # Finishing from the desk (refused: no round is played); its message waits
    # for the next page the owner sees.
    assert owner.post(f"/t/{tournament.slug}/finish/").status_code == 302
    tournament.refresh_from_db()
    with translation.override("en"):
        tag = live_tag(
            tournament=tournament, what="tournament", view=("organiser",), viewer=tournament.owner
        )
    url = LIVE["tournament"](match)
    shown = owner.get(url, headers={"If-None-Match": tag.etag})
    assert shown.status_code == 200
    assert 'class="messages"' in shown.content.decode()
    assert "ETag" not in shown
    # Shown once: the next visit is the page as its tag says.
    assert owner.get(url, headers={"If-None-Match": tag.etag}).status_code == 304


def test_a_stale_or_weak_etag_gets_the_whole_page() -> None:
    match = _seated()
    client = Client()
    url = LIVE["tournament"](match)
    etag = client.get(url)["ETag"]
    # If-None-Match compares weakly (RFC 9110): W/"…" names the same answer.
    assert client.get(url, headers={"If-None-Match": f"W/{etag}"}).status_code == 304
    assert client.get(url, headers={"If-None-Match": '"stale"'}).status_code == 200


@pytest.mark.parametrize("name", ["tournament", "standings", "screen-state"])
def test_a_compressed_answer_s_etag_gets_a_304_too(name: str) -> None:
    match = _seated()
    url = LIVE[name](match)
    client = Client()
    # A compressed answer's tag may come back weakened ("W/…"): the same answer still.
    etag = client.get(url, headers={"Accept-Encoding": "gzip"})["ETag"]
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""


@pytest.mark.parametrize("name", LIVE)
def test_a_head_request_answers_as_a_get_without_the_body(name: str) -> None:
    match = _seated()
    url = LIVE[name](match)
    client = Client()
    got = client.get(url)
    headed = client.head(url)
    assert headed.status_code == got.status_code == 200
    assert headed["ETag"] == got["ETag"]
    assert headed.content == b""
    assert client.head(url, headers={"If-None-Match": got["ETag"]}).status_code == 304
