"""Sheet sets drawn from plain data, read back with pypdf: sets rendered in chunks
in this process, joined in order, saying what the plain whole-page render says; and
the printed QR code decoded back to the entry link. PDF renders cost 0.1–0.5 s each,
so the tests are few and each checks much."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from printing.data import Sheet, SheetSet
from printing.render import sheets_pdf_whole
from printing.sheet_sets import chunk_bounds, sheets_pdf
from tests.printing.engine.pdf import pages_of


@pytest.mark.parametrize(
    ("total", "size", "bounds"),
    [
        (5, 2, [(0, 2), (2, 4), (4, 5)]),
        (4, 2, [(0, 2), (2, 4)]),
        (3, 64, [(0, 3)]),
        (1, 1, [(0, 1)]),
    ],
)
def test_chunks_cover_every_page_once_in_order(
    total: int, size: int, bounds: list[tuple[int, int]]
) -> None:
    assert chunk_bounds(total, size) == bounds


def test_sets_render_in_chunks_in_this_process_in_table_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_fork() -> int:
        raise AssertionError("a sheet set is rendered without forking")

    monkeypatch.setattr(os, "fork", no_fork)
    sheets: list[Sheet] = [
        {
            "tournament": "Open",
            "round": 2,
            "stage": "",
            "table": table,
            "date": None,
            "players": [{"seat": s, "name": f"P{table}-{s}", "club": ""} for s in (1, 2)],
            "games": 3,
            "joker_penalty": 30,
            "url": f"https://example.org/m/t{table}/",
            "paper": "A4",
        }
        for table in range(1, 6)
    ]
    sheet_set: SheetSet = {
        "language": "en",
        "paper": "A4",
        "title": "Open",
        "sheets": sheets,
    }
    done: list[int] = []

    pdf = sheets_pdf(sheet_set=sheet_set, chunk_pages=2, progress=done.append)

    pages = pages_of(pdf)
    assert [p.extract_text().count(f"P{i}-1") for i, p in enumerate(pages, start=1)] == [1] * 5
    assert done == [2, 4, 5]
    # The plain render of the same sheets says the same words.
    whole = pages_of(sheets_pdf_whole(sheet_set=sheet_set))
    assert sorted(pages[2].extract_text().split()) == sorted(whole[2].extract_text().split())


def test_qr_code_decodes_to_the_entry_link(tmp_path: Path) -> None:
    """Decoded from the printed page at 100 dpi, when a decoder is installed
    (zxing-cpp is not among the project's dependencies: skipped otherwise)."""
    zxingcpp = pytest.importorskip("zxingcpp")
    image = pytest.importorskip("PIL.Image")
    url = "https://rackscore.example.org/m/Zq3x-9kLmN0pQrStUvWxYz12/"
    sheet_set: SheetSet = {
        "language": "en",
        "paper": "A4",
        "title": "Open",
        "sheets": [
            {
                "tournament": "Open",
                "round": 1,
                "stage": "",
                "table": 7,
                "date": None,
                "players": [{"seat": s, "name": f"P{s}", "club": ""} for s in (1, 2, 3)],
                "games": 4,
                "joker_penalty": 30,
                "url": url,
                "paper": "A4",
            }
        ],
    }
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(sheets_pdf(sheet_set=sheet_set))
    subprocess.run(["pdftoppm", "-png", "-r", "100", str(pdf), str(tmp_path / "p")], check=True)
    (png,) = tmp_path.glob("p*.png")
    assert [b.text for b in zxingcpp.read_barcodes(image.open(png))] == [url]


def test_two_threads_render_at_once() -> None:
    import threading

    from printing.render import html_pdf

    results: list[bytes] = []

    def render(i: int) -> None:
        results.append(html_pdf(f"<p>Page {i}</p>", stylesheet="sheet.css"))

    threads = [threading.Thread(target=render, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(results) == 2 and all(pages_of(r) for r in results)
