"""Text widths from the font's own metrics: how big a name may be printed, with no layout.

Vocabulary: an *advance* is how far a character moves the pen, in em (the
font size); a name's *size class* (``""``, ``f1``, ``f2``; ``f3`` for two
lines) is the largest of :data:`NAME_SIZES` at which it fits its cell on
one line. Measuring here costs microseconds; asking WeasyPrint to shrink to
fit would cost a layout per name.
"""

from __future__ import annotations

import functools
import io

from printing.font_subsets import font_bytes

NAME_SIZES = (("", 11.0), ("f1", 9.5), ("f2", 8.0))
NAME_PADDING_MM = 10.0  # 7 mm for the seat number, the rest to keep clear of the line
PT_MM = 25.4 / 72
UNKNOWN_ADVANCE = 0.6  # em, for a character the font file does not have (or no file)


@functools.lru_cache(maxsize=8)
def advances(font: str = "sans") -> dict[str, float]:
    """A DejaVu font's advance widths in em, by character ({} when the file is elsewhere);
    ``font`` is one of :data:`.font_subsets.FONT_FILES`."""
    from fontTools.ttLib import TTFont

    try:
        data = font_bytes(font)
    except OSError:
        return {}
    ttf = TTFont(io.BytesIO(data), lazy=True)
    metrics, per_em = ttf["hmtx"], ttf["head"].unitsPerEm
    return {chr(c): metrics[g][0] / per_em for c, g in ttf.getBestCmap().items()}


def text_width_mm(text: str, *, size: float, font: str = "sans") -> float:
    """The width of a line of ``text`` at ``size`` pt (0.6 em for an unknown character)."""
    known = advances(font)
    return sum(known.get(c, UNKNOWN_ADVANCE) for c in text) * size * PT_MM


def name_fit(name: str, *, width: float) -> str:
    """The size class that fits a name on one line of a ``width`` mm name cell
    (``f3``: two lines), measured with the font's metrics: no layout needed."""
    room = width - NAME_PADDING_MM
    for fit, size in NAME_SIZES:
        if text_width_mm(name, size=size) <= room:
            return fit
    return "f3"
