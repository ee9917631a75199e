"""SQLite with a queue for writers.

Vocabulary: a *writer* is a connection inside a transaction (``atomic``);
with ``transaction_mode`` IMMEDIATE it takes SQLite's write lock at
``BEGIN``. SQLite makes a writer that finds the lock taken poll for it,
sleeping 1, 2, 5, 10, 15, 20, 25, ... ms between tries, so under load a
write waits far longer than the one ahead of it took and the queue behind it
grows. Here every writer first takes an exclusive ``flock`` on the *queue
file* (the database's path plus ``-writers``) and keeps it until its
transaction ends: the kernel wakes the next writer the moment the lock is
free. Processes and threads queue alike (each connection has its own file
description); a process that dies releases its place. In-memory databases
(the tests') have a single connection to queue and skip the file.
"""

from __future__ import annotations

import fcntl
import os
from typing import Any

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _queue_fd: int | None = None
    _queued = False

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        if not self.is_in_memory_db():
            self._queue_fd = os.open(
                f"{self.settings_dict['NAME']}-writers", os.O_RDWR | os.O_CREAT, 0o600
            )
        return connection

    def _start_transaction_under_autocommit(self) -> None:
        if self._queue_fd is not None and not self._queued:
            fcntl.flock(self._queue_fd, fcntl.LOCK_EX)
            self._queued = True
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._queue_leave()
            raise

    def _queue_leave(self) -> None:
        if self._queued and self._queue_fd is not None:
            self._queued = False
            fcntl.flock(self._queue_fd, fcntl.LOCK_UN)

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            self._queue_leave()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._queue_leave()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]
        finally:
            self._queue_leave()
            if self._queue_fd is not None:
                os.close(self._queue_fd)
                self._queue_fd = None
