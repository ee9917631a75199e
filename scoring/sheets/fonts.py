"""Text widths from the font's own metrics: how big a name may be printed, with no layout.

Vocabulary: an *advance* is how far a character moves the pen, in em (the
font size); a name's *size class* (``""``, ``f1``, ``f2``; ``f3`` for two
lines) is the largest of :data:`NAME_SIZES` at which it fits its cell on
one line. Measuring here costs microseconds; asking WeasyPrint to shrink to
fit would cost a layout per name.
"""

from __future__ import annotations

import functools

NAME_SIZES = (("", 11.0), ("f1", 9.5), ("f2", 8.0))
NAME_PADDING_MM = 10.0  # 7 mm for the seat number, the rest to keep clear of the line
PT_MM = 25.4 / 72
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)
UNKNOWN_ADVANCE = 0.6  # em, for a character the font file does not have (or no file)


@functools.lru_cache(maxsize=1)
def advances() -> dict[str, float]:
    """DejaVu Sans's advance widths in em, by character ({} when the file is elsewhere)."""
    from fontTools.ttLib import TTFont

    for path in FONT_FILES:
        try:
            font = TTFont(path, lazy=True)
        except OSError:
            continue
        metrics, per_em = font["hmtx"], font["head"].unitsPerEm
        return {chr(c): metrics[g][0] / per_em for c, g in font.getBestCmap().items()}
    return {}


def text_width_mm(text: str, *, size: float) -> float:
    """The width of a line of DejaVu Sans at ``size`` pt (0.6 em for an unknown character)."""
    known = advances()
    return sum(known.get(c, UNKNOWN_ADVANCE) for c in text) * size * PT_MM


def name_fit(name: str, *, width: float) -> str:
    """The size class that fits a name on one line of a ``width`` mm name cell
    (``f3``: two lines), measured with the font's metrics: no layout needed."""
    room = width - NAME_PADDING_MM
    for fit, size in NAME_SIZES:
        if text_width_mm(name, size=size) <= room:
            return fit
    return "f3"
