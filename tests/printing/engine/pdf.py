"""Reading printed PDFs back in tests: pages, the grid's game rows, the drawn QR code."""

from __future__ import annotations

import io
import re
from typing import Any

from pypdf import PageObject, PdfReader


def pages_of(pdf: bytes) -> list[PageObject]:
    assert pdf.startswith(b"%PDF-")
    return list(PdfReader(io.BytesIO(pdf)).pages)


def game_rows(text: str) -> int:
    """The game numbers down the grid: the run 1, 2, 3 … after the last column labels."""
    tail = text.rsplit("Score", 1)[1].split()
    count = 0
    while count < len(tail) and tail[count] == str(count + 1):
        count += 1
    return count


def qr_matrix_drawn(page: PageObject) -> list[list[bool]]:
    """The QR code's modules as drawn on the page (the rectangles of its last stream)."""
    contents: Any = page["/Contents"]
    data = contents[-1].get_object().get_data().decode()
    rects = [
        tuple(float(v) for v in m.groups())
        for m in re.finditer(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re", data)
    ]
    left = min(r[0] for r in rects)
    top = max(r[1] + r[3] for r in rects)
    module = min(r[2] for r in rects)  # a one-module run
    size = round((max(r[0] + r[2] for r in rects) - left) / module)
    grid = [[False] * size for _ in range(size)]
    for x, y, w, _h in rects:
        row = round((top - y) / module) - 1
        for col in range(round((x - left) / module), round((x + w - left) / module)):
            grid[row][col] = True
    return grid
