"""Pages rendered in chunks, joined into one PDF with pypdf, each page over its static layer.

Vocabulary: a :class:`Chunk` is a run of whole pages rendered together (the
page layers' PDF and each page's QR code as PDF operators). A static layer
becomes a *form XObject*, a drawing stored once in the file and named in
the resources of every page that shows it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from printing.data import Sheet, SheetSet
from printing.render import StaticKey, static_key, static_pdf

if TYPE_CHECKING:  # pypdf itself is imported when first needed: not at every start-up
    from pypdf import PdfWriter
    from pypdf.generic import IndirectObject, NameObject, PdfObject


class Chunk(NamedTuple):
    """A run of whole pages rendered together: the page layers' PDF, each page's QR code."""

    pdf: bytes
    qr: list[bytes]


def _object_add(writer: PdfWriter, obj: PdfObject) -> IndirectObject:
    """Store a free-standing object in the writer's file and return its reference.

    pypdf's public API adds pages, not objects of our own; cloning into the
    writer does, for an object marked as not yet anywhere (``indirect_reference``
    None): the clone is numbered into the writer's file.
    """
    obj.indirect_reference = None
    stored = obj.clone(writer)
    reference = stored.indirect_reference
    if reference is None or reference.pdf is not writer:
        raise RuntimeError("pypdf did not store the object in the writer")
    return reference


def layers_join(*, sheet_set: SheetSet, chunks: Sequence[Chunk]) -> bytes:
    """One PDF of the chunks' pages, each drawn over its static layer, with its QR code.

    A static layer becomes a form XObject named in the page's resources; the
    page's content becomes ``q /Layer Do Q q <page layer> Q <QR code>``
    (WeasyPrint's content leaves its page transform in force, so it is
    wrapped in q … Q).
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    language = sheet_set["language"]

    def stream(data: bytes) -> IndirectObject:
        obj = DecodedStreamObject()
        obj.set_data(data)
        return _object_add(writer, obj.flate_encode() if len(data) > 200 else obj)

    layers: dict[StaticKey, tuple[NameObject, IndirectObject, IndirectObject]] = {}

    def layer_of(sheet: Sheet) -> tuple[NameObject, IndirectObject, IndirectObject]:
        key = static_key(sheet, language=language)
        if key not in layers:
            page = PdfReader(io.BytesIO(static_pdf(key))).pages[0]
            form = DecodedStreamObject()
            contents = page.get_contents()
            assert contents is not None  # a page the engine drew has its drawing
            form.set_data(contents.get_data())
            form[NameObject("/Type")] = NameObject("/XObject")
            form[NameObject("/Subtype")] = NameObject("/Form")
            form[NameObject("/BBox")] = page.mediabox
            stored = _object_add(writer, form.flate_encode())
            resources = page["/Resources"].clone(writer)  # (the page's fonts, now the writer's)
            stored_form = stored.get_object()
            assert isinstance(stored_form, DictionaryObject)
            stored_form[NameObject("/Resources")] = resources
            name = NameObject(f"/RsLayer{len(layers)}")
            layers[key] = (name, stored, stream(f"q {name} Do Q q ".encode()))
        return layers[key]

    end = stream(b" Q")
    sheets = iter(sheet_set["sheets"])
    for chunk in chunks:
        for page, qr in zip(PdfReader(io.BytesIO(chunk.pdf)).pages, chunk.qr, strict=True):
            name, form, start = layer_of(next(sheets))
            added = writer.add_page(page)
            resources = added["/Resources"].get_object()
            assert isinstance(resources, DictionaryObject)
            xobjects = resources.get("/XObject")
            if not isinstance(xobjects, DictionaryObject):
                xobjects = DictionaryObject()
                resources[NameObject("/XObject")] = xobjects
            xobjects[name] = form
            contents = [start, added.raw_get("/Contents"), stream(b" Q " + qr) if qr else end]
            added[NameObject("/Contents")] = ArrayObject(contents)
    writer.add_metadata({"/Title": sheet_set["title"], "/Creator": "Rackscore"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
