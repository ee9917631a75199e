"""The public pages' bodies, rendered once per tournament version.

Vocabulary: a page's *body* is what its ``content`` block shows of the
tournament (rounds, tables, standings, rules); it is the costly part of a big
event's page and the same for every viewer who sees it the same way. A
body's *view* names what makes it differ between viewers: whether the viewer
organises the tournament (links to the desk and to the match pages, racks
withheld from the public under double entry), the language, and for the
standings the stage asked for (the current ranking or the qualifying table)
and the canonical query (sort, page, rows per page, a category a player
carries: only values the page shows differently, so the bodies a tournament
version can have are bounded; a junk parameter is redirected away, never
kept). Everything else a
page carries per viewer (the CSRF token, the user's menu, messages) lives in
the layout around the body and is rendered on every request, never cached.

The body is keyed by the tournament's version (``tournaments.caching``), so
every write through a service shows at once; renaming a player or a club
records an event in every tournament showing them, so names follow too.

A round's tables are *boxes*: each match's box (its heading and games grid)
is cached on its own, keyed by the match's version (its latest audit event)
and the tournament's *unmatched* version (its latest event naming no match:
settings, entries, seating, renames), so a game recorded at one table
re-renders that table's box and the other boxes of a 250-table round come
from the cache. The tournament page and the round page share the boxes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar
from urllib.parse import urlencode

from django.core.cache import caches
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from tournaments.caching import (
    Stamped,
    cached,
    cached_flight,
    tournament_key,
    tournament_stamp,
    tournament_version_unmatched,
    version_served,
)
from tournaments.models import Round, Tournament
from tournaments.selectors.pages import match_versions, matches_boxed
from tournaments.web.pages import match_layout

T = TypeVar("T")
CACHE = "default"
# A body outlives a quiet evening; a new version replaces it anyway.
TIMEOUT = 6 * 3600


def view_cached(
    *,
    tournament: Tournament,
    page: str,
    view: tuple[object, ...],
    build: Callable[[], T],
    version: int | None = None,
) -> T:
    """``build()`` once per version and view of the page (``version`` if read already)."""
    key = tournament_key(
        tournament=tournament,
        what=f"page-{page}",
        parts=(get_language() or "", *view),
        version=version,
    )
    return cached(cache=CACHE, key=key, build=build, timeout=TIMEOUT)


def body_cached(
    *,
    tournament: Tournament,
    page: str,
    organiser: bool,
    build: Callable[[], str],
    parts: tuple[object, ...] = (),
    version: int | None = None,
) -> SafeString:
    """The page's body as ``build()`` renders it, once per version and view."""
    view = ("organiser" if organiser else "visitor", *parts)
    body = view_cached(tournament=tournament, page=page, view=view, build=build, version=version)
    # Built from our own templates (autoescaped), so it is safe HTML.
    return mark_safe(body)


def _visitor_parts(view: tuple[object, ...]) -> tuple[object, ...]:
    """A visitor's body's key parts, as ``view_cached`` makes them for ``body_cached``."""
    return (get_language() or "", "visitor", *view)


def body_version_served(
    *, tournament: Stamped, page: str, view: tuple[object, ...], version: int
) -> int:
    """The version whose body a polled page shows in this view: ``version``
    (the newest its data are built for), or while another request renders that
    version's body, the latest rendered (``caching.version_served``). A
    thousand phones polling one page then render each new body once, not once
    each in the moment before the first of them has kept it."""
    return version_served(
        tournament=tournament, what=f"page-{page}", parts=_visitor_parts(view), version=version
    )


def body_flown(
    *,
    tournament: Tournament,
    page: str,
    view: tuple[object, ...],
    build: Callable[[], str],
    version: int,
) -> SafeString:
    """A visitor's body of a polled page, rendered once per version and view
    as a flight (its version from ``body_version_served``); kept as
    ``body_cached`` keeps it."""
    body = cached_flight(
        tournament=tournament,
        what=f"page-{page}",
        parts=_visitor_parts(view),
        version=version,
        build=build,
        timeout=TIMEOUT,
    )
    # Built from our own templates (autoescaped), so it is safe HTML.
    return mark_safe(body)


def query_mark(pairs: Iterable[tuple[str, str]]) -> str:
    """A short digest of a canonical query (``standings_table.standings_query``),
    its parameters in a fixed order; a key part must be plain text."""
    return hashlib.blake2b(urlencode(sorted(pairs)).encode(), digest_size=8).hexdigest()


def round_boxes(
    *, tournament: Tournament, rounds: list[Round], organiser: bool, context: Mapping[str, object]
) -> list[tuple[Round, list[SafeString]]]:
    """Each round with its matches' boxes in table order, rendering only those
    the cache lacks; ``context`` is what every box shares (``states``, ...)."""
    # Each match with its version, the id of its latest audit event (games are
    # recorded against their match); one query.
    tables = match_versions(rounds=rounds)
    head = (
        f"{tournament_stamp(tournament=tournament)}"
        f".u{tournament_version_unmatched(tournament=tournament)}"
        f":box:{get_language() or ''}:{'organiser' if organiser else 'visitor'}"
    )
    keys = {pk: f"{head}:m{pk}.v{version or 0}" for pk, _round, version in tables}
    store = caches[CACHE]
    found = store.get_many(list(keys.values()))
    boxes = {pk: found[key] for pk, key in keys.items() if key in found}
    missing = [pk for pk in keys if pk not in boxes]
    if missing:
        made = _boxes_rendered(
            tournament=tournament,
            rounds=rounds,
            match_ids=missing,
            organiser=organiser,
            context=context,
        )
        store.set_many({keys[pk]: box for pk, box in made.items()}, TIMEOUT)
        boxes.update(made)
    by_round: dict[int, list[SafeString]] = {r.pk: [] for r in rounds}
    for pk, round_id, _version in tables:
        # Built from our own templates (autoescaped), so it is safe HTML.
        by_round[round_id].append(mark_safe(boxes[pk]))
    return [(r, by_round[r.pk]) for r in rounds]


def _boxes_rendered(
    *,
    tournament: Tournament,
    rounds: list[Round],
    match_ids: list[int],
    organiser: bool,
    context: Mapping[str, object],
) -> dict[int, str]:
    """The boxes of those matches, read with their seats, games and racks (four queries)."""
    by_id = {r.pk: r for r in rounds}
    template = get_template("tournaments/_match_box.html")
    matches = matches_boxed(match_ids=match_ids)
    made = {}
    for match in matches:
        # The rounds are read already, with the tournament: no query per match.
        round_ = by_id[match.round_id]
        round_.tournament = tournament
        match.round = round_
        # Under double entry a game waiting for its second entry keeps its racks
        # to organisers: the phone giving that entry may be reading this page.
        view = match_layout(match, withhold=not organiser)
        made[match.pk] = template.render(
            {**context, "tournament": tournament, "view": view, "can_organise": organiser}
        )
    return made
