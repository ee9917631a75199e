"""The public pages' bodies, rendered once per tournament version.

Vocabulary: a page's *body* is what its ``content`` block shows of the
tournament (rounds, tables, standings, rules); it is the costly part of a big
event's page and the same for every viewer who sees it the same way. A
body's *view* names what makes it differ between viewers: whether the viewer
organises the tournament (links to the desk and to the match pages, racks
withheld from the public under double entry), the language, and for the
standings the query string (sort, page, rows per page). Everything else a
page carries per viewer (the CSRF token, the user's menu, messages) lives in
the layout around the body and is rendered on every request, never cached.

The body is keyed by the tournament's version (``tournaments.caching``), so
every write through a service shows at once; renaming a player or a club
records an event in every tournament showing them, so names follow too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlencode

from django.http import QueryDict
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from ..caching import cached, tournament_key
from ..models import Tournament

T = TypeVar("T")
CACHE = "default"
# A body outlives a quiet evening; a new version replaces it anyway.
TIMEOUT = 6 * 3600


def view_cached(
    *, tournament: Tournament, page: str, view: tuple[object, ...], build: Callable[[], T]
) -> T:
    """``build()`` once per version and view of the page."""
    key = tournament_key(
        tournament=tournament,
        what=f"page-{page}",
        parts=(get_language() or "", *view),
    )
    return cached(cache=CACHE, key=key, build=build, timeout=TIMEOUT)


def body_cached(
    *,
    tournament: Tournament,
    page: str,
    organiser: bool,
    build: Callable[[], str],
    parts: tuple[object, ...] = (),
) -> SafeString:
    """The page's body as ``build()`` renders it, once per version and view."""
    view = ("organiser" if organiser else "visitor", *parts)
    body = view_cached(tournament=tournament, page=page, view=view, build=build)
    # Built from our own templates (autoescaped), so it is safe HTML.
    return mark_safe(body)


def query_mark(query: QueryDict) -> str:
    """A short digest of a query string, its parameters in a fixed order."""
    pairs = sorted((k, v) for k in query for v in query.getlist(k))
    return hashlib.blake2b(urlencode(pairs).encode(), digest_size=8).hexdigest()
