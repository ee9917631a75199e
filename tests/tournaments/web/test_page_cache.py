"""The public pages' cached bodies: a write through a service or the API shows
at once, an organiser's body never reaches a visitor, each language and query
string has its own, and a cached page costs a handful of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.web.support import play, tournament_played
from tournaments.models import Match, Player
from tournaments.services.players import player_update

pytestmark = pytest.mark.django_db


def _pages(match: Match) -> list[str]:
    slug = match.round.tournament.slug
    return [f"/t/{slug}/", f"/t/{slug}/rounds/{match.round.number}/"]


def _api_game(match: Match, number: int) -> dict[str, Any]:
    first, *others = seated_ids(match)
    return {
        "number": number,
        "ending": "rummikub",
        "racks": [{"player": first, "tiles": ""}]
        + [{"player": p, "points": 9, "jokers": 0} for p in others],
    }


def _body(page: str) -> str:
    """What the page shows inside its main element (the layout around it holds a CSRF token)."""
    return page.split('<main id="content"', 1)[1].split("</main>", 1)[0]


def test_a_game_recorded_through_the_service_shows_on_every_cached_page(client: Client) -> None:
    match = match_seated(players=4, games_per_round=3)
    for url in _pages(match):
        assert "0 of 3 games" in client.get(url).content.decode()
    play(match, games=1)
    for url in _pages(match):
        assert "1 of 3 games" in client.get(url).content.decode()


def test_a_game_recorded_through_the_api_shows_on_the_cached_pages(client: Client) -> None:
    match = match_seated(players=4, games_per_round=3)
    for url in _pages(match):
        client.get(url)
    api = APIClient()
    api.credentials(HTTP_X_MATCH_TOKEN=match.token)
    answer = api.post(f"/api/v1/matches/{match.pk}/games/", _api_game(match, 1), format="json")
    assert answer.status_code == 201
    for url in _pages(match):
        text = client.get(url).content.decode()
        assert "1 of 3 games" in text and "+27" in text


def test_a_renamed_player_shows_on_the_cached_pages(client: Client) -> None:
    match = match_seated(players=4)
    for url in _pages(match):
        client.get(url)
    player = Player.objects.get(pk=seated_ids(match)[0])
    player_update(player=player, name="Renamed Rita")
    for url in _pages(match):
        assert "Renamed Rita" in client.get(url).content.decode()


@pytest.mark.parametrize("organiser_first", [True, False])
def test_an_organisers_body_is_never_served_to_a_visitor(organiser_first: bool) -> None:
    match = match_seated(players=4)
    organiser, visitor, other = Client(), Client(), Client()
    organiser.force_login(match.round.tournament.owner)
    other.force_login(UserFactory())
    order = [organiser, visitor, other] if organiser_first else [visitor, other, organiser]
    for url in _pages(match):
        seen = {id(c): c.get(url).content.decode() for c in order}
        assert match.token in seen[id(organiser)]
        assert "Enter results" in seen[id(organiser)]
        for viewer in (visitor, other):
            assert match.token not in seen[id(viewer)]
            assert "Enter results" not in seen[id(viewer)]


def test_each_viewer_keeps_their_own_csrf_token_and_menu(client: Client) -> None:
    match = match_seated(players=4)
    user = UserFactory(username="carla")
    logged_in = Client()
    logged_in.force_login(user)
    url = _pages(match)[0]
    client.get(url)
    text = logged_in.get(url).content.decode()
    assert "carla" in text
    assert "carla" not in client.get(url).content.decode()


def test_each_language_has_its_own_body(client: Client) -> None:
    match = match_seated(players=4, games_per_round=3)
    url = _pages(match)[1]
    assert "Round 1" in client.get(url).content.decode()
    danish = client.get(f"/da{url}").content.decode()
    assert "Runde 1" in _body(danish) and "Round 1" not in _body(danish)


def test_the_standings_body_follows_the_query_string_and_new_games(client: Client) -> None:
    tournament = tournament_played(tables=2, games=1)
    url = f"/t/{tournament.slug}/standings/"
    by_score = _body(client.get(url, {"sort": "-score"}).content.decode())
    by_name = _body(client.get(url, {"sort": "name"}).content.decode())
    assert by_score != by_name
    assert _body(client.get(url, {"sort": "name"}).content.decode()) == by_name
    before = client.get(url, {"_export": "csv"}).content.decode()
    play(tournament.round_set.get().matches.first(), games=2, seed=7)
    assert client.get(url, {"_export": "csv"}).content.decode() != before
    assert _body(client.get(url, {"sort": "name"}).content.decode()) != by_name


def test_an_export_served_from_the_cache_keeps_its_type_and_file_name(client: Client) -> None:
    tournament = tournament_played(tables=1, games=1)
    url = f"/t/{tournament.slug}/standings/"
    first = client.get(url, {"_export": "xlsx"})
    again = client.get(url, {"_export": "xlsx"})
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"]
    assert again["Content-Disposition"] == first["Content-Disposition"]
    assert f"{tournament.slug}-standings.xlsx" in again["Content-Disposition"]


def test_a_round_seated_after_its_404_shows(client: Client) -> None:
    match = match_seated(players=4)
    slug = match.round.tournament.slug
    assert client.get(f"/t/{slug}/rounds/2/").status_code == 404
    match_seated(players=4, tournament=match.round.tournament)
    play(match, games=1)  # a write through the services: a new version
    assert client.get(f"/t/{slug}/rounds/2/").status_code == 200


def test_a_cached_page_costs_a_few_queries(client: Client, django_assert_max_num_queries) -> None:
    tournament = tournament_played(tables=12, rounds=4, games=2)
    for url in (
        f"/t/{tournament.slug}/",
        f"/t/{tournament.slug}/rounds/3/",
        f"/t/{tournament.slug}/standings/",
        f"/t/{tournament.slug}/standings/?_export=csv",
    ):
        client.get(url)
        # The tournament and its version; nothing of its rounds, games or standings.
        with django_assert_max_num_queries(3):
            assert client.get(url).status_code == 200


def test_the_api_standings_follow_a_game_recorded_through_the_api() -> None:
    match = match_seated(players=4, games_per_round=3)
    url = f"/api/v1/tournaments/{match.round.tournament.pk}/standings/"
    api = APIClient()
    assert {row["games"] for row in api.get(url).json()["results"]} == {0}
    phone = APIClient()
    phone.credentials(HTTP_X_MATCH_TOKEN=match.token)
    answer = phone.post(f"/api/v1/matches/{match.pk}/games/", _api_game(match, 1), format="json")
    assert answer.status_code == 201
    assert {row["games"] for row in api.get(url).json()["results"]} == {1}
    qualifying = api.get(url, {"stage": "qualifying"}).json()["results"]
    assert {row["games"] for row in qualifying} == {1}
    # No final seated: none to ask for (``standings.current.stage_there_check``).
    assert api.get(url, {"stage": "final"}).status_code == 400
