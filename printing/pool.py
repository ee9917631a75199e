"""A sheet set as one PDF: large sets in forked worker processes, then joined.

Vocabulary: the pages of a set are split into *chunks* of whole pages; a
*worker* is a forked process that renders chunks of page layers (and their
QR codes) while this process lays out the static layers; the chunks are
then joined in order over their static layers (:mod:`.join`). Workers are
forked, not spawned, so that they start with fonts, templates and
WeasyPrint's caches already loaded (:func:`_warm`) and read their chunk of
the set from :data:`_JOB`, their copy of this process's memory.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
from collections.abc import Callable

from django.db import connections

from printing.data import SheetSet
from printing.fonts import advances
from printing.join import Chunk, layers_join
from printing.layout import PAPER_MM, layout_of
from printing.qr import qr_ops
from printing.render import forking, html_pdf, sheets_html, static_key, static_pdf

# Below this many pages one process beats forking workers and joining their chunks.
PARALLEL_MIN_PAGES = 16

# The sheet set being rendered, set just before forking: each worker reads its
# chunk from its own copy. Set and cleared while forking (no render runs then).
_JOB: dict[str, SheetSet] = {}


def _chunk_of_job(bounds: tuple[int, int]) -> Chunk:
    """A pool worker's task: its chunk of the sheet set it was forked with."""
    return _chunk_render(_JOB["sheet_set"], bounds)


def _chunk_render(sheet_set: SheetSet, bounds: tuple[int, int]) -> Chunk:
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


@functools.lru_cache(maxsize=1)
def _warm() -> None:
    """Load fonts and WeasyPrint's caches before forking, so that every worker starts warm."""
    html_pdf("<p>Rackscore <b>1</b></p>", stylesheet="sheet.css")
    advances()


def workers_default() -> int:
    """Worker processes for large prints: the cores this process may use, at most two."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


def _chunks(total: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` runs of pages of (nearly) equal length, as (start, stop)."""
    size, extra = divmod(total, parts)
    bounds, start = [], 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        if stop > start:
            bounds.append((start, stop))
        start = stop
    return bounds


def _connections_close() -> None:
    """Close database connections before forking: the workers never use them.

    A forked worker would share this process's socket to the database. A
    connection inside a transaction (an atomic request, a test) stays open:
    closing it would end the transaction. The workers leave with
    ``os._exit`` and never touch it.
    """
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def sheets_pdf(
    *,
    sheet_set: SheetSet,
    workers: int | None = None,
    chunk_pages: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """A sheet set as one PDF, a page per sheet, in the set's order.

    From :data:`PARALLEL_MIN_PAGES` pages on, the pages are split into chunks
    rendered by ``workers`` forked processes (default: both cores). Smaller
    ``chunk_pages`` make more chunks, for a finer ``progress`` (called with the
    number of pages done) at a small cost.
    """
    sheets = sheet_set["sheets"]
    if not sheets:
        raise ValueError("a sheet set without sheets has no pages")
    if any(s["paper"] != sheet_set["paper"] for s in sheets):
        raise ValueError("the sheets of a set share its paper size")
    workers = workers or workers_default()
    if len(sheets) < PARALLEL_MIN_PAGES or multiprocessing.current_process().daemon:
        workers = 1  # (a daemon process, such as a pool worker, may not fork its own)
    parts = max(workers, -(-len(sheets) // chunk_pages) if chunk_pages else 1)
    bounds = _chunks(len(sheets), parts)
    keys = {static_key(s, language=sheet_set["language"]) for s in sheets}

    chunks: list[Chunk] = []
    if workers == 1:
        for b in bounds:
            chunks.append(_chunk_render(sheet_set, b))
            if progress:
                progress(b[1])
    else:
        _warm()
        _connections_close()
        with forking():  # (Pool forks its workers here, each with its copy of _JOB)
            _JOB["sheet_set"] = sheet_set
            try:
                pool = multiprocessing.get_context("fork").Pool(workers)
            finally:
                _JOB.clear()
        with pool:
            pending = pool.imap(_chunk_of_job, bounds)
            for key in keys:  # laid out here while the workers run
                static_pdf(key)
            for b, chunk in zip(bounds, pending, strict=True):
                chunks.append(chunk)
                if progress:
                    progress(b[1])
    return layers_join(sheet_set=sheet_set, chunks=chunks)
