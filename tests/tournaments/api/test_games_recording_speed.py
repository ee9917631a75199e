"""Recording a game from a table's phone: the answer built from what was just
stored is the answer a later read gives, and the write costs a fixed handful
of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tests.tournaments.ratings.support import rating_locks

pytestmark = pytest.mark.django_db


def body(ids: list[int], number: int) -> dict[str, Any]:
    # Two losers on the same points: a shared place, so fractional table points.
    return {
        "number": number,
        "ending": "rummikub",
        "racks": [
            {"player": ids[0], "tiles": ""},
            {"player": ids[1], "points": 10, "jokers": 0},
            {"player": ids[2], "points": 10, "jokers": 1},
            {"player": ids[3], "tiles": "R5 B7 J"},
        ],
    }


def test_the_answer_to_a_new_game_is_the_game_as_read_again():
    match = match_seated(players=4)
    client = APIClient(HTTP_X_MATCH_TOKEN=match.token)
    posted = client.post(
        f"/api/v1/matches/{match.pk}/games/", body(seated_ids(match), 1), format="json"
    )
    assert posted.status_code == 201
    read = client.get(posted["Location"])
    assert posted.json() == read.json()
    assert posted["ETag"] == read["ETag"]


# A keyed game post, statement by statement (the test's own transaction turns
# the key's BEGIN … COMMIT into a savepoint and its release): the match with its
# seats (an organiser's token first), the key's claim, the tournament and the
# match as they are now (PostgreSQL: and the match's lock), the game, its racks,
# its event, its players' ratings (the rating state, their ratings, the game's
# rating rows, their new ratings), the key's answer.
QUERIES = {"table link": 14, "organiser": 15}


@pytest.mark.parametrize("path", sorted(QUERIES))
def test_a_keyed_game_post_costs_a_fixed_number_of_queries_and_one_transaction(path):
    match = match_seated(players=4)
    ids = seated_ids(match)
    client = (
        client_as(match_token=match.token)
        if path == "table link"
        else client_as(match.round.tournament.owner)
    )
    url = f"/api/v1/matches/{match.pk}/games/"
    client.post(url, body(ids, 1), format="json", HTTP_IDEMPOTENCY_KEY="first")
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(url, body(ids, 2), format="json", HTTP_IDEMPOTENCY_KEY="second")
    assert answer.status_code == 201
    statements = [q["sql"] for q in captured.captured_queries]
    locked = 1 if connection.features.has_select_for_update else 0
    assert len(statements) == QUERIES[path] + locked + rating_locks(), statements
    # The key's transaction alone: the entry takes no savepoint of its own in it.
    assert sum(sql.startswith("SAVEPOINT") for sql in statements) == 1
