"""Documents drawn straight into PDF operators: text, rules and shades at positions we computed.

Vocabulary: a *drawn* document is a list of pages, each a list of *marks*
(:class:`Text`, :class:`Rule`, :class:`Shade`) placed in millimetres from
the paper's top left corner; a text mark's ``y`` is its baseline. Nothing is
laid out here: the caller has measured every string (:func:`.fonts.text_width_mm`)
and decided every line break. Fonts are DejaVu, embedded as subsets cut by
fontTools (:mod:`.font_subsets`: only the glyphs the document uses) with a
to-Unicode map, so the text can be searched and copied.

Why: a laid-out document (WeasyPrint) costs about a millisecond per line of
text, 50 s for a large event's report; drawing the same lines here costs
microseconds each and needs neither Pango nor a render lock.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Sequence
from typing import Literal, NamedTuple

from printing.font_subsets import font_subset
from printing.fonts import text_width_mm

FontName = Literal["sans", "bold", "mono", "mono-bold"]
PT_PER_MM = 72 / 25.4


class Text(NamedTuple):
    x: float
    y: float  # the baseline
    text: str
    font: FontName = "sans"
    size: float = 9.0  # pt
    grey: float = 0.0  # 0 black .. 1 white
    align: Literal["left", "right"] = "left"  # right: x is where the text ends


class Rule(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.2  # mm
    grey: float = 0.0


class Shade(NamedTuple):
    x: float
    y: float
    w: float
    h: float
    grey: float = 0.9


Mark = Text | Rule | Shade


class Group(NamedTuple):
    """Marks moved down the page by ``dy`` mm (a block placed by pagination: moving the
    group, not each mark, keeps placing a 70-page report cheap)."""

    dy: float
    marks: Sequence[Mark]


Page = Sequence[Group]


def text_wrapped(
    text: str, *, width: float, font: str = "sans", size: float, break_words: bool = True
) -> list[str]:
    """``text`` broken into lines no wider than ``width`` mm: at spaces, and inside a
    word only when the word alone is wider (no letter is ever dropped); without
    ``break_words``, such a word stays whole and overflows."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width_mm(candidate, font=font, size=size) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        if not break_words:
            line = word
            continue
        for char in word:  # a word wider than the line: break it where it must
            if line and text_width_mm(line + char, font=font, size=size) > width:
                lines.append(line)
                line = ""
            line += char
    lines.append(line)
    return lines


class _Font:
    """One font as embedded: a subset with the glyphs in use, each used character's id."""

    def __init__(self, font: str, chars: set[str]) -> None:
        self.subset = font_subset(font, chars)
        self.hex = {c: f"{gid:04X}" for c, gid in self.subset.gids.items()}

    def encoded(self, text: str) -> str:
        return "".join(self.hex[c] for c in text)


def _num(value: float) -> str:
    return f"{value:.2f}"


def _pdf_string(text: str) -> bytes:
    """A text string for the document's information: UTF-16 with its byte-order mark, in hex."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def _to_unicode(font: _Font) -> bytes:
    pairs = sorted((gid, char) for char, gid in font.subset.gids.items() if gid)
    lines = [
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
        "1 begincodespacerange <0000> <FFFF> endcodespacerange",
    ]
    for start in range(0, len(pairs), 100):
        chunk = pairs[start : start + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines.extend(
            f"<{gid:04X}> <{char.encode('utf-16-be').hex().upper()}>" for gid, char in chunk
        )
        lines.append("endbfchar")
    lines.append("endcmap CMapName currentdict /CMap defineresource pop end end")
    return "\n".join(lines).encode()


def _page_content(page: Page, *, height: float, fonts: dict[str, _Font]) -> bytes:
    """A page's content stream: rules and shades first, then the text over them."""
    keys = {name: f"F{i}" for i, name in enumerate(fonts)}
    ops: list[str] = []
    texts: list[tuple[float, Text]] = []
    k = PT_PER_MM
    for dy, marks in page:
        for mark in marks:
            if isinstance(mark, Text):
                texts.append((dy, mark))
            elif isinstance(mark, Shade):
                bottom = height - mark.y - dy - mark.h
                ops.append(
                    f"{_num(mark.grey)} g {_num(mark.x * k)} {_num(bottom * k)} "
                    f"{_num(mark.w * k)} {_num(mark.h * k)} re f"
                )
            else:
                ops.append(
                    f"{_num(mark.width * k)} w {_num(mark.grey)} G "
                    f"{_num(mark.x1 * k)} {_num((height - mark.y1 - dy) * k)} m "
                    f"{_num(mark.x2 * k)} {_num((height - mark.y2 - dy) * k)} l S"
                )
    if texts:
        ops.append("BT")
        current: tuple[str, float, float] | None = None
        for dy, t in texts:
            if current is None or current[:2] != (t.font, t.size):
                ops.append(f"/{keys[t.font]} {_num(t.size)} Tf")
            if current is None or current[2] != t.grey:
                ops.append(f"{_num(t.grey)} g")
            current = (t.font, t.size, t.grey)
            x = t.x - text_width_mm(t.text, font=t.font, size=t.size) if t.align == "right" else t.x
            ops.append(
                f"1 0 0 1 {_num(x * k)} {_num((height - t.y - dy) * k)} Tm "
                f"<{fonts[t.font].encoded(t.text)}> Tj"
            )
        ops.append("ET")
    return "\n".join(ops).encode()


class _Writer:
    """The objects of one PDF file, numbered as they are added."""

    def __init__(self) -> None:
        self.objects: list[bytes] = []

    def reserve(self) -> int:
        self.objects.append(b"")
        return len(self.objects)

    def put(self, body: bytes, number: int | None = None) -> int:
        if number is None:
            number = self.reserve()
        self.objects[number - 1] = body
        return number

    def stream(self, data: bytes, extra: str = "") -> int:
        packed = zlib.compress(data, 6)
        head = f"<< /Length {len(packed)} /Filter /FlateDecode {extra}>>\nstream\n".encode()
        return self.put(head + packed + b"\nendstream")

    def bytes(self, *, root: int, info: int) -> bytes:
        out = io.BytesIO()
        out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(self.objects, 1):
            offsets.append(out.tell())
            out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
        xref = out.tell()
        out.write(f"xref\n0 {len(self.objects) + 1}\n0000000000 65535 f \n".encode())
        out.write("".join(f"{o:010d} 00000 n \n" for o in offsets).encode())
        out.write(
            f"trailer\n<< /Size {len(self.objects) + 1} /Root {root} 0 R /Info {info} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n".encode()
        )
        return out.getvalue()


def _font_objects(writer: _Writer, font: _Font, tag: str) -> int:
    subset = font.subset
    name = f"{tag}+{subset.name}"
    file_ = writer.stream(subset.data, f"/Length1 {len(subset.data)} ")
    descriptor = writer.put(
        f"<< /Type /FontDescriptor /FontName /{name} /Flags 32 "
        f"/FontBBox [{' '.join(map(str, subset.bbox))}] /ItalicAngle 0 /Ascent {subset.ascent} "
        f"/Descent {subset.descent} /CapHeight {subset.ascent} /StemV 80 "
        f"/FontFile2 {file_} 0 R >>".encode()
    )
    widths = " ".join(f"{gid} [{w}]" for gid, w in sorted(subset.widths.items()))
    cid = writer.put(
        f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{name} "
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
        f"/FontDescriptor {descriptor} 0 R /W [{widths}] /CIDToGIDMap /Identity >>".encode()
    )
    unicode = writer.stream(_to_unicode(font))
    return writer.put(
        f"<< /Type /Font /Subtype /Type0 /BaseFont /{name} /Encoding /Identity-H "
        f"/DescendantFonts [{cid} 0 R] /ToUnicode {unicode} 0 R >>".encode()
    )


def drawn_pdf(
    *, pages: Sequence[Page], paper_mm: tuple[float, float], title: str, language: str
) -> bytes:
    """The pages as one PDF on paper of ``paper_mm`` (width, height), titled, in ``language``."""
    width, height = paper_mm
    used: dict[str, set[str]] = {}
    for page in pages:
        for _dy, marks in page:
            for mark in marks:
                if isinstance(mark, Text):
                    used.setdefault(mark.font, set()).update(mark.text)
    fonts = {name: _Font(name, chars) for name, chars in sorted(used.items())}
    writer = _Writer()
    root, tree = writer.reserve(), writer.reserve()
    font_refs = " ".join(
        f"/F{i} {_font_objects(writer, font, f'RSAAA{chr(65 + i)}')} 0 R"
        for i, font in enumerate(fonts.values())
    )
    resources = writer.put(f"<< /Font << {font_refs} >> >>".encode())
    kids = []
    for page in pages:
        content = writer.stream(_page_content(page, height=height, fonts=fonts))
        kids.append(
            writer.put(
                f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 {_num(width * PT_PER_MM)} "
                f"{_num(height * PT_PER_MM)}] /Resources {resources} 0 R "
                f"/Contents {content} 0 R >>".encode()
            )
        )
    refs = " ".join(f"{k} 0 R" for k in kids)
    writer.put(f"<< /Type /Pages /Kids [{refs}] /Count {len(kids)} >>".encode(), tree)
    writer.put(
        f"<< /Type /Catalog /Pages {tree} 0 R /Lang ".encode() + _pdf_string(language) + b" >>",
        root,
    )
    info = writer.put(b"<< /Title " + _pdf_string(title) + b" /Producer (Rackscore) >>")
    return writer.bytes(root=root, info=info)
