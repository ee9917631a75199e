"""TrueType files read with struct: their tables, glyph ids, and a file cut down to some glyphs.

Vocabulary: a *table* is one tagged part of a TrueType file (``glyf`` the
outlines, ``loca`` where each starts, ``hmtx`` the widths, ``head``/``hhea``
/``maxp`` the numbers describing the rest); a glyph's *id* is its index in
``loca``. A cut-down file (:func:`font_file`) keeps every id but draws only
the glyphs asked for (and the parts composite glyphs are built from): what a
PDF needs to show its text, at a fraction of the font's size.
"""

from __future__ import annotations

import functools
import io
import struct

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
FONT_FILES: dict[str, str] = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
}


@functools.lru_cache(maxsize=8)
def font_bytes(font: str) -> bytes:
    with open(FONT_DIR + FONT_FILES[font], "rb") as f:
        return f.read()


@functools.lru_cache(maxsize=8)
def glyph_ids(font: str) -> dict[str, int]:
    """A font's glyph id by character (once per process: reading the cmap is the slow part)."""
    from fontTools.ttLib import TTFont

    ttf = TTFont(io.BytesIO(font_bytes(font)), lazy=True)
    return {chr(c): ttf.getGlyphID(g) for c, g in ttf.getBestCmap().items()}


@functools.lru_cache(maxsize=8)
def tables_of(font: str) -> dict[bytes, bytes]:
    """A TrueType file's tables by tag, as bytes."""
    data = font_bytes(font)
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for i in range(count):
        tag, _sum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = data[offset : offset + length]
    return tables


def _glyphs_kept(tables: dict[bytes, bytes], gids: set[int]) -> tuple[bytes, bytes]:
    """The glyf and (long) loca tables with only ``gids`` and their components drawn; every
    other glyph is left empty, so glyph ids stay as in the whole font.

    Why not fontTools' subsetter: it decompiles every table, half a second a
    document; copying glyph records costs milliseconds."""
    glyf = tables[b"glyf"]
    (long_loca,) = struct.unpack_from(">h", tables[b"head"], 50)
    (count,) = struct.unpack_from(">H", tables[b"maxp"], 4)
    if long_loca:
        loca = struct.unpack_from(f">{count + 1}I", tables[b"loca"])
    else:
        loca = tuple(v * 2 for v in struct.unpack_from(f">{count + 1}H", tables[b"loca"]))
    wanted, todo = set(), [0, *gids]  # glyph 0 (.notdef) is always kept
    while todo:
        gid = todo.pop()
        if gid in wanted or gid >= count:
            continue
        wanted.add(gid)
        start, end = loca[gid], loca[gid + 1]
        if end - start < 10 or struct.unpack_from(">h", glyf, start)[0] >= 0:
            continue
        at = start + 10  # a composite glyph: its components are needed too
        while True:
            flags, component = struct.unpack_from(">HH", glyf, at)
            todo.append(component)
            at += 4 + (4 if flags & 0x1 else 2)
            at += 2 if flags & 0x8 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0
            if not flags & 0x20:
                break
    out, offsets = bytearray(), []
    for gid in range(count):
        offsets.append(len(out))
        if gid in wanted:
            out += glyf[loca[gid] : loca[gid + 1]]
            out += b"\0" * (-len(out) % 4)
    offsets.append(len(out))
    return bytes(out), struct.pack(f">{count + 1}I", *offsets)


def font_file(font: str, gids: set[int]) -> bytes:
    """A TrueType file with the glyphs ``gids`` only: what a PDF viewer needs to draw them."""
    tables = dict(tables_of(font))
    tables[b"glyf"], tables[b"loca"] = _glyphs_kept(tables, gids)
    head = bytearray(tables[b"head"])
    struct.pack_into(">h", head, 50, 1)  # long offsets in loca
    struct.pack_into(">I", head, 8, 0)  # checksum adjustment: unchecked by PDF viewers
    tables[b"head"] = bytes(head)
    keep = [b"OS/2", b"cmap", b"cvt ", b"fpgm", b"glyf", b"head", b"hhea", b"hmtx", b"loca",
            b"maxp", b"name", b"post", b"prep"]  # fmt: skip
    chosen = [tag for tag in keep if tag in tables and tag not in (b"cmap", b"name", b"post")]
    header = struct.pack(">IHHHH", 0x00010000, len(chosen), 0, 0, 0)
    offset = 12 + 16 * len(chosen)
    directory, body = bytearray(), bytearray()
    for tag in chosen:
        data = tables[tag]
        checksum = sum(struct.unpack(f">{-(-len(data) // 4)}I", data + b"\0" * (-len(data) % 4)))
        directory += struct.pack(
            ">4sIII", tag, checksum & 0xFFFFFFFF, offset + len(body), len(data)
        )
        body += data + b"\0" * (-len(data) % 4)
    return header + bytes(directory) + bytes(body)
