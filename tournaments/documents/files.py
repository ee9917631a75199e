"""A tournament's printable files as PDF bytes: score sheets, standings, the final report.

Vocabulary: a *file* is one PDF, read (``data``) then drawn
(:mod:`printing`), in the tournament's language whatever the
request's, kept in the ``files`` cache for the tournament's version
(:mod:`tournaments.caching`: any write makes a new one). The *base URL* is
the site's address that the sheets' entry links and QR codes start with:
the request's on the site; for a command, ``RACKSCORE_BASE_URL`` or
:data:`BASE_URL_DEFAULT`. A large set of score sheets is drawn by the task
worker (``tournaments.tasks``): the request *claims* it (a mark in the files
cache, so that it is handed on once), the worker draws it into the cache and
*releases* the mark, and the next request finds it *ready*.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable

from django.core.cache import caches

from printing.sheet_sets import sheets_pdf
from tournaments.caching import cached, tournament_key
from tournaments.documents.documents import report_document, standings_document
from tournaments.models import Round, Tournament
from tournaments.selectors.print_data import scoresheets_data
from tournaments.selectors.standings import ranking_current
from tournaments.standings.ranking import categories_of

BASE_URL_DEFAULT = "http://127.0.0.1:8000"
# The files cache's mark of a set being drawn by the task worker, and its life.
PREPARING = ":preparing"
PREPARING_SECONDS = 600


def base_url_default() -> str:
    """The site's address for links printed without a request (commands)."""
    return os.environ.get("RACKSCORE_BASE_URL", BASE_URL_DEFAULT).rstrip("/")


def scoresheets_pdf(
    *,
    round_: Round,
    base_url: str,
    paper: str | None = None,
    chunk_pages: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """A round's score sheets, a page per match by table, in the tournament's language;
    cached for the tournament's version, the base URL and the paper (the sheets print
    the entry links, which a new link for a table changes: a write, so a new version).
    Rendered in this process; ``progress`` gets the pages done after each chunk of
    ``chunk_pages``."""
    return cached(
        cache="files",
        key=scoresheets_key(round_=round_, base_url=base_url, paper=paper),
        build=lambda: sheets_pdf(
            sheet_set=scoresheets_data(round_=round_, base_url=base_url, paper=paper),
            chunk_pages=chunk_pages,
            progress=progress,
        ),
    )


def scoresheets_key(*, round_: Round, base_url: str, paper: str | None = None) -> str:
    """The files cache's key of a round's score sheets, as the tournament is now."""
    tournament = round_.tournament
    return tournament_key(
        tournament=tournament,
        what=f"round-{round_.number}-scoresheets.pdf",
        # (hashed: a host name is the request's, and keys are kept short and plain)
        parts=(
            tournament.language,
            paper or tournament.paper,
            hashlib.sha256(base_url.encode()).hexdigest()[:20],
        ),
    )


def scoresheets_ready(*, round_: Round, base_url: str, paper: str | None = None) -> bytes | None:
    """The round's score sheets if they are in the files cache already, else None."""
    pdf = caches["files"].get(scoresheets_key(round_=round_, base_url=base_url, paper=paper))
    return pdf if isinstance(pdf, bytes) else None


def scoresheets_claimed(*, round_: Round, base_url: str, paper: str | None = None) -> bool:
    """Mark the round's sheets as being prepared; False when they already were (so
    that concurrent requests hand the work on once). The mark lapses after
    :data:`PREPARING_SECONDS`, should the worker never finish."""
    key = scoresheets_key(round_=round_, base_url=base_url, paper=paper) + PREPARING
    return bool(caches["files"].add(key, 1, timeout=PREPARING_SECONDS))


def scoresheets_released(*, round_: Round, base_url: str, paper: str | None = None) -> None:
    """The sheets are no longer being prepared (drawn, or failed)."""
    caches["files"].delete(
        scoresheets_key(round_=round_, base_url=base_url, paper=paper) + PREPARING
    )


def standings_pdf(*, tournament: Tournament, category: str = "") -> bytes:
    """The standings, as on the standings page, in the tournament's language.

    Kept in the files cache for the tournament's version: the second request
    for the same standings is a file read, and its "printed" time is the
    first render's. ``category``: that category's players only, ranked among themselves
    (one nobody carries, free text, is drawn with no rows and never kept)."""
    if category and category not in categories_of(ranking_current(tournament=tournament).rows):
        return standings_document(tournament=tournament, category=category)
    # Hashed: a category is free text, a key part must be plain.
    tag = hashlib.sha256(category.encode()).hexdigest()[:16] if category else ""
    key = tournament_key(
        tournament=tournament,
        what="standings.pdf",
        parts=(tournament.language, tournament.paper, tag),
    )
    return cached(
        cache="files",
        key=key,
        build=lambda: standings_document(tournament=tournament, category=category),
    )


def report_pdf(*, tournament: Tournament) -> bytes:
    """The final report for the organiser's records, in the tournament's language (cached
    for the tournament's version, as :func:`standings_pdf`)."""
    key = tournament_key(
        tournament=tournament, what="report.pdf", parts=(tournament.language, tournament.paper)
    )
    return cached(cache="files", key=key, build=lambda: report_document(tournament=tournament))
