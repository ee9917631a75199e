"""SQLite's writers queue for the write lock instead of polling for it."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.sqlite_writers import QueuedWriterConnection, begin_waits_its_turn


def _connect(path: Path, *, timeout: float) -> QueuedWriterConnection:
    conn = sqlite3.connect(
        path,
        timeout=timeout,
        isolation_level=None,
        check_same_thread=False,
        factory=QueuedWriterConnection,
    )
    assert isinstance(conn, QueuedWriterConnection)
    return conn


def _open(path: Path) -> QueuedWriterConnection:
    # No busy timeout for SQLite itself: a writer that found SQLite's lock taken
    # would fail at once. The queue waits as long as a site's connection would.
    conn = _connect(path, timeout=0)
    conn.writer_timeout = 20
    return conn


def _begin(conn: QueuedWriterConnection) -> None:
    conn.writer_turn()
    conn.execute("BEGIN IMMEDIATE")


def test_a_second_writer_waits_for_the_first_to_commit_and_never_meets_a_locked_database(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    first, second = _open(path), _open(path)
    first.execute("CREATE TABLE t (n INTEGER)")
    order: list[str] = []
    errors: list[BaseException] = []

    def write_second() -> None:
        try:
            _begin(second)
            order.append("second began")
            second.execute("INSERT INTO t VALUES (2)")
            second.commit()
        except BaseException as error:  # the failure the queue prevents
            errors.append(error)

    _begin(first)
    first.execute("INSERT INTO t VALUES (1)")
    other = threading.Thread(target=write_second)
    other.start()
    time.sleep(0.2)
    # Still waiting its turn, and not failed with "database is locked".
    assert order == [] and errors == []
    order.append("first committed")
    first.commit()
    other.join(5)
    assert errors == []
    assert order == ["first committed", "second began"]
    assert [n for (n,) in first.execute("SELECT n FROM t ORDER BY n")] == [1, 2]
    first.close()
    second.close()


@pytest.mark.parametrize("end", ["commit", "rollback", "close"])
def test_every_end_of_a_transaction_gives_the_turn_back(tmp_path: Path, end: str) -> None:
    path = tmp_path / "db.sqlite3"
    first, second = _open(path), _open(path)
    _begin(first)
    getattr(first, end)()
    _begin(second)  # would wait for ever if the turn were still held
    second.rollback()
    second.close()
    if end != "close":
        first.close()


def test_a_failed_begin_gives_the_turn_back(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    first, second = _open(path), _open(path)

    def refuse(sql: str, params: object, many: bool, context: object) -> None:
        raise sqlite3.OperationalError("refused")

    class Wrapper:
        connection = first
        wrap_database_errors = contextlib.nullcontext()

    with pytest.raises(sqlite3.OperationalError):
        begin_waits_its_turn(refuse, "BEGIN IMMEDIATE", None, False, {"connection": Wrapper()})
    assert not first.writer_holding
    _begin(second)
    second.rollback()
    first.close()
    second.close()


def test_a_database_in_memory_has_no_queue() -> None:
    conn = sqlite3.connect(":memory:", factory=QueuedWriterConnection)
    assert isinstance(conn, QueuedWriterConnection) and conn.writer_queue is None
    conn.writer_turn()
    assert not conn.writer_holding
    conn.close()


@pytest.mark.django_db
def test_the_project_opens_sqlite_files_with_the_queue_and_watches_their_begin() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    assert settings.DATABASES["default"]["OPTIONS"]["factory"] is QueuedWriterConnection
    connection.ensure_connection()
    assert begin_waits_its_turn in connection.execute_wrappers


def test_a_writer_waits_no_longer_than_its_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    first = _open(path)
    second = _connect(path, timeout=0.2)
    _begin(first)
    start = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        second.writer_turn()
    assert 0.2 <= time.monotonic() - start < 2
    assert not second.writer_holding
    first.commit()
    _begin(second)
    second.rollback()
    first.close()
    second.close()
