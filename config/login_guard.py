"""Login protection: how django-axes sees a client and answers a locked-out one.

Vocabulary: a *failure* is a login refused for a wrong password; a *lock*
holds a username at one client address after ``AXES_FAILURE_LIMIT`` failures
within ``AXES_COOLOFF_TIME`` and refuses that pair, even with the right
password, until the cool-off has passed since its last failure. The *client
address* is the connection's own address, or, behind ``DJANGO_PROXY_COUNT``
reverse proxies, the address the outermost of them saw (read from the right
of ``X-Forwarded-For``, where a client cannot forge it).

Every login path (the site's, the admin's, the browsable API's and the API
token) authenticates through ``django.contrib.auth.authenticate`` with the
Django request, so axes counts them all alike (settings: ``AXES_*``).
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext


def client_address(request: HttpRequest) -> str | None:
    """The client's address as far as the configured proxies can be trusted."""
    proxies: int = settings.RACKSCORE_PROXY_COUNT
    if proxies > 0:
        forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        # Each trusted proxy appends the address it was reached from; anything
        # further left was written by the client and proves nothing.
        if len(hops) >= proxies:
            return hops[-proxies]
    remote: str | None = request.META.get("REMOTE_ADDR")
    return remote


def lock_remaining(*, username: str | None, address: str | None) -> int:
    """Whole seconds until the lock of this username at this address lifts."""
    from axes.models import AccessAttempt  # an app's model: not importable at settings time

    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    latest = AccessAttempt.objects.filter(username=username, ip_address=address).aggregate(
        latest=Max("attempt_time")
    )["latest"]
    if latest is None:
        return math.ceil(cool_off.total_seconds())
    remaining: float = (latest + cool_off - timezone.now()).total_seconds()
    return max(1, math.ceil(remaining))


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """429 with ``Retry-After``: JSON under /api/, a page everywhere else."""
    from axes.helpers import get_client_username

    username = get_client_username(request, credentials)
    seconds = lock_remaining(username=username, address=getattr(request, "axes_ip_address", None))
    minutes = math.ceil(seconds / 60)
    response: HttpResponse
    if request.path.startswith("/api/"):
        detail = ngettext(
            "Too many failed logins for this username from your address. "
            "Try again in %(minutes)d minute.",
            "Too many failed logins for this username from your address. "
            "Try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        response = JsonResponse({"detail": detail}, status=429)
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {
                "minutes": minutes,
                "failure_limit": settings.AXES_FAILURE_LIMIT,
                "cool_off_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
            },
            status=429,
        )
    response["Retry-After"] = str(seconds)
    return response
