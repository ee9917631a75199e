"""A costly value's flight: while one request builds a new version's ranking,
the live answers built from it keep showing the latest one built, tagged with
that one's version, and no second build starts."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.test import Client

from tests.factories import match_seated
from tests.tournaments.web.support import play
from tournaments import caching
from tournaments.caching import (
    FLIGHT_SECONDS,
    cached_flight,
    tournament_key,
    tournament_version,
)
from tournaments.models import Tournament
from tournaments.selectors.standings import ranking_current, ranking_version_served
from tournaments.standings.current import RankingCurrent
from tournaments.web.public_cache import body_flown, query_mark

pytestmark = pytest.mark.django_db


def _without_csrf(content: bytes) -> bytes:
    """An answer as shown, but for the page's own CSRF token (new on every request)."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", content)


def test_no_flight_serves_the_tournaments_own_version() -> None:
    tournament = match_seated(players=4).round.tournament
    version = tournament_version(tournament=tournament)
    assert ranking_version_served(tournament=tournament) == version


def test_a_flight_under_way_serves_the_latest_built_until_it_lands() -> None:
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    old = tournament_version(tournament=tournament)
    built = ranking_current(tournament=tournament, version=old)
    play(match, games=1)
    new = tournament_version(tournament=tournament)
    assert new > old
    # Nobody is building the new one: it is served (and built by whoever asks).
    assert ranking_version_served(tournament=tournament, version=new) == new
    served_meanwhile: list[int] = []

    def build() -> RankingCurrent:
        # What a concurrent poll is told while this build runs.
        served_meanwhile.append(ranking_version_served(tournament=tournament, version=new))
        return built

    cached_flight(tournament=tournament, what="ranking", parts=("",), version=new, build=build)
    assert served_meanwhile == [old]
    # Landed: the new version is served, and the flight is over.
    assert ranking_version_served(tournament=tournament, version=new) == new


def test_a_failed_build_ends_its_flight() -> None:
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    ranking_current(tournament=tournament)
    play(match, games=1)
    new = tournament_version(tournament=tournament)

    def build() -> None:
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        cached_flight(tournament=tournament, what="ranking", parts=("",), version=new, build=build)
    assert ranking_version_served(tournament=tournament, version=new) == new


def test_an_evicted_older_value_is_not_served() -> None:
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    old = tournament_version(tournament=tournament)
    ranking = ranking_current(tournament=tournament, version=old)
    play(match, games=1)
    new = tournament_version(tournament=tournament)
    kept = tournament_key(tournament=tournament, what="ranking", parts=("",), version=old)
    caches["default"].delete(kept)
    served: list[int] = []

    def build() -> RankingCurrent:
        served.append(ranking_version_served(tournament=tournament, version=new))
        return ranking

    cached_flight(tournament=tournament, what="ranking", parts=("",), version=new, build=build)
    assert served == [new]


def test_a_dead_builders_flight_ends_by_itself() -> None:
    assert 30 <= FLIGHT_SECONDS <= 300


@pytest.mark.parametrize(
    "path",
    ["/t/{slug}/standings/", "/t/{slug}/screen/state/", "/api/v1/tournaments/{id}/standings/"],
)
def test_a_poll_during_a_flight_is_answered_by_the_latest_built_with_its_own_tag(
    path: str, monkeypatch
) -> None:
    # A clock that stands: no build here is long enough to rest after.
    monkeypatch.setattr(caching, "time", _Clock())
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    url = path.format(slug=tournament.slug, id=tournament.pk)
    client = Client()
    first = client.get(url)
    assert first.status_code == 200
    play(match, games=1)
    new = tournament_version(tournament=tournament)
    answers = []

    def build() -> RankingCurrent:
        # Polls while the new ranking is built: the old tag still holds (304),
        # and a poll without a tag gets the old answer under the old tag.
        answers.append(client.get(url, headers={"If-None-Match": first["ETag"]}))
        answers.append(client.get(url))
        return ranking_current(tournament=tournament, version=new)

    # The build itself reads the ranking through a fresh key: kept apart.
    cached_flight(tournament=tournament, what="ranking", parts=("",), version=new, build=build)
    during_304, during_full = answers
    assert during_304.status_code == 304
    assert during_full.status_code == 200
    assert during_full["ETag"] == first["ETag"]
    assert _without_csrf(during_full.content) == _without_csrf(first.content)
    after = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]


def test_a_standings_poll_while_a_new_body_is_rendered_shows_the_latest_rendered(
    monkeypatch,
) -> None:
    monkeypatch.setattr(caching, "time", _Clock())
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    url = f"/t/{tournament.slug}/standings/"
    client = Client()
    first = client.get(url)
    play(match, games=1)
    new = tournament_version(tournament=tournament)
    # The new ranking is built already: only the page's body is missing.
    ranking_current(tournament=tournament, version=new)
    answers = []

    def render() -> str:
        # Polls while the new body is rendered: the old page and its tag.
        answers.append(client.get(url, headers={"If-None-Match": first["ETag"]}))
        answers.append(client.get(url))
        return "<p>the new body</p>"

    body_flown(
        tournament=tournament,
        page="standings",
        view=("current", query_mark(())),
        version=new,
        build=render,
    )
    during_304, during_full = answers
    assert during_304.status_code == 304
    assert during_full["ETag"] == first["ETag"]
    assert _without_csrf(during_full.content) == _without_csrf(first.content)
    after = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    assert b"<p>the new body</p>" in after.content


def test_one_request_claims_a_new_versions_build_and_the_others_show_the_latest_built() -> None:
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    old = tournament_version(tournament=tournament)
    ranking_current(tournament=tournament, version=old)
    play(match, games=1)
    new = tournament_version(tournament=tournament)
    # The first poll of the new version builds it; polls meanwhile show the old one.
    assert ranking_version_served(tournament=tournament, version=new) == new
    assert ranking_version_served(tournament=tournament, version=new) == old
    ranking_current(tournament=tournament, version=new)
    assert ranking_version_served(tournament=tournament, version=new) == new


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def time(self) -> float:
        return self.now


def test_after_a_long_build_the_next_waits_its_rest(monkeypatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(caching, "time", clock)
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    first = tournament_version(tournament=tournament)
    ranking = ranking_current(tournament=tournament, version=first)
    play(match, games=1)
    second = tournament_version(tournament=tournament)

    def slow_build() -> RankingCurrent:
        clock.now += 0.7  # a 1,000-player ranking
        return ranking

    assert ranking_version_served(tournament=tournament, version=second) == second
    cached_flight(
        tournament=tournament, what="ranking", parts=("",), version=second, build=slow_build
    )
    play(match, games=1)
    third = tournament_version(tournament=tournament)
    clock.now += caching.BUILD_REST * 0.7 - 0.1  # resting: the second is shown
    assert ranking_version_served(tournament=tournament, version=third) == second
    clock.now += 0.2  # rested: the third is built by the poll that asks
    assert ranking_version_served(tournament=tournament, version=third) == third


def test_a_quick_build_needs_no_rest(monkeypatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(caching, "time", clock)
    match = match_seated(players=4, games_per_round=3)
    tournament = match.round.tournament
    ranking_current(tournament=tournament)
    play(match, games=1)
    assert ranking_version_served(tournament=tournament) == tournament_version(
        tournament=tournament
    )


def _first_build_claimed_elsewhere() -> tuple[Tournament, int, str]:
    """A tournament whose ranking nobody built yet, its version, and the key of
    the claim another request holds on that version's first build."""
    tournament = match_seated(players=4, games_per_round=3).round.tournament
    version = tournament_version(tournament=tournament)
    building_key, _landed_key = caching.flight_keys(
        tournament=tournament, what="ranking", parts=("",)
    )
    assert caches["default"].add(building_key, version, FLIGHT_SECONDS)
    return tournament, version, building_key


def test_with_nothing_built_before_a_request_waits_for_the_build_under_way(monkeypatch) -> None:
    tournament, version, _building_key = _first_build_claimed_elsewhere()
    store = caches["default"]
    key = tournament_key(tournament=tournament, what="ranking", parts=("",), version=version)
    polls: list[float] = []

    def other_lands(seconds: float) -> None:
        polls.append(seconds)
        if len(polls) == 3:
            store.set(key, "built by the other")

    monkeypatch.setattr(caching, "sleep", other_lands)

    def build() -> str:
        raise AssertionError("a second build beside the first")

    built = cached_flight(
        tournament=tournament, what="ranking", parts=("",), version=version, build=build
    )
    assert built == "built by the other"
    assert polls == [caching.FIRST_BUILD_POLL] * 3


def test_a_first_build_abandoned_is_built_by_the_one_waiting(monkeypatch) -> None:
    tournament, version, building_key = _first_build_claimed_elsewhere()
    store = caches["default"]
    # The other builder fails: its claim goes, no value comes.
    monkeypatch.setattr(caching, "sleep", lambda _seconds: store.delete(building_key))
    built = cached_flight(
        tournament=tournament, what="ranking", parts=("",), version=version, build=lambda: "mine"
    )
    assert built == "mine"
