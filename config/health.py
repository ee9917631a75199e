"""The health check: ``GET /healthz`` for a load balancer or a process monitor.

Vocabulary: the site is *healthy* when its database answers a ``SELECT 1``;
the answer is 200 ``{"status": "ok"}`` then and 503 ``{"status":
"unavailable"}`` otherwise. It needs no login, is never cached, is exempt from
the HTTPS redirect (a probe often speaks plain HTTP to the worker) and is not
logged as a server error: each failed probe is one warning line, not a 5xx
error with a traceback (``ProbeFailureLogged``, a filter on Django's
``django.request`` logger, drops Django's own line for it).
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        log.warning("Health check: the database does not answer (%s)", type(error).__name__)
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
