"""Confirming and restoring games, and the match and adjustment endpoints read
with them: each answers in a fixed number of queries, whatever the match's size."""

from __future__ import annotations

import pytest

from tests.factories import match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tests.tournaments.ratings.support import rating_locks
from tests.tournaments.web.support import play
from tournaments.models import Entry, Game

pytestmark = pytest.mark.django_db


def racks(ids: list[int], points: int = 10) -> list[dict[str, object]]:
    first, *others = ids
    scored: list[dict[str, object]] = [{"player": p, "points": points} for p in others]
    return [{"player": first, "tiles": ""}, *scored]


@pytest.mark.parametrize("players", [2, 4])
def test_confirming_a_game_takes_a_fixed_number_of_queries(
    owner, players, django_assert_num_queries
):
    match = match_seated(players=players, owner=owner, confirmation="organiser")
    body = {"ending": "rummikub", "racks": racks(seated_ids(match))}
    link = client_as(match_token=match.token)
    game_id = link.post(f"/api/v1/matches/{match.pk}/games/", body, format="json").json()["id"]
    client = client_as(owner)
    # 13, and 5 for the ratings: the game now counts, its players move on (rated
    # for the first time).
    with django_assert_num_queries(18 + rating_locks()):
        confirmed = client.post(f"/api/v1/games/{game_id}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["state"] == "confirmed"


@pytest.mark.parametrize("games", [2, 4])
def test_restoring_a_game_takes_a_fixed_number_of_queries(owner, games, django_assert_num_queries):
    match = match_seated(players=3, owner=owner, confirmation="none", games_per_round=games)
    play(match, games=games)
    gone = match.games.get(number=2)
    client = client_as(owner)
    assert client.delete(f"/api/v1/games/{gone.pk}/", HTTP_IF_MATCH='"1"').status_code == 204
    # 18, and the ratings: the last game moves its players on (4 statements); one
    # before later games replays the ratings from it (12, whatever their number).
    ratings = 4 + rating_locks() if games == 2 else 12 + rating_locks(replay=True)
    with django_assert_num_queries(18 + ratings):
        restored = client.post(f"/api/v1/games/{gone.pk}/restore/")
    assert restored.status_code == 201 and Game.objects.filter(pk=gone.pk).exists()
    with django_assert_num_queries(3):
        assert client.post(f"/api/v1/games/{gone.pk}/restore/").status_code == 404


def test_a_restore_of_a_game_never_deleted_is_404(owner):
    match = match_seated(players=2, owner=owner)
    play(match, games=1)
    game = match.games.get()
    assert client_as(owner).post(f"/api/v1/games/{game.pk}/restore/").status_code == 404
    assert client_as(owner).post("/api/v1/games/999999/restore/").status_code == 404


@pytest.mark.parametrize("players", [2, 4])
def test_a_match_token_is_replaced_and_read_in_a_fixed_number_of_queries(
    owner, players, django_assert_num_queries
):
    match = match_seated(players=players, owner=owner, games_per_round=2)
    play(match, games=2)
    with django_assert_num_queries(19):
        replaced = client_as(owner).post(f"/api/v1/matches/{match.pk}/token/")
    assert replaced.status_code == 200
    link = client_as(match_token=replaced.json()["token"])
    with django_assert_num_queries(5):  # the token's match and seats: one query
        read = link.get("/api/v1/matches/by-token/")
    assert read.status_code == 200 and read.json()["id"] == match.pk


def test_an_adjustment_is_added_and_removed_in_a_fixed_number_of_queries(
    owner, django_assert_num_queries
):
    match = match_seated(players=3, owner=owner)
    tournament = match.round.tournament
    player_id = Entry.objects.filter(tournament=tournament).first().player_id
    client = client_as(owner)
    url = f"/api/v1/tournaments/{tournament.pk}/adjustments/"
    body = {"player": player_id, "points": "-5", "reason": "Late"}
    with django_assert_num_queries(10):
        added = client.post(url, body, format="json")
    assert added.status_code == 201
    with django_assert_num_queries(9):
        assert client.delete(f"{url}{added.json()['id']}/").status_code == 204
