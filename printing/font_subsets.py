"""The DejaVu font files, and subsets of them cut with fontTools for embedding in a PDF.

Vocabulary: a *font* is one of :data:`FONT_FILES`' keys (``sans``, ``bold``,
``mono``, ``mono-bold``); its *base* is the file as a PDF needs it, read once
per process: without the tables only a text layout engine reads (``GSUB``,
``GPOS``, ``GDEF``, ``kern``: a drawn document places its own glyphs), with
one Unicode character map and no glyph names, which makes each cut several
times cheaper. A *subset* (:class:`FontSubset`) is a base cut down by
fontTools' subsetter to the glyphs of some characters, numbered afresh from
0 (``.notdef``, what a character the font lacks shows), with each glyph's
advance and the numbers a PDF font descriptor states.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable
from dataclasses import dataclass

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
FONT_FILES: dict[str, str] = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
}
# Read by text layout engines only: a drawn document places its glyphs itself.
LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF", "kern", "FFTM")
# The character maps kept in a base: Windows Unicode, basic plane and full.
UNICODE_CMAPS = ((3, 1), (3, 10))


@functools.lru_cache(maxsize=8)
def font_bytes(font: str) -> bytes:
    """A font's whole file (``font`` is one of :data:`FONT_FILES`' keys)."""
    with open(FONT_DIR + FONT_FILES[font], "rb") as f:
        return f.read()


@functools.lru_cache(maxsize=8)
def _base(font: str) -> bytes:
    """The font file as a PDF needs it: no layout tables, one Unicode map, no glyph names."""
    from fontTools.ttLib import TTFont

    ttf = TTFont(io.BytesIO(font_bytes(font)), lazy=True, recalcTimestamp=False)
    for tag in LAYOUT_TABLES:
        if tag in ttf:
            del ttf[tag]
    cmap = ttf["cmap"]
    cmap.tables = [t for t in cmap.tables if (t.platformID, t.platEncID) in UNICODE_CMAPS]
    ttf["post"].formatType = 3.0  # names are derived from the map when needed
    out = io.BytesIO()
    ttf.save(out)
    return out.getvalue()


@dataclass(frozen=True)
class FontSubset:
    """A font cut down to some characters' glyphs, with what a PDF says of it.

    ``gids``: each character's glyph id in the subset (0 for one the font
    lacks); ``widths``: each glyph's advance in thousandths of an em;
    ``bbox``, ``ascent``, ``descent``: the whole font's, in thousandths of an em.
    """

    name: str  # the PostScript name, "DejaVuSans"
    data: bytes  # the TrueType file
    gids: dict[str, int]
    widths: dict[int, int]
    bbox: tuple[int, int, int, int]
    ascent: int
    descent: int


def font_subset(font: str, chars: Iterable[str]) -> FontSubset:
    """``font`` cut down to the glyphs of ``chars`` (and the parts they are built of)."""
    return _subset(font, frozenset(chars))


@functools.lru_cache(maxsize=32)
def _subset(font: str, chars: frozenset[str]) -> FontSubset:
    """(Kept per process: a tournament's documents are printed again after each write,
    mostly with the same letters.)"""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    ttf = TTFont(io.BytesIO(_base(font)), lazy=True, recalcBBoxes=False, recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = []
    options.notdef_outline = True
    options.glyph_names = False
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[ord(c) for c in chars])
    cutter.subset(ttf)
    out = io.BytesIO()
    ttf.save(out)

    scale = 1000 / ttf["head"].unitsPerEm
    cmap = ttf.getBestCmap()
    gids = {c: ttf.getGlyphID(cmap[ord(c)]) if ord(c) in cmap else 0 for c in chars}
    metrics = ttf["hmtx"]
    order = ttf.getGlyphOrder()
    head, hhea = ttf["head"], ttf["hhea"]
    return FontSubset(
        name=FONT_FILES[font].removesuffix(".ttf"),
        data=out.getvalue(),
        gids=gids,
        widths={gid: round(metrics[order[gid]][0] * scale) for gid in set(gids.values())},
        bbox=(
            round(head.xMin * scale),
            round(head.yMin * scale),
            round(head.xMax * scale),
            round(head.yMax * scale),
        ),
        ascent=round(hhea.ascent * scale),
        descent=round(hhea.descent * scale),
    )
