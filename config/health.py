"""The health check: ``GET /healthz`` for a load balancer or a process monitor.

Vocabulary: the site is *healthy* when its database is there and holds the
schema: a known table (the tournaments') answers a trivial query. A
connection that opens is not enough: SQLite opens a missing file by creating
an empty one, and a database without its tables fails every page. So for
SQLite the probe first checks that the database file exists, and never
connects when it does not (connecting would create the empty file). The answer
is 200 ``{"status": "ok"}`` then and 503 ``{"status": "unavailable"}``
otherwise. It needs no login, is never cached, is exempt from the HTTPS
redirect (a probe often speaks plain HTTP to the worker) and is not logged as
a server error: each failed probe is one warning line, not a 5xx error with a
traceback (``ProbeFailureLogged``, a filter on Django's ``django.request``
logger, drops Django's own line for it).
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.apps import apps
from django.db import DatabaseError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)


def database_file_missing(database: BaseDatabaseWrapper) -> bool:
    """Whether ``database`` is an SQLite file that is not there (moved, deleted)."""
    if database.vendor != "sqlite" or database.is_in_memory_db():  # type: ignore[attr-defined]  # SQLite's own
        return False
    return not Path(str(database.settings_dict["NAME"])).is_file()


def database_problem(database: BaseDatabaseWrapper) -> str | None:
    """What keeps ``database`` from serving the pages, or None when it serves them."""
    if database_file_missing(database):
        return "its file is missing"
    # The schema is there: a table every page reads answers (no row needed).
    # Looked up when asked: Django's logging set-up imports this module (its
    # filter) before the models can be.
    tournament = apps.get_model("tournaments", "Tournament")
    table = database.ops.quote_name(tournament._meta.db_table)
    try:
        with database.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {table} LIMIT 1")  # a model's own table
            cursor.fetchall()
    except DatabaseError as error:
        return f"it does not answer ({type(error).__name__})"
    return None


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    problem = database_problem(connection)
    if problem is not None:
        log.warning("Health check: the database is unavailable: %s", problem)
        return JsonResponse({"status": "unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


class ProbeFailureLogged(logging.Filter):
    """Drops ``django.request``'s error line for the health check's 503: the
    view has logged its warning already. Django gives each of its lines the
    ``request`` and the ``status_code``."""

    def filter(self, record: logging.LogRecord) -> bool:
        match = getattr(getattr(record, "request", None), "resolver_match", None)
        unavailable = getattr(record, "status_code", None) == 503
        return not (unavailable and match is not None and match.func is healthz)
