"""A sheet set as one PDF, in this process: page layers rendered in chunks, joined over
their static layers.

Vocabulary: the pages of a set are split into *chunks* of whole pages
(:data:`CHUNK_PAGES`, or fewer for a finer ``progress``); each chunk's page
layers are one WeasyPrint document, with each page's QR code drawn as PDF
operators; the static layers are laid out once per round (:func:`.render.static_pdf`)
and the chunks are joined in order over them (:mod:`.join`). Nothing here
starts a process: a large set is as slow as its pages, and belongs in
background work rather than a request.
"""

from __future__ import annotations

from collections.abc import Callable

from printing.data import SheetSet
from printing.join import Chunk, layers_join
from printing.layout import PAPER_MM, layout_of
from printing.qr import qr_ops
from printing.render import html_pdf, sheets_html

# Pages laid out as one WeasyPrint document: a document's boxes all live until its
# PDF is written, so a bound keeps a large round's memory flat, at no cost in time.
CHUNK_PAGES = 64


def chunk_bounds(total: int, size: int) -> list[tuple[int, int]]:
    """Runs of ``size`` pages (the last one shorter), as (start, stop)."""
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def chunk_render(sheet_set: SheetSet, bounds: tuple[int, int]) -> Chunk:
    """The page layers of the sheets ``bounds`` (start, stop) and their QR codes."""
    sheets = sheet_set["sheets"][bounds[0] : bounds[1]]
    html = sheets_html(sheet_set=sheet_set, sheets=sheets, layers="page")
    return Chunk(
        pdf=html_pdf(html, stylesheet="sheet.css"),
        qr=[
            qr_ops(s["url"], box=layout_of(s).qr, page_height=PAPER_MM[s["paper"]][1])
            if s["url"]
            else b""
            for s in sheets
        ],
    )


def sheets_pdf(
    *,
    sheet_set: SheetSet,
    chunk_pages: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """A sheet set as one PDF, a page per sheet, in the set's order.

    ``progress`` is called with the number of pages done after each chunk
    of ``chunk_pages`` (default :data:`CHUNK_PAGES`).
    """
    sheets = sheet_set["sheets"]
    if not sheets:
        raise ValueError("a sheet set without sheets has no pages")
    if any(s["paper"] != sheet_set["paper"] for s in sheets):
        raise ValueError("the sheets of a set share its paper size")
    if chunk_pages is not None and chunk_pages < 1:
        raise ValueError("a chunk has at least one page")
    chunks: list[Chunk] = []
    for bounds in chunk_bounds(len(sheets), chunk_pages or CHUNK_PAGES):
        chunks.append(chunk_render(sheet_set, bounds))
        if progress:
            progress(bounds[1])
    return layers_join(sheet_set=sheet_set, chunks=chunks)
