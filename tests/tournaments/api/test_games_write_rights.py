"""Who records a match's game over the API, and what everyone else is told:
the organiser's write reads the match with its seats at once, and a refusal
still tells a match the user may see (403) from one they may not (404)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tournaments.models import Game

pytestmark = pytest.mark.django_db


def body(ids: list[int]) -> dict[str, Any]:
    return {
        "number": 1,
        "ending": "rummikub",
        "racks": [{"player": ids[0], "tiles": ""}, *({"player": i, "points": 7} for i in ids[1:])],
    }


@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("owner", False, 201),
        ("staff", False, 201),
        ("stranger", True, 403),  # sees the match, organises nothing
        ("stranger", False, 404),  # does not even see it
        ("other table's link", True, 403),
        ("other table's link", False, 404),
    ],
)
def test_a_game_is_recorded_by_its_organisers_only(who, public, status):
    match = match_seated(players=3, public=public)
    other_match = match_seated(players=3)
    client = {
        "owner": lambda: client_as(match.round.tournament.owner),
        "staff": lambda: client_as(UserFactory(is_staff=True)),
        "stranger": lambda: client_as(UserFactory()),
        "other table's link": lambda: client_as(match_token=other_match.token),
    }[who]()
    answer = client.post(
        f"/api/v1/matches/{match.pk}/games/", body(seated_ids(match)), format="json"
    )
    assert answer.status_code == status, answer.content
    assert Game.objects.filter(match=match).count() == (1 if status == 201 else 0)


def test_a_game_of_no_match_is_a_404():
    match = match_seated(players=3)
    client = client_as(match.round.tournament.owner)
    answer = client.post("/api/v1/matches/999999/games/", body(seated_ids(match)), format="json")
    assert answer.status_code == 404
