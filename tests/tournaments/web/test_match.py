"""The match page (``/m/<token>/``): recording games, refusals next to their
inputs, corrections by the organiser, the page in German, its query count."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import match_seated, seated_ids
from tests.tournaments.web.support import entry_post, play
from tournaments.models import Game

pytestmark = pytest.mark.django_db


def test_unknown_token_is_404(client: Client) -> None:
    assert client.get("/m/not-a-token/").status_code == 404
    assert client.post("/m/not-a-token/", {"ending": "rummikub"}).status_code == 404


def test_match_page_query_count(client: Client, django_assert_max_num_queries) -> None:
    match = match_seated(players=4)
    play(match, games=3)
    with django_assert_max_num_queries(6):
        assert client.get(f"/m/{match.token}/").status_code == 200


def test_entry_page_shows_table_round_and_players_in_seat_order(client: Client) -> None:
    match = match_seated(players=3)
    text = client.get(f"/m/{match.token}/").content.decode()
    names = [s.player.name for s in match.seats.select_related("player").order_by("position")]
    positions = [text.index(n) for n in names]
    assert positions == sorted(positions)
    assert "Table 1" in text and "Round 1" in text
    assert "Record game 1" in text


def test_entry_form_records_a_game_and_shows_the_scores(client: Client) -> None:
    match = match_seated(players=4)
    a, b, c, d = seated_ids(match)
    data = entry_post(
        match,
        {a: {"tiles": ""}, b: {"tiles": "r5 j"}, c: {"points": "16"}, d: {"points": "3"}},
    )
    response = client.post(f"/m/{match.token}/", data)
    assert response.status_code == 302
    assert response["Location"] == f"/m/{match.token}/"
    page = client.get(response["Location"])
    text = page.content.decode()
    assert "Game 1 recorded." in text
    assert "+54" in text and "-35" in text and "R5 J" in text
    assert "Record game 2" in text
    game = Game.objects.get(match=match)
    assert sorted(game.racks.values_list("score", flat=True)) == [-35, -16, -3, 54]


def test_entry_form_refuses_a_bad_game_with_the_message_and_stores_nothing(client: Client):
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    data = entry_post(match, {a: {"tiles": ""}, b: {"tiles": "R14"}, c: {"points": "4"}})
    response = client.post(f"/m/{match.token}/", data)
    assert response.status_code == 400
    assert not Game.objects.exists()
    form = response.context["form"]
    position = match.seats.get(player_id=b).position
    errors = form.errors[f"p{position}_tiles"]
    assert errors == [
        f"Rack 2 ({match.seats.get(player_id=b).player.name}): unknown tile “R14”: "
        "numbers run from 1 to 13."
    ]
    assert "R14" in response.content.decode()  # what was typed is kept


@pytest.mark.parametrize(
    ("racks", "ending", "field", "fragment"),
    [
        ({0: {}, 1: {}, 2: {"points": "3"}}, "rummikub", "__all__", "exactly one empty rack"),
        ({0: {}, 1: {"points": "2"}, 2: {"points": "3"}}, "pool_exhausted", "p1_tiles", "empty"),
        ({0: {}, 1: {"points": "-2"}, 2: {"points": "3"}}, "rummikub", "p2_tiles", "negative"),
        ({0: {}, 1: {"jokers": "2"}, 2: {"jokers": "1"}}, "rummikub", "__all__", "3 jokers"),
        ({0: {}, 1: {"points": "x"}, 2: {"points": "3"}}, "rummikub", "p2_points", "whole"),
        ({0: {}, 1: {"points": "2"}, 2: {"points": "3"}}, "draw", "ending", "valid choice"),
    ],
)
def test_entry_form_refusals(client: Client, racks, ending, field, fragment) -> None:
    match = match_seated(players=3)
    ids = seated_ids(match)
    data = entry_post(match, {ids[i]: v for i, v in racks.items()}, ending=ending)
    response = client.post(f"/m/{match.token}/", data)
    assert response.status_code == 400
    assert fragment in " ".join(response.context["form"].errors[field])
    assert not Game.objects.exists()


def test_entry_form_is_gone_when_every_game_is_recorded(client: Client) -> None:
    match = match_seated(players=2, games_per_round=1)
    play(match, games=1)
    response = client.get(f"/m/{match.token}/")
    assert response.context["form"] is None
    assert "The game of this table is recorded. Thank you!" in response.content.decode()
    a, b = seated_ids(match)
    refused = client.post(f"/m/{match.token}/", entry_post(match, {a: {}, b: {"points": "3"}}))
    assert refused.status_code == 400
    assert "plays games 1 to 1 in this round; there is no game 2." in refused.content.decode()
    assert Game.objects.count() == 1


def test_correcting_the_last_game(client: Client) -> None:
    match = match_seated(players=2)
    play(match, games=1)
    game = Game.objects.get()
    a, b = seated_ids(match)
    data = {
        f"fix-{k}": v for k, v in entry_post(match, {a: {"points": "7"}, b: {"tiles": ""}}).items()
    }
    data.update({"fix-game": "1", "fix-version": str(game.version)})
    # The token alone records games; corrections are the organiser's, as in the API.
    assert client.post(f"/m/{match.token}/correct/", data).status_code == 403
    assert "Correct game 1" not in client.get(f"/m/{match.token}/").content.decode()
    client.force_login(match.round.tournament.owner)
    assert "Correct game 1" in client.get(f"/m/{match.token}/").content.decode()
    response = client.post(f"/m/{match.token}/correct/", data)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 2
    assert {r.player_id: r.score for r in game.racks.all()} == {a: -7, b: 7}

    stale = client.post(f"/m/{match.token}/correct/", data)  # still says version 1
    assert stale.status_code == 400
    assert "changed by someone else" in stale.content.decode()
    game.refresh_from_db()
    assert game.version == 2


def test_entry_page_in_german_refuses_with_a_german_message(client: Client) -> None:
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    data = entry_post(match, {a: {"tiles": ""}, b: {"tiles": "R14"}, c: {"points": "4"}})
    response = client.post(f"/de/m/{match.token}/", data)
    assert response.status_code == 400
    text = response.content.decode()
    assert 'lang="de"' in text
    assert "unbekannter Stein „R14“: die Zahlen reichen von 1 bis 13." in text
    assert not Game.objects.exists()
    ok = entry_post(match, {a: {"tiles": ""}, b: {"tiles": "R13"}, c: {"points": "4"}})
    assert client.post(f"/de/m/{match.token}/", ok)["Location"] == f"/de/m/{match.token}/"
