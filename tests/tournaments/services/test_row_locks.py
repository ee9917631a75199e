"""Row locks: a write locks the rows it means and no other.

On PostgreSQL ``SELECT ... FOR UPDATE`` over a join locks a row of every
joined table unless it names its own (``FOR UPDATE OF``): a game's lock on its
match would then lock its round (which every table of the round shares) and
its tournament (which every game holds in share mode while recorded), so
concurrent games would wait on each other or deadlock. Every locking statement
of the recording, double-entry, refusal, confirmation, correction and clock
paths is checked here; on SQLite nothing locks rows (the transaction holds
the database's write lock), so the test runs on PostgreSQL only."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as

pytestmark = pytest.mark.django_db

JOINED = re.compile(r"\bJOIN\b", re.IGNORECASE)


def locking(statements: list[str]) -> list[str]:
    return [s for s in statements if "FOR UPDATE" in s or "FOR SHARE" in s]


def test_locking_statements_lock_their_own_rows_only():
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL locks rows")
    owner = UserFactory()
    match = match_seated(players=2, owner=owner, games_per_round=3, confirmation="double_entry")
    a, b = seated_ids(match)
    url = f"/api/v1/matches/{match.pk}/games/"

    def game(number: int, points: int = 10) -> dict[str, object]:
        racks = [{"player": a, "tiles": ""}, {"player": b, "points": points}]
        return {"number": number, "ending": "rummikub", "racks": racks}

    phone = client_as(match_token=match.token)
    desk = client_as(owner)
    with CaptureQueriesContext(connection) as captured:
        assert phone.post(url, game(1), format="json").status_code == 201  # the first game
        assert phone.post(url, game(1), format="json").status_code == 409  # refused, traced
        assert desk.post(url, game(1), format="json").status_code == 200  # second entry
        assert desk.post(url, game(2), format="json").status_code == 201
        game_id = desk.get(f"/api/v1/matches/{match.pk}/games/").json()["results"][1]["id"]
        corrected = desk.get(f"/api/v1/games/{game_id}/")
        assert (
            desk.put(
                f"/api/v1/games/{game_id}/",
                game(2, points=12),
                format="json",
                HTTP_IF_MATCH=corrected["ETag"],
            ).status_code
            == 200
        )
    statements = locking([q["sql"] for q in captured.captured_queries])
    assert statements, "the paths above lock rows"
    for statement in statements:
        assert not JOINED.search(statement) or re.search(
            r"FOR UPDATE OF|FOR SHARE OF", statement
        ), statement
