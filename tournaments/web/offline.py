"""The match page as an installable web app that keeps working without a network.

Vocabulary: the *service worker* (``/sw.js``, served at the site's root so its
scope covers every ``/m/<token>/`` page in every language) keeps the *shell*
of the pages it may have to reopen offline: the match pages and timers a phone
visited, and the *precache* (the stylesheet, scripts and icons they use, by
their served, possibly hashed, names). Its code lives in ``static/js/sw.js``;
the view only prepends what changes with a deployment, so a new deployment is
a new worker. The *manifest* (``/m/<token>/manifest.webmanifest``) makes one
table's page installable: it starts at that page and stays inside it.

The *offline queue* itself (a game kept in the browser until it can be sent)
is ``static/js/offline.js``; ``match_offline_config`` is what the page tells it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from tournaments.models import Match
from tournaments.selectors.matches import match_detail

# Files every reopened page needs; anything else under STATIC_URL is kept once fetched.
PRECACHE = (
    "css/site.css",
    "js/site.js",
    "js/offline-view.js",
    "js/offline.js",
    "js/picker.js",
    "icons/app.svg",
    "icons/app-192.png",
    "icons/app-512.png",
)
# Bumped when the worker's code changes in a way its cached files must follow.
WORKER_REVISION = "1"
THEME_COLOUR = "#17365d"  # the site's rack blue
BACKGROUND_COLOUR = "#fbfaf6"


def _served(name: str) -> str | None:
    """The URL a static file is served at, or None when this deployment lacks it."""
    try:
        return static(name)
    except ValueError:  # a hashed storage that never collected it
        return None


def worker_config() -> dict[str, Any]:
    precache = [url for url in map(_served, PRECACHE) if url is not None]
    digest = hashlib.sha256("\n".join([WORKER_REVISION, *precache]).encode()).hexdigest()
    # The prefix itself, not a file: a manifest storage names no file "".
    prefix = PrefixNode.handle_simple("STATIC_URL")
    return {"version": digest[:16], "precache": precache, "static": prefix}


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: its settings, then its code (a static file)."""
    config = worker_config()
    code = static("js/sw.js")
    body = (
        f"self.RACKSCORE_SW = {json.dumps(config, separators=(',', ':'))};\n"
        f"importScripts({json.dumps(code)});\n"
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def _match(token: str) -> Match:
    try:
        return match_detail(token=token)
    except Match.DoesNotExist:
        raise Http404 from None


@require_safe
@cache_control(private=True, no_cache=True)
def match_manifest(request: HttpRequest, token: str) -> HttpResponse:
    """One table's page as an installable app (a replaced or unknown link: 404)."""
    match = _match(token)
    table = gettext("Table %(table)s") % {"table": match.table}
    page = reverse("web:match", kwargs={"token": match.token})
    manifest = {
        "name": f"{table} · {match.round.tournament.name}",
        "short_name": table,
        "lang": get_language() or "en",
        "start_url": page,
        "scope": page,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("icons/app-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/app-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/app.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(
        manifest,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
