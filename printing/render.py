"""HTML to PDF with WeasyPrint, in this process: whole sheets, static layers, any document.

Vocabulary: a sheet set's HTML (:func:`sheets_html`) is one document with a
page per sheet, from the ``print/sheets.html`` template, with one *layer*
(``"static"``, ``"page"``) or both. A static layer depends only on its
:class:`StaticKey`, so a round lays it out once (:func:`static_pdf`, kept
per process). The *fetcher* is the only way WeasyPrint reaches outside the
document: it serves the grid pictures and ``data:`` URLs, and nothing else.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import gc
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Literal, NamedTuple

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import translation

from printing.data import Sheet, SheetSet
from printing.fonts import name_fit
from printing.layout import SheetLayout, grid_svg, layout_css, layout_of
from printing.qr import qr_svg
from scoring.rules import starting_seat

Layers = Literal["static", "page", "both"]


@functools.lru_cache(maxsize=1)
def _fetcher() -> Any:
    """A URL fetcher that serves the grid pictures and data: URLs, and nothing else.

    Prints carry names typed by users; nothing in them may make the server
    read a file or fetch a network address.
    """
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class Fetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint is untyped
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith("rackscore:grid/"):
                paper, size = url.removeprefix("rackscore:grid/").removesuffix(".svg").split("/")
                players, games = (int(v) for v in size.split("x"))
                svg = grid_svg(paper=paper, players=players, games=games)
                return URLFetcherResponse(url, svg.encode(), {"Content-Type": "image/svg+xml"})
            return super().fetch(url, headers)

    return Fetcher(allowed_protocols=["data"])


@functools.lru_cache(maxsize=8)
def _stylesheet(name: str) -> Any:
    from weasyprint import CSS

    path = finders.find(f"print/{name}")
    if not isinstance(path, str):
        raise FileNotFoundError(f"static/print/{name}")
    return CSS(filename=path, url_fetcher=_fetcher())


_GC_PAUSES = [0]  # renders running with the collector paused
_GC_LOCK = threading.Lock()


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cycle collector: a layout's boxes all live until the PDF is written,
    and collecting while WeasyPrint builds them costs a fifth of its time for nothing.
    (Renders run side by side: the last one out turns it back on.)"""
    with _GC_LOCK:
        if _GC_PAUSES[0] == 0:
            _GC_PAUSES.append(int(gc.isenabled()))
            gc.disable()
        _GC_PAUSES[0] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_PAUSES[0] -= 1
            if _GC_PAUSES[0] == 0 and _GC_PAUSES.pop():
                gc.enable()


def html_pdf(html: str, *, stylesheet: str) -> bytes:
    """One HTML document to PDF bytes, in this process, styled by ``static/print/<stylesheet>``."""
    from weasyprint import HTML

    with _gc_paused():
        document = HTML(string=html, base_url="rackscore:/", url_fetcher=_fetcher())
        return bytes(document.write_pdf(stylesheets=[_stylesheet(stylesheet)]))


class StaticKey(NamedTuple):
    """Everything a sheet's static layer depends on."""

    paper: str
    players: int
    games: int
    language: str
    joker_penalty: int
    variants: tuple[int | None, int, int]  # loss cap, winner's and runner-up's bonus
    entry_link: bool
    tournament: str
    round: int | None  # None: a blank pad sheet
    stage: str
    date: datetime.date | None


def static_key(sheet: Sheet, *, language: str) -> StaticKey:
    return StaticKey(
        paper=sheet["paper"],
        players=len(sheet["players"]),
        games=sheet["games"],
        language=language,
        joker_penalty=sheet["joker_penalty"],
        variants=(
            sheet.get("loss_cap"),
            sheet.get("winner_bonus", 0),
            sheet.get("runner_up_bonus", 0),
        ),
        entry_link=bool(sheet["url"]),
        tournament=sheet["tournament"],
        round=sheet["round"],
        stage=sheet["stage"],
        date=sheet["date"],
    )


def sheets_html(
    *, sheet_set: SheetSet, sheets: Sequence[Sheet] | None = None, layers: Layers = "both"
) -> str:
    """One HTML document with a page per sheet, in the set's language.

    ``layers`` is ``"static"`` (the grid picture and the words every sheet of a
    round shares), ``"page"`` (only the words that differ from sheet to sheet)
    or ``"both"`` (whole sheets, the QR code as inline SVG).
    """
    chosen = sheet_set["sheets"] if sheets is None else sheets
    pages: list[dict[str, object]] = []
    layouts: dict[str, SheetLayout] = {}
    for sheet in chosen:
        layout = layout_of(sheet)
        layouts[layout.key] = layout
        size = len(sheet["players"])
        pages.append(
            {
                "sheet": sheet,
                "layout": layout,
                "qr": qr_svg(sheet["url"]) if sheet["url"] and layers == "both" else "",
                "rows": [
                    (g, starting_seat(game_number=g, table_size=size))
                    for g in range(1, sheet["games"] + 1)
                ],
                "names": [
                    (p, name_fit(p["name"], width=layout.groups[0].w)) for p in sheet["players"]
                ],
            }
        )
    with translation.override(sheet_set["language"]):
        return render_to_string(
            "print/sheets.html",
            {
                "pages": pages,
                "title": sheet_set["title"],
                "paper": sheet_set["paper"],
                "language": sheet_set["language"],
                "layout_css": "\n".join(layout_css(lay) for lay in layouts.values()),
                "static": layers in ("static", "both"),
                "page_layer": layers in ("page", "both"),
                # Whole sheets are wrapped in a box carrying the grid picture; a
                # page layer's blocks sit straight in the page (one box less each).
                "wrap": layers in ("static", "both"),
            },
        )


@functools.lru_cache(maxsize=32)
def static_pdf(key: StaticKey) -> bytes:
    """A static layer as a one-page PDF (kept per process: a round prints it again and again)."""
    sheet: Sheet = {
        "tournament": key.tournament,
        "round": key.round,
        "stage": key.stage,
        "table": None if key.round is None else 0,
        "date": key.date,
        "players": [{"seat": i, "name": "", "club": ""} for i in range(1, key.players + 1)],
        "games": key.games,
        "joker_penalty": key.joker_penalty,
        "loss_cap": key.variants[0],
        "winner_bonus": key.variants[1],
        "runner_up_bonus": key.variants[2],
        "url": "-" if key.entry_link else "",
        "paper": key.paper,
    }
    sheet_set: SheetSet = {
        "language": key.language,
        "paper": key.paper,
        "title": key.tournament,
        "sheets": [sheet],
    }
    return html_pdf(sheets_html(sheet_set=sheet_set, layers="static"), stylesheet="sheet.css")


def sheets_pdf_whole(*, sheet_set: SheetSet) -> bytes:
    """The sheets the plain way: every page whole, one document, one process.

    Same look as :func:`printing.sheet_sets.sheets_pdf`, several times slower
    on a large round; kept as the benchmark's baseline and as the reference
    the layers must match.
    """
    return html_pdf(sheets_html(sheet_set=sheet_set, layers="both"), stylesheet="sheet.css")
