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

pytestmark = pytest.mark.django_db

# BEGIN … COMMIT around a keyed write, savepoints included (27 before the
# answer was built from memory and the per-request purge went).
QUERIES_MAX = 24


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


def test_a_keyed_game_post_costs_a_fixed_number_of_queries():
    match = match_seated(players=4)
    ids = seated_ids(match)
    client = APIClient(HTTP_X_MATCH_TOKEN=match.token)
    url = f"/api/v1/matches/{match.pk}/games/"
    client.post(url, body(ids, 1), format="json", HTTP_IDEMPOTENCY_KEY="first")
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(url, body(ids, 2), format="json", HTTP_IDEMPOTENCY_KEY="second")
    assert answer.status_code == 201
    assert len(captured) <= QUERIES_MAX
