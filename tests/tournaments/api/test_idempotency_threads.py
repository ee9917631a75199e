"""Eight threads racing one ``Idempotency-Key`` store one game, on SQLite and
on PostgreSQL: one answer is the write, seven replay it. Eight tables
recording at once all store their games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.factories import match_seated, seated_ids
from tests.fresh_sqlite import module_run_on_fresh_sqlite
from tests.tournaments.api.concurrent_idempotency import THREADS, race
from tests.tournaments.api.concurrent_tables import TABLES, race_tables, tables_seated

ROOT = Path(__file__).resolve().parents[3]


def assert_one_game(result: dict[str, Any]) -> None:
    assert result["games"] == 1 and result["keys"] == 1
    assert result["statuses"] == [201] and len(result["ids"]) == 1
    assert result["replayed"] == THREADS - 1


def test_threads_racing_one_key_store_one_game_on_sqlite(tmp_path):
    assert_one_game(
        module_run_on_fresh_sqlite("tests.tournaments.api.concurrent_idempotency", folder=tmp_path)
    )


@pytest.mark.django_db(transaction=True)
def test_threads_racing_one_key_store_one_game_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the SQLite race runs in its own process (above)")
    match = match_seated(players=4, games_per_round=6)
    assert_one_game(race(match_id=match.pk, token=match.token, players=seated_ids(match)))


def assert_every_table_stored(result: dict[str, Any]) -> None:
    assert result["statuses"] == [201] * TABLES
    assert result["games"] == TABLES and result["status"] == "running"


def test_tables_recording_their_first_games_at_once_on_sqlite(tmp_path):
    assert_every_table_stored(
        module_run_on_fresh_sqlite("tests.tournaments.api.concurrent_tables", folder=tmp_path)
    )


@pytest.mark.django_db(transaction=True)
def test_tables_recording_their_first_games_at_once_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the SQLite race runs in its own process (above)")
    assert_every_table_stored(race_tables(tables_seated()))
