"""SQLite's writers wait for their turn in a queue, not by polling.

SQLite lets one transaction write at a time. A second writer's ``BEGIN
IMMEDIATE`` finds the lock taken and SQLite's busy handler sleeps and retries
(1, 2, 5, 10, ... 100 ms apart): while one worker records games the other
sleeps through the moments the lock is free, and a busy evening runs on one
core. Here each connection to a database file first takes an exclusive
``flock`` on ``<database>-writers`` at its ``BEGIN`` and lets it go when the
transaction ends (commit, rollback or close). A writer that finds it taken
tries again within a millisecond, so it starts the moment the lock is free
(SQLite's own lock is then free too); after the connection's busy timeout
(the ``timeout`` option) it gives up as SQLite would ("database is locked").

Two documented mechanisms carry it: the connection class Python's ``sqlite3``
opens (``factory``, in the database's ``OPTIONS``) and Django's execute
wrappers (installed on ``connection_created``), which see the ``BEGIN``.
A database in memory (the tests) has no file and no queue; a write outside a
transaction (autocommit) still meets SQLite's busy timeout, as before.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created


class QueuedWriterConnection(sqlite3.Connection):
    """A connection to a database file whose transactions queue for the writer lock."""

    def __init__(self, database: str | os.PathLike[str], *args: Any, **kwargs: Any) -> None:
        super().__init__(database, *args, **kwargs)
        # sqlite3.connect's busy timeout (its second argument), 5 s by default.
        self.writer_timeout = float(kwargs.get("timeout", args[0] if args else 5.0))
        name = os.fspath(database)
        in_memory = name == ":memory:" or "mode=memory" in name or name.startswith("file::memory:")
        self.writer_queue: int | None = None
        if not in_memory:
            path = name.removeprefix("file:").split("?", 1)[0]
            self.writer_queue = os.open(f"{path}-writers", os.O_RDWR | os.O_CREAT, 0o600)
        self.writer_holding = False

    def writer_turn(self) -> None:
        """Wait until no other connection writes (at ``BEGIN``), at most the busy timeout."""
        if self.writer_queue is None or self.writer_holding:
            return
        deadline: float | None = None
        while True:
            try:
                fcntl.flock(self.writer_queue, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                now = time.monotonic()
                if deadline is None:
                    deadline = now + self.writer_timeout
                elif now >= deadline:
                    raise sqlite3.OperationalError("database is locked") from None
                time.sleep(0.0005)
                continue
            self.writer_holding = True
            return

    def writer_done(self) -> None:
        if self.writer_holding and self.writer_queue is not None:
            self.writer_holding = False
            fcntl.flock(self.writer_queue, fcntl.LOCK_UN)

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self.writer_done()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self.writer_done()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.writer_done()
            if self.writer_queue is not None:
                os.close(self.writer_queue)
                self.writer_queue = None


def begin_waits_its_turn(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    if not sql.startswith("BEGIN"):
        return execute(sql, params, many, context)
    raw = context["connection"].connection
    if not isinstance(raw, QueuedWriterConnection):
        return execute(sql, params, many, context)
    with context["connection"].wrap_database_errors:
        raw.writer_turn()
    try:
        return execute(sql, params, many, context)
    except BaseException:
        raw.writer_done()
        raise


def _queue_install(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    if connection.vendor == "sqlite" and begin_waits_its_turn not in connection.execute_wrappers:
        connection.execute_wrappers.append(begin_waits_its_turn)


connection_created.connect(_queue_install, dispatch_uid="rackscore-sqlite-writers")
