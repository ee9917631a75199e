"""What was built from a tournament, kept until the tournament changes.

Vocabulary: a tournament's *version* is the id of its latest audit event.
Every write goes through a service and every service records its change in
the audit trail inside the same transaction, so a new version is the one
signal that anything shown of the tournament may differ; nothing has to be
invalidated by hand. A *cached* value is stored under a key that holds the
version, so a stale entry is never read again and simply ages out.

A *flight* is the building of one costly value (a 1,000-player ranking)
for a new version. One request claims it; while it builds, and for a rest
after a long build (``BUILD_REST``), the others keep showing the latest value
built (``version_served``): the version a live answer names is then that
older one, so its tag always matches what it shows, and a thousand phones
polling during a busy round never start a thousand builds, nor one build
after another. The standings page's body is a flight of its own
(``web.public_cache.body_flown``): without it, every poll in the moment
between a new ranking landing and its page being kept rendered that page.

Caches (``config.caches``): ``default`` (each process's memory) for pages
and fragments; ``files`` (a folder a node's workers share) for PDFs; with
``REDIS_URL`` both live in one Redis that every node shares.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass
from time import monotonic, sleep
from typing import Any, TypeVar

from django.core.cache import caches
from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce, Greatest

from tournaments.models import AuditEvent, Match, Tournament, match_token_plausible

T = TypeVar("T")


@dataclass(frozen=True)
class TournamentHead:
    """What a live answer's tag needs of a tournament, read before anything
    is rendered (``selectors.tournaments.tournament_head_visible``, one small
    query): its id and creation time (its keys' head), whether it is public,
    its version, and whether the user who asks organises it."""

    pk: int
    created: datetime.datetime | None
    public: bool
    version: int
    organiser: bool


# A tournament, or its head: what a key is built from.
Stamped = Tournament | TournamentHead


def tournament_version(*, tournament: Stamped) -> int:
    """The id of the tournament's latest audit event (0 before any)."""
    if isinstance(tournament, TournamentHead):
        return tournament.version
    latest = (
        AuditEvent.objects.filter(tournament_id=tournament.pk)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return latest or 0


def tournament_key(
    *, tournament: Stamped, what: str, parts: tuple[object, ...] = (), version: int | None = None
) -> str:
    """A cache key for something built from the tournament as it is now.

    The creation time joins the id so that a database rebuilt from scratch
    (ids counted again) never meets a file kept from the old one."""
    if version is None:
        version = tournament_version(tournament=tournament)
    tail = ":".join(str(part) for part in parts)
    return f"{tournament_stamp(tournament=tournament)}.v{version}:{what}:{tail}"


def tournament_stamp(*, tournament: Stamped) -> str:
    """The tournament's id and creation time: the head of every key built from it."""
    stamp = int(tournament.created.timestamp() * 1_000_000) if tournament.created else 0
    return f"t{tournament.pk}.{stamp}"


def tournament_version_unmatched(*, tournament: Tournament) -> int:
    """The id of the tournament's latest audit event that names no match (0 before any).

    Games are the only writes recorded against a match; everything else
    (settings, entries, seating, renames, adjustments) names none, so this
    version moves when anything but one match's games changes."""
    latest = (
        AuditEvent.objects.filter(tournament_id=tournament.pk, match__isnull=True)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return latest or 0


def match_version(*, token: str) -> tuple[Match, int] | None:
    """The match with this link (with its round and tournament) and its *version*:
    the id of its latest audit event or of the tournament's latest naming no
    match, whichever is later (0 before any); None for no such link. One query.

    A match page shows that match's games and the tournament's settings, names
    and seating: its version moves with them, not with another table's game."""
    if not match_token_plausible(token):
        return None
    events = AuditEvent.objects.filter(tournament_id=OuterRef("round__tournament_id"))
    own = events.filter(match_id=OuterRef("pk")).order_by("-id").values("id")[:1]
    unmatched = events.filter(match__isnull=True).order_by("-id").values("id")[:1]
    found = (
        Match.objects.select_related("round__tournament")
        .annotate(
            live_version=Greatest(
                Coalesce(Subquery(own), Value(0)), Coalesce(Subquery(unmatched), Value(0))
            )
        )
        .filter(token=token)
        .first()
    )
    return None if found is None else (found, int(found.live_version))


def cached(*, cache: str, key: str, build: Callable[[], T], timeout: int = 24 * 3600) -> T:
    """``build()`` once per ``key`` (which must hold the version) in the named cache."""
    store = caches[cache]
    value: T | None = store.get(key)
    if value is None:
        value = build()
        store.set(key, value, timeout)
    return value


# Longer than any build: a builder that dies frees its flight after this.
FLIGHT_SECONDS = 60
# After a build that took ``t`` seconds, the next starts no sooner than
# ``BUILD_REST × t`` after it landed, while the one built is shown: a
# 1,000-player ranking (0.1 s alone, 0.7 s on a machine under a round's load)
# is rebuilt every 1.5 to 10 s during a busy round, so its builds take a
# sixteenth of one worker at most, and the busier the machine the fewer. A
# phone polls every 10 s; a build quicker than ``REST_FROM_SECONDS`` (any club
# evening's) needs no rest.
BUILD_REST = 15.0
REST_FROM_SECONDS = 0.05
# With nothing built before to show, the other requests wait for the first
# build (asking every ``FIRST_BUILD_POLL`` seconds) instead of each starting
# their own: at a cold start of a 1,000-player event, every phone's first
# request built the ranking beside the others, and the first seconds' backlog
# took the next ten to clear. A build longer than the wait is started anyway.
FIRST_BUILD_WAIT = 5.0
FIRST_BUILD_POLL = 0.02


@dataclass(frozen=True)
class Landed:
    """The latest version built of a value: when it landed, how long it took (seconds)."""

    version: int
    at: float
    took: float

    def resting(self, now: float) -> bool:
        return self.took >= REST_FROM_SECONDS and now - self.at < BUILD_REST * self.took


def _landed(value: object) -> Landed | None:
    return value if isinstance(value, Landed) else None


def flight_keys(*, tournament: Stamped, what: str, parts: tuple[object, ...]) -> tuple[str, str]:
    """The keys of a value's flight, the same for every version: the version
    being built, and the latest version built (``Landed``)."""
    tail = ":".join(str(part) for part in parts)
    head = f"{tournament_stamp(tournament=tournament)}:flight:{what}:{tail}"
    return f"{head}:building", f"{head}:landed"


def version_served(
    *, tournament: Stamped, what: str, parts: tuple[object, ...] = (), version: int | None = None
) -> int:
    """The version whose ``what`` a live answer shows: the tournament's own
    (``version`` if read already), unless an older one is kept and either
    another request is building a newer one, or the latest build is resting
    (``BUILD_REST``), then that older one. Otherwise the request claims the
    build of its version (it is the one request that builds it). Two cache
    reads, three at most."""
    if version is None:
        version = tournament_version(tournament=tournament)
    store = caches["default"]
    building_key, landed_key = flight_keys(tournament=tournament, what=what, parts=parts)
    found = store.get_many([building_key, landed_key])
    building, landed = found.get(building_key), _landed(found.get(landed_key))
    if landed is None or landed.version >= version:
        return version
    kept = tournament_key(tournament=tournament, what=what, parts=parts, version=landed.version)
    if not store.has_key(kept):
        return version
    if (isinstance(building, int) and building > landed.version) or landed.resting(time.time()):
        return landed.version
    return version if store.add(building_key, version, FLIGHT_SECONDS) else landed.version


def _built_meanwhile(*, key: str, building_key: str, version: int) -> Any:
    """The value another request is building under ``key``, once it is kept
    (None: its builder gave up or it takes longer than ``FIRST_BUILD_WAIT``)."""
    store = caches["default"]
    deadline = monotonic() + FIRST_BUILD_WAIT
    while monotonic() < deadline:
        sleep(FIRST_BUILD_POLL)
        found = store.get_many([key, building_key])
        if key in found:
            return found[key]
        if found.get(building_key) != version:
            return None
    return None


def cached_flight(
    *,
    tournament: Stamped,
    what: str,
    parts: tuple[object, ...] = (),
    version: int | None = None,
    build: Callable[[], T],
    timeout: int = 24 * 3600,
) -> T:
    """``build()`` once per version of ``what`` in the default cache, as
    ``cached`` does, announcing the build as a flight (``version_served``)."""
    if version is None:
        version = tournament_version(tournament=tournament)
    store = caches["default"]
    key = tournament_key(tournament=tournament, what=what, parts=parts, version=version)
    value: T | None = store.get(key)
    if value is not None:
        return value
    building_key, landed_key = flight_keys(tournament=tournament, what=what, parts=parts)
    # Claimed already when version_served chose this request to build it.
    if not store.add(building_key, version, FLIGHT_SECONDS):
        found = store.get_many([building_key, landed_key])
        if found.get(building_key) == version and _landed(found.get(landed_key)) is None:
            # Another request builds this very version and none was built before
            # to show meanwhile (a cold cache, a tournament's first polls): wait
            # for that build rather than start one more beside it.
            waited: T | None = _built_meanwhile(key=key, building_key=building_key, version=version)
            if waited is not None:
                return waited
    started = time.time()
    try:
        value = build()
        store.set(key, value, timeout)
        landed = _landed(store.get(landed_key))
        if landed is None or landed.version < version:
            now = time.time()
            store.set(landed_key, Landed(version, now, now - started), timeout)
    finally:
        if store.get(building_key) == version:
            store.delete(building_key)
    return value
