"""DOCX read by python-docx: body paragraphs and tables in document order.

Paragraph styles decide the layout: "Heading 1"–"Heading 9" are headings (levels above
6 count as 6), "Title" is a level-1 heading and the title when the core properties name
none, "List …" styles and numbered paragraphs are list items; tables are rows. The
source map maps text to the 0-based index of the paragraph or table in the body.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

from chronorag.deps import import_module
from chronorag.ingest.formats.base import Block, Extracted, FormatError, Piece, assemble, table_rows

__all__ = ["DocxReader"]

_HEADING = re.compile(r"heading\s*([1-9])$", re.I)


class DocxReader:
    """Reads ``.docx`` files (Word 2007 and later; not the binary ``.doc``)."""

    def read(self, data: bytes, *, name: str) -> Extracted:
        docx = import_module("docx")
        try:
            document = docx.Document(io.BytesIO(data))
            items = list(document.iter_inner_content())
            title = (document.core_properties.title or "").strip() or None
            blocks = list(_blocks(items))
        except Exception as exc:  # python-docx raises zip, XML and key errors on bad files
            first = (str(exc).splitlines() or [""])[0][:160]
            raise FormatError("docx", f"cannot be read as a DOCX file ({type(exc).__name__}: "
                              f"{first}); is it a Word 2007+ document?") from None
        if title is None:
            title = next((_plain(b) for b in blocks if b.kind == "heading"), None)
        return assemble(blocks, format="docx", unit="block", source_length=len(items),
                        title=title)


def _plain(block: Block) -> str:
    return " ".join("".join(p.text for p in block.pieces).split())


def _blocks(items: list[Any]) -> Iterator[Block]:
    group = 0
    in_list = False
    for index, item in enumerate(items):
        if hasattr(item, "rows"):
            group += 1
            rows = [[[Piece(text, index)] for text in _cells(row)] for row in item.rows]
            yield from table_rows(rows, header=True, group=group)
            in_list = False
            continue
        style = (item.style.name if item.style is not None else "") or ""
        pieces = (Piece(item.text, index),)
        heading = _HEADING.match(style.strip())
        if heading or style.strip().lower() == "title":
            level = int(heading.group(1)) if heading else 1
            yield Block("heading", pieces, level=min(level, 6))
            in_list = False
        elif style.lower().startswith("list") or _numbered(item):
            if not in_list:
                group += 1
                in_list = True
            yield Block("item", pieces, group=group)
        else:
            in_list = False
            yield Block("paragraph", pieces)


def _numbered(paragraph: Any) -> bool:
    properties = paragraph._p.pPr
    return properties is not None and properties.numPr is not None


def _cells(row: Any) -> Iterator[str]:
    # A merged cell is returned once per grid column it spans: keep it once.
    seen: set[int] = set()
    for cell in row.cells:
        if id(cell._tc) in seen:
            continue
        seen.add(id(cell._tc))
        yield cell.text
