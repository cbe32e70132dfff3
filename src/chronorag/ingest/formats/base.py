"""What a format reader returns, its plug-in point, and the assembly every reader shares.

A reader turns the blocks it finds (headings, paragraphs, list items, table rows, code)
into ``Block`` objects; ``assemble`` writes them as one plain text with its layout, so
every format lays text out the same way:

- a heading is a line of its own, without markup;
- paragraphs (a list as a whole, a table as a whole) are separated by blank lines;
- list items and table rows are one a line;
- whitespace inside a paragraph is one space; code keeps its lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from chronorag.errors import ChronoragError
from chronorag.ingest.formats.layout import Layout, Unit
from chronorag.lang import HAN_RE

__all__ = [
    "CELL_BREAKS",
    "Block",
    "Extracted",
    "FormatError",
    "Kind",
    "Piece",
    "Reader",
    "Table",
    "assemble",
    "cell_break",
    "table_rows",
]

Kind = Literal["heading", "paragraph", "item", "row", "code"]

_SPACE = re.compile(r"\s+")
_CLOSING = frozenset(".!?;:,。！？；：，、")
# Tags that start another item of a table cell (``cell_break``).
CELL_BREAKS = frozenset({"li", "p", "br", "div", "dt", "dd"})


class FormatError(ChronoragError):
    """A file that cannot be read as its format says; the loader reports it as
    ``path:line: field: reason``."""

    def __init__(self, field: str, reason: str, *, line: int = 0) -> None:
        self.field = field
        self.reason = reason
        self.line = line
        super().__init__(f"{field}: {reason}")


@dataclass(frozen=True)
class Extracted:
    """A file read as plain text: ``text`` without markup, its ``title`` when the file
    names one, and where headings, blocks and pages lie (``layout``)."""

    text: str
    layout: Layout
    title: str | None = None


class Reader(Protocol):
    """Reads one file format. Raises ``FormatError`` for a file it cannot read; any
    valid UTF-8 text is readable by the text formats (Markdown, HTML)."""

    def read(self, data: bytes, *, name: str) -> Extracted: ...


@dataclass(frozen=True)
class Piece:
    """A run of text and where it starts in the source (``None``: written by the reader,
    like the "Plan: " of a table row, or not found in the source)."""

    text: str
    source: int | None = None


@dataclass
class Table:
    """A table being read: its block group, its rows of cells (each cell its pieces), and
    whether its first row is a header (whose cells then name the others')."""

    group: int
    rows: list[list[list[Piece]]] = field(default_factory=list)
    header: bool = False


@dataclass(frozen=True)
class Block:
    """A heading, paragraph, list item, table row or code block. Blocks of one ``group``
    (the items of one list, the rows of one table) are lines of one paragraph."""

    kind: Kind
    pieces: tuple[Piece, ...]
    level: int = 0
    group: int | None = None


@dataclass
class _Text:
    parts: list[str] = field(default_factory=list)
    length: int = 0
    headings: list[tuple[int, int, int]] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    blocks: list[tuple[int, int]] = field(default_factory=list)
    rows: list[tuple[int, int]] = field(default_factory=list)
    source_map: list[tuple[int, int]] = field(default_factory=list)

    def map(self, at: int, source: int) -> None:
        # Pairs stay strictly increasing in the text and never go back in the source.
        if not self.source_map or (at > self.source_map[-1][0]
                                   and source >= self.source_map[-1][1]):
            self.source_map.append((at, source))


def assemble(blocks: Sequence[Block], *, format: str, unit: Unit, source_length: int,
             title: str | None = None, pages: Sequence[int] = ()) -> Extracted:
    """The text of ``blocks`` and its layout. ``pages`` are indexes into ``blocks``: the
    first block of each page (PDF), turned into offsets into the text."""
    out = _Text()
    starts: list[int | None] = []  # where each block's text starts (None: it has none)
    previous: int | None = None
    for block in blocks:
        text, pairs = _render(block)
        if not text:
            starts.append(None)
            continue
        if out.parts:
            same = block.group is not None and block.group == previous
            out.parts.append("\n" if same else "\n\n")
            out.length += 1 if same else 2
        start = out.length
        starts.append(start)
        out.parts.append(text)
        out.length += len(text)
        previous = block.group
        out.blocks.append((start, out.length))
        if block.kind == "row":
            out.rows.append((start, out.length))
        if block.kind == "heading":
            out.headings.append((start, out.length, max(1, min(block.level, 6))))
            out.titles.append(text)
        for at, source in pairs:
            out.map(start + at, min(max(source, 0), source_length))
    full = "".join(out.parts)
    # A page with no text of its own starts where the next text does.
    following = [len(full)] * (len(blocks) + 1)
    for i in range(len(blocks) - 1, -1, -1):
        found = starts[i]
        following[i] = following[i + 1] if found is None else found
    page_starts = [following[min(max(p, 0), len(blocks))] for p in pages]
    layout = Layout(format=format, unit=unit, source_length=source_length,
                    headings=tuple(out.headings), titles=tuple(out.titles),
                    blocks=tuple(out.blocks), pages=tuple(page_starts),
                    source_map=tuple(out.source_map), rows=tuple(out.rows))
    return Extracted(full, layout, title=title.strip() or None if title else None)


def _render(block: Block) -> tuple[str, list[tuple[int, int]]]:
    """A block's text and its (offset in that text, source offset) pairs."""
    raw = "".join(p.text for p in block.pieces)
    starts: list[tuple[int, int]] = []
    at = 0
    for piece in block.pieces:
        if piece.source is not None and piece.text:
            starts.append((at, piece.source))
        at += len(piece.text)
    if block.kind == "code":
        return _render_code(raw, starts)
    text, moved = _collapse(raw)
    return text, [(min(moved(a), max(len(text) - 1, 0)), s) for a, s in starts]


def _collapse(raw: str) -> tuple[str, Callable[[int], int]]:
    """``raw`` with each run of whitespace one space (none at the ends), and where a raw
    offset lands in it."""
    runs: list[tuple[int, int, int]] = []  # start, end, characters removed before it
    out: list[str] = []
    last = gone = 0
    for match in _SPACE.finditer(raw):
        edge = match.start() == 0 or match.end() == len(raw)
        out += [raw[last:match.start()], "" if edge else " "]
        runs.append((match.start(), match.end(), gone))
        gone += match.end() - match.start() - (0 if edge else 1)
        last = match.end()
    out.append(raw[last:])
    starts = [r[0] for r in runs]

    def moved(p: int) -> int:
        i = bisect_right(starts, p) - 1
        if i < 0:
            return p
        start, end, before = runs[i]
        if p < end:
            return start - before
        return p - (runs[i + 1][2] if i + 1 < len(runs) else gone)

    return "".join(out), moved


def _render_code(raw: str, starts: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    lines = [line.rstrip() for line in raw.split("\n")]
    text = "\n".join(lines)
    lead = len(text) - len(text.lstrip("\n"))
    text = text.strip("\n")
    if not text.strip():
        return "", []
    first = starts[0][1] + lead if starts else None
    return text, [] if first is None else [(0, first)]


def table_rows(rows: Sequence[Sequence[Sequence[Piece]]], *, header: bool, group: int
               ) -> list[Block]:
    """Table rows as lines that read on their own: with a header row, each cell is
    written after its column's name ("Plan: Pro; Price: $10"), without one the cells are
    joined by "; ". A table that is only its header row keeps it as a row."""
    rows = [r for r in rows if any(_plain(c) for c in r)]
    if not rows:
        return []
    names = [_plain(c) for c in rows[0]] if header and len(rows) > 1 else None
    body = rows[1:] if names is not None else rows
    out = []
    for row in body:
        pieces: list[Piece] = []
        for column, cell in enumerate(row):
            if not _plain(cell):
                continue
            if pieces:
                pieces.append(Piece("; "))
            name = names[column] if names is not None and column < len(names) else ""
            if name:
                pieces.append(Piece(f"{name}: "))
            pieces.extend(cell)
        out.append(Block("row", tuple(pieces), group=group))
    return out


def cell_break(cell: list[Piece]) -> None:
    """End the item a table cell has so far before its next list item or paragraph: ", "
    ("Technical data, Location"), "、" after Chinese (技术数据、位置), a space after a
    closing mark ("… instructions. Learn more"); nothing when the cell has no text yet.
    The space the source left at the item's end goes."""
    while cell and not cell[-1].text.strip():
        cell.pop()
    if not cell:
        return
    last = cell[-1]
    cell[-1] = Piece(last.text.rstrip(), last.source)
    end = cell[-1].text[-1]
    cell.append(Piece(" " if end in _CLOSING else "、" if HAN_RE.match(end) else ", "))


def _plain(cell: Sequence[Piece]) -> str:
    return " ".join("".join(p.text for p in cell).split())
