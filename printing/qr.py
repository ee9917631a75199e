"""The QR code of a sheet's entry link: as inline SVG, or as PDF operators.

Vocabulary: a *module* is one square of the code; a *run* is a horizontal
stretch of dark modules in one row, drawn as one filled rectangle. Codes
are level M (15 % of a code may be soiled and it still reads) with a fixed
mask (see :data:`QR_MASK`).
"""

from __future__ import annotations

import segno

from printing.layout import MARGIN_MM, MM, Box

# segno picks the best of the 8 data masks by scoring each (ISO 18004 7.8.3),
# which is 80 % of its time: 6 ms a code, a fifth of a round's whole print. A
# fixed mask makes a code every reader decodes, in 1 ms.
QR_MASK = 0


def qr_code(url: str) -> segno.QRCode:
    """The QR code of an entry link: level M (15 % of it may be soiled), fixed mask."""
    return segno.make(url, error="m", mask=QR_MASK, micro=False, boost_error=False)


def qr_svg(url: str) -> str:
    """The QR code of a URL as inline vector SVG, sized by CSS (whole sheets)."""
    return str(qr_code(url).svg_inline(border=0, omitsize=True, svgclass="qrc"))


def qr_ops(url: str, *, box: Box, page_height: float) -> bytes:
    """PDF operators that draw the QR code of a URL into ``box`` (mm, content area).

    A filled rectangle per horizontal run of dark modules. PDF space has its
    origin at the page's bottom left and counts in points.
    """
    matrix = [list(row) for row in qr_code(url).matrix_iter(border=0)]
    size = len(matrix)
    module = box.w * MM / size
    left = (MARGIN_MM + box.x) * MM
    top = (page_height - MARGIN_MM - box.y) * MM
    ops = ["q 0 0 0 rg"]
    for r, row in enumerate(matrix):
        y = top - (r + 1) * module
        c = 0
        while c < size:
            if not row[c]:
                c += 1
                continue
            start = c
            while c < size and row[c]:
                c += 1
            # A hair taller than a module, so that adjacent rows leave no seam.
            ops.append(
                f"{left + start * module:.3f} {y - 0.02:.3f} "
                f"{(c - start) * module:.3f} {module + 0.04:.3f} re"
            )
    ops.append("f Q")
    return "\n".join(ops).encode()
