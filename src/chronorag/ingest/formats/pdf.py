"""PDF read by pypdf: the text layer of each page, pages kept.

A PDF has no paragraphs, only positioned lines: lines are joined into paragraphs (a word
cut by a hyphen at a line end is joined again), a blank line ends a paragraph, a line
that starts with a list marker starts one, and a line much shorter than the page's
longest ends one: wrapped prose fills its lines up to its last, so a short line is the
end of a paragraph or a line of its own (a heading, a list item, a table cell). The source
map maps each page's text to its 1-based page number. A PDF with no text layer (a scan)
is refused: OCR it first.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from typing import Any

from chronorag.deps import import_module
from chronorag.ingest.formats.base import Block, Extracted, FormatError, Piece, assemble

__all__ = ["PdfReader", "paragraphs"]

_MARKER = re.compile(r"\s*(?:[-•◦▪*–]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s")
_HYPHENATED = re.compile(r"[^\W\d_]-$")
# A line this much shorter than the page's longest does not wrap into the next one.
_SHORT = 0.6


class PdfReader:
    """Reads ``.pdf`` files that have a text layer."""

    def read(self, data: bytes, *, name: str) -> Extracted:
        pages, title = _pages(data)
        blocks: list[Block] = []
        starts: list[int] = []
        for number, text in enumerate(pages, start=1):
            starts.append(len(blocks))
            blocks.extend(Block("paragraph", (Piece(p, number),)) for p in paragraphs(text))
        extracted = assemble(blocks, format="pdf", unit="page", source_length=len(pages),
                             title=title, pages=starts)
        if not extracted.text.strip():
            raise FormatError("text", "no text layer; OCR it first (ocrmypdf adds one), "
                              "then ingest the result")
        return extracted


def _pages(data: bytes) -> tuple[list[str], str | None]:
    pypdf = import_module("pypdf")
    # pypdf logs every repaired cross-reference of a sloppy writer at WARNING; a file it
    # reads is fine, one it cannot is reported below.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise FormatError("pdf", "is encrypted with a password; save an unencrypted copy")
        return [page.extract_text() or "" for page in reader.pages], _title(reader)
    except FormatError:
        raise
    except Exception as exc:  # pypdf raises many kinds on a broken file
        first = (str(exc).splitlines() or [""])[0][:160]
        raise FormatError("pdf", f"cannot be read as a PDF ({type(exc).__name__}: {first}); "
                          "is the file complete?") from None


def _title(reader: Any) -> str | None:
    try:
        metadata = reader.metadata
        title = metadata.title if metadata is not None else None
    except Exception:  # a broken info dictionary leaves the title to the file name
        return None
    return str(title).strip() or None if title else None


def paragraphs(text: str) -> Iterator[str]:
    """The paragraphs of a page's text layer (see the module docstring)."""
    lines = text.splitlines()
    width = max((len(line.strip()) for line in lines), default=0)
    current: list[str] = []
    for raw in lines:
        line = raw.strip()
        if not line or (_MARKER.match(raw) and current):
            if current:
                yield _join(current)
            current = [line] if line else []
            continue
        current.append(line)
        if len(line) < _SHORT * width:
            yield _join(current)
            current = []
    if current:
        yield _join(current)


def _join(lines: list[str]) -> str:
    out = lines[0]
    for line in lines[1:]:
        rejoin = _HYPHENATED.search(out) and line[:1].islower()
        out = out[:-1] + line if rejoin else f"{out} {line}"
    return out
