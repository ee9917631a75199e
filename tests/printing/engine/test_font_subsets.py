"""Fonts cut by fontTools for drawn documents: the text reads back as written (pdftotext),
Danish, Swedish and German letters included, and what is embedded is a subset, not the
whole DejaVu file."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from printing.drawn import Group, Text, drawn_pdf
from printing.font_subsets import FONT_FILES, font_bytes, font_subset
from printing.fonts import advances

LINES = [
    ("sans", "Søren Østergaard, Ærø; Åsa Bäckström"),
    ("bold", "Jürgen Müller, Straße 12"),
    ("mono", "ÆØÅ æøå ÄÖÜ äöü ß 1234,50"),
    ("mono-bold", "Øystein Dahl 98.25"),
]


def _drawn(lines: list[tuple[str, str]]) -> bytes:
    marks = [
        Text(x=20, y=20 + 10 * i, text=text, font=font) for i, (font, text) in enumerate(lines)
    ]
    return drawn_pdf(
        pages=[[Group(dy=0, marks=marks)]], paper_mm=(210, 297), title="Prøve", language="da"
    )


def _embedded(pdf: bytes) -> dict[str, TTFont]:
    """Each embedded font by its PDF name, read back by fontTools."""
    found = {}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        resources: Any = page["/Resources"]
        for ref in resources["/Font"].values():
            font = ref.get_object()
            descendant = font["/DescendantFonts"][0].get_object()
            data = descendant["/FontDescriptor"]["/FontFile2"].get_object().get_data()
            found[str(font["/BaseFont"])] = TTFont(io.BytesIO(data))
    return found


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler's pdftotext is not installed")
def test_drawn_text_extracts_as_written_with_nordic_and_german_letters(tmp_path: Path) -> None:
    path = tmp_path / "drawn.pdf"
    path.write_bytes(_drawn(LINES))

    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout

    assert [line for line in out.splitlines() if line.strip()] == [text for _f, text in LINES]


def test_each_font_is_embedded_as_a_subset_of_the_letters_used() -> None:
    pdf = _drawn(LINES)

    fonts = _embedded(pdf)

    assert len(fonts) == len(LINES)
    for font, text in LINES:
        (name,) = [n for n in fonts if n.endswith("+" + FONT_FILES[font].removesuffix(".ttf"))]
        tag = name.removeprefix("/").split("+")[0]
        assert len(tag) == 6 and tag.isupper()  # the subset tag PDF viewers look for
        embedded = fonts[name]
        whole = TTFont(io.BytesIO(font_bytes(font)))
        # The letters used, .notdef and the parts of composed letters (Å: A and a ring),
        # nothing else: DejaVu has thousands of glyphs.
        assert set(map(chr, embedded.getBestCmap())) == set(text)
        glyphs = embedded["maxp"].numGlyphs
        assert len(set(text)) + 1 <= glyphs <= 2 * len(set(text)) + 1
        assert glyphs < whole["maxp"].numGlyphs // 20
        assert "GPOS" not in embedded and "GSUB" not in embedded


@pytest.mark.parametrize("font", list(FONT_FILES))
def test_a_subset_numbers_its_glyphs_afresh_with_the_whole_fonts_advances(font: str) -> None:
    subset = font_subset(font, "Bøß")
    whole = advances(font)

    assert sorted(subset.gids.values()) == [1, 2, 3]  # 0 is .notdef
    assert {c: subset.widths[g] for c, g in subset.gids.items()} == {
        c: round(whole[c] * 1000) for c in "Bøß"
    }


def test_a_letter_the_font_lacks_is_drawn_as_notdef() -> None:
    subset = font_subset("mono", "a漢")

    assert subset.gids["漢"] == 0 and subset.gids["a"] == 1
    assert TTFont(io.BytesIO(subset.data))["maxp"].numGlyphs == 2
