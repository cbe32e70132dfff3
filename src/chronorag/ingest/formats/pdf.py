"""PDF read by pypdf: the text layer of each page, pages kept.

A PDF has no paragraphs, only positioned lines: lines are joined into paragraphs (a word
cut by a hyphen at a line end is joined again), a blank line ends a paragraph, a line
that starts with a list marker starts one, and a line much shorter than the page's
longest ends one: wrapped prose fills its lines up to its last, so a short line is the
end of a paragraph or a line of its own (a heading, a list item, a table cell). A short
line set at least 1.2 times larger than the body text (the size most characters have) is
a heading, its level by its size (the largest 1), so PDF evidence has a section. The source
map maps each page's text to its 1-based page number. A PDF with no text layer (a scan)
is refused: OCR it first.
"""

from __future__ import annotations

import io
import logging
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from chronorag.deps import import_module
from chronorag.ingest.formats.base import Block, Extracted, FormatError, Piece, assemble

__all__ = ["PdfReader", "paragraphs"]

_MARKER = re.compile(r"\s*(?:[-•◦▪*–]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s")
_HYPHENATED = re.compile(r"[^\W\d_]-$")
# A line this much shorter than the page's longest does not wrap into the next one.
_SHORT = 0.6
# A heading is set this much larger than the body text, and is no longer than this.
_LARGER = 1.2
_HEADING_CHARS = 120


class PdfReader:
    """Reads ``.pdf`` files that have a text layer."""

    def read(self, data: bytes, *, name: str) -> Extracted:
        pages, title = _pages(data)
        body = _body_size(pages)
        levels = _heading_levels(pages, body)
        blocks: list[Block] = []
        starts: list[int] = []
        for number, lines in enumerate(pages, start=1):
            starts.append(len(blocks))
            blocks.extend(_blocks(lines, number, body=body, levels=levels))
        extracted = assemble(blocks, format="pdf", unit="page", source_length=len(pages),
                             title=title, pages=starts)
        if not extracted.text.strip():
            raise FormatError("text", "no text layer; OCR it first (ocrmypdf adds one), "
                              "then ingest the result")
        return extracted


Line = tuple[str, float]  # a line of a page's text layer and its largest font size


def _page_lines(page: Any) -> list[Line]:
    """The lines ``extract_text`` gives, each with the largest font size it is set in (the
    size times the text matrix's scale, as the page shows it)."""
    lines: list[Line] = [("", 0.0)]

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        scale = abs(float(tm[3])) if tm else 1.0
        shown = float(size or 0) * (scale or 1.0) * (abs(float(cm[3])) if cm else 1.0)
        parts = text.split("\n")
        for number, part in enumerate(parts):
            if number:
                lines.append(("", 0.0))
            line, largest = lines[-1]
            lines[-1] = (line + part, max(largest, shown) if part.strip() else largest)

    text = page.extract_text(visitor_text=visit) or ""
    # The visitor's lines must be the text's; a page where they are not has no sizes.
    if [line.strip() for line, _ in lines] != [line.strip() for line in text.split("\n")]:
        return [(line, 0.0) for line in text.split("\n")]
    return lines


def _body_size(pages: list[list[Line]]) -> float:
    """The size most of the document's characters are set in."""
    weights: Counter[float] = Counter()
    for lines in pages:
        for line, size in lines:
            weights[round(size, 1)] += len(line.strip())
    return max(weights, key=lambda size: weights[size], default=0.0)


def _is_heading(line: str, size: float, body: float) -> bool:
    text = line.strip()
    return (body > 0 and size >= _LARGER * body and 0 < len(text) <= _HEADING_CHARS
            and not text.endswith((".", ",", ";", ":")) and any(c.isalpha() for c in text))


def _heading_levels(pages: list[list[Line]], body: float) -> dict[float, int]:
    """Level of each heading size, the largest 1 (at most three levels)."""
    sizes = sorted({round(size, 1) for lines in pages for line, size in lines
                    if _is_heading(line, size, body)}, reverse=True)
    return {size: min(rank, 3) for rank, size in enumerate(sizes, start=1)}


def _blocks(lines: list[Line], page: int, *, body: float, levels: dict[float, int]
            ) -> Iterator[Block]:
    """A page's headings (set larger than the body, short, a line of their own) and the
    paragraphs between them."""
    run: list[str] = []
    heading: tuple[str, float] | None = None  # a heading may wrap onto the next line
    for line, size in lines:
        if _is_heading(line, size, body):
            yield from (Block("paragraph", (Piece(p, page),)) for p in paragraphs("\n".join(run)))
            run = []
            if heading is not None and round(heading[1], 1) == round(size, 1):
                heading = (f"{heading[0]} {line.strip()}", size)
                continue
            if heading is not None:
                yield _heading(heading, page, levels)
            heading = (line.strip(), size)
            continue
        if heading is not None:
            yield _heading(heading, page, levels)
            heading = None
        run.append(line)
    if heading is not None:
        yield _heading(heading, page, levels)
    yield from (Block("paragraph", (Piece(p, page),)) for p in paragraphs("\n".join(run)))


def _heading(heading: tuple[str, float], page: int, levels: dict[float, int]) -> Block:
    return Block("heading", (Piece(heading[0], page),), level=levels[round(heading[1], 1)])


def _pages(data: bytes) -> tuple[list[list[Line]], str | None]:
    pypdf = import_module("pypdf")
    # pypdf logs every repaired cross-reference of a sloppy writer at WARNING; a file it
    # reads is fine, one it cannot is reported below.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise FormatError("pdf", "is encrypted with a password; save an unencrypted copy")
        return [_page_lines(page) for page in reader.pages], _title(reader)
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
