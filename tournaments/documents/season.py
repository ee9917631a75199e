"""A season's table as a drawn PDF, laid out by :mod:`printing.table_layout`
as the standings are, words in the active language.

Vocabulary: the table has rank, player, points, evenings and best, then one
column per evening (its points; an evening that does not count is in
brackets); the players not yet qualified follow in a table of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from printing.drawn import drawn_pdf
from printing.layout import PAPER_MM
from printing.table_layout import (
    MARGIN_SIDE,
    Block,
    Column,
    blocks_paginated,
    content_width,
    document_head,
    page_numbers_added,
    paragraph,
    rank_column_mm,
    table_blocks,
)
from tournaments.numbers import number_text
from tournaments.selectors.seasons import EveningLine, SeasonView
from tournaments.standings.season import SeasonRow

PAPER = "A4"
RANK_MM, PLAYER_MM, NUMBER_MM = 10.0, 46.0, 16.0
EVENING_MM_MIN = 9.0


def _columns(evenings: int, *, rank_mm: float = RANK_MM) -> list[Column]:
    x, width = MARGIN_SIDE, content_width(PAPER)
    fixed = [rank_mm, PLAYER_MM, NUMBER_MM, NUMBER_MM, NUMBER_MM]
    rest = width - sum(fixed)
    evening_mm = max(EVENING_MM_MIN, rest / evenings) if evenings else 0.0
    columns = []
    for i, w in enumerate([*fixed, *([evening_mm] * evenings)]):
        columns.append(Column(x, w, "left" if i == 1 else "right", pad=0.8))
        x += w
    return columns


def _cell(row: SeasonRow, evening: EveningLine) -> str:
    points = row.by_evening.get(evening.id)
    if points is None:
        return ""
    text = number_text(points)
    return text if evening.id in row.counted else f"({text})"


def _table(rows: Sequence[SeasonRow], evenings: list[EveningLine], *, empty: str) -> list[Block]:
    # The rank column holds its heading's word whole ("Placering", "Plassering");
    # as many of the latest evenings as fit beside the fixed columns.
    rank_mm = rank_column_mm(gettext("Rank"))
    fixed_mm = rank_mm + PLAYER_MM + 3 * NUMBER_MM
    shown = evenings[-max(1, int((content_width(PAPER) - fixed_mm) // EVENING_MM_MIN)) :]
    headings = [
        gettext("Rank"),
        gettext("Player"),
        gettext("Points"),
        gettext("Evenings"),
        gettext("Best"),
        *(formats.date_format(e.day, "SHORT_DATE_FORMAT") for e in shown),
    ]
    lines = [
        (
            [
                str(row.rank) if row.rank is not None else "",
                row.name,
                number_text(row.points),
                str(row.evenings),
                number_text(row.best),
                *(_cell(row, e) for e in shown),
            ],
            0.0,
        )
        for row in rows
    ]
    return table_blocks(_columns(len(shown), rank_mm=rank_mm), headings, lines, empty=empty)


def season_document(*, view: SeasonView) -> bytes:
    """The season table, its evenings as columns, the unranked apart."""
    season = view.season
    heading = gettext("Season table")
    meta = " · ".join(
        [
            f"{formats.date_format(season.starts, 'DATE_FORMAT')} – "
            f"{formats.date_format(season.ends, 'DATE_FORMAT')}",
            str(season.get_evening_points_display()),
            f"{gettext('printed')} {formats.date_format(timezone.localtime(), 'DATETIME_FORMAT')}",
        ]
    )
    blocks = document_head(
        paper=PAPER, org=f"{season.club.name} · {season.name}", heading=heading, meta=meta
    )
    counted = [e for e in view.evenings if e.counts]
    blocks += _table(view.table.ranked, counted, empty=gettext("No evening has a result yet."))
    if view.table.unranked:
        blocks.append(
            paragraph(gettext("Not yet qualified"), paper=PAPER, size=12, font="bold", before=4)
        )
        blocks += _table(view.table.unranked, counted, empty="")
    blocks.append(
        paragraph(
            gettext("Points in brackets are from evenings that do not count."),
            paper=PAPER,
            size=8,
            before=2,
        )
    )
    pages = page_numbers_added(blocks_paginated(blocks, paper=PAPER), paper=PAPER)
    return drawn_pdf(
        pages=pages,
        paper_mm=PAPER_MM[PAPER],
        title=f"{heading} – {season.name}",
        language=translation.get_language() or "en",
    )
