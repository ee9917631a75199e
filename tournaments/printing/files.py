"""A tournament's printable files as PDF bytes: score sheets, standings, the final report.

Vocabulary: a *file* is one PDF, read (``data``) then drawn
(:mod:`scoring.sheets`), in the tournament's language whatever the
request's. The *base URL* is the site's address that the sheets' entry
links and QR codes start with: the request's on the site; for a command,
``RACKSCORE_BASE_URL`` or :data:`BASE_URL_DEFAULT`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils import timezone, translation

from scoring.sheets.layout import number_columns_mm
from scoring.sheets.pool import sheets_pdf
from scoring.sheets.render import html_pdf
from tournaments.models import Round, Tournament
from tournaments.standings.queries import standings_for
from tournaments.standings.unconfirmed import unconfirmed_of

from .data import (
    report_data,
    rounds_played,
    scoresheets_data,
    standings_columns,
    standings_headings,
    standings_lines,
)

BASE_URL_DEFAULT = "http://127.0.0.1:8000"


def base_url_default() -> str:
    """The site's address for links printed without a request (commands)."""
    return os.environ.get("RACKSCORE_BASE_URL", BASE_URL_DEFAULT).rstrip("/")


def scoresheets_pdf(
    *,
    round_: Round,
    base_url: str,
    paper: str | None = None,
    workers: int | None = None,
    chunk_pages: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """A round's score sheets, a page per match by table, in the tournament's language."""
    return sheets_pdf(
        sheet_set=scoresheets_data(round_=round_, base_url=base_url, paper=paper),
        workers=workers,
        chunk_pages=chunk_pages,
        progress=progress,
    )


def standings_pdf(*, tournament: Tournament) -> bytes:
    """The standings, as on the standings page, in the tournament's language."""
    columns = standings_columns(tournament=tournament)
    unconfirmed = unconfirmed_of(tournament=tournament)
    with translation.override(tournament.language):
        html = render_to_string(
            "print/standings.html",
            {
                "tournament": tournament,
                "rows": standings_lines(
                    standings_for(tournament=tournament), columns=columns, unconfirmed=unconfirmed
                ),
                "unconfirmed": unconfirmed,
                "number_columns": number_columns_mm(columns),
                "number_headings": standings_headings(columns),
                "rounds_played": rounds_played(tournament=tournament),
                "paper": tournament.paper,
                "printed": timezone.localtime(),
            },
        )
    return html_pdf(html, stylesheet="report.css")


def report_pdf(*, tournament: Tournament) -> bytes:
    """The final report for the organiser's records, in the tournament's language."""
    report = report_data(tournament=tournament)
    columns = standings_columns(tournament=tournament)
    with translation.override(tournament.language):
        html = render_to_string(
            "print/report.html",
            {
                "report": report,
                "number_columns": number_columns_mm(columns),
                "number_headings": standings_headings(columns),
                "tournament": tournament,
                "paper": tournament.paper,
                "printed": timezone.localtime(),
            },
        )
    return html_pdf(html, stylesheet="report.css")
