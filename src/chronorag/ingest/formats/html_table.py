"""HTML tables written inside Markdown, read as table rows.

Markdown allows raw HTML, and policies written in Markdown put their widest tables in it
(Mozilla's Firefox Privacy Notice: purpose, data, lawful basis, choices). Read as tag-free
text, such a table is one run-on paragraph ("To provide AI chatbots Technical data Location
… Consent, when you choose to enable an AI chatbot."), which no sentence splitter cuts and
no answer can quote. Read here, each row is a line like a Markdown table's ("What we use
your data for: To provide AI chatbots; What data we process: Technical data, Location, …;
Our lawful basis: Consent, …"): cells under their header, list items and paragraphs of a
cell joined by ", " (``base.cell_break``). The standard library's parser reads
it (no extra needed: Markdown is always read). Text of the block outside a table stays a
paragraph. Each run of text is looked up in the source after the previous one, so offsets
point at the Markdown source.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from chronorag.ingest.formats.base import CELL_BREAKS, Block, Piece, Table, cell_break, table_rows

__all__ = ["has_table", "read_html_block"]

_OPEN = re.compile(r"<table\b", re.IGNORECASE)


def has_table(html: str) -> bool:
    """Whether ``html`` opens a table."""
    return _OPEN.search(html) is not None


def read_html_block(html: str, *, source: str, start: int, group: int
                    ) -> tuple[list[Block], int]:
    """The blocks of ``html`` (which starts at ``start`` in ``source``): table rows and
    paragraphs; the next free block group is returned with them (each table takes one,
    from ``group`` on)."""
    reader = _Reader(source, start, group)
    reader.feed(html)
    reader.close()
    while reader.tables:
        # A table the block leaves open still has its rows.
        table = reader.tables.pop()
        reader.out.extend(table_rows(table.rows, header=table.header, group=table.group))
    reader.end_paragraph()
    return reader.out, reader.group


class _Reader(HTMLParser):
    def __init__(self, source: str, cursor: int, group: int) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.cursor = cursor
        self.group = group
        self.tables: list[Table] = []
        self.pieces: list[Piece] = []
        self.out: list[Block] = []
        self.broken = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.end_paragraph()
            self.tables.append(Table(self.group))
            self.group += 1
        elif not self.tables:
            return
        elif tag == "tr":
            self.tables[-1].rows.append([])
        elif tag in ("td", "th") and self.tables[-1].rows:
            self.tables[-1].rows[-1].append([])
        if tag in CELL_BREAKS:
            self.broken = True

    def handle_endtag(self, tag: str) -> None:
        if not self.tables:
            return
        table = self.tables[-1]
        if tag == "th" and len(table.rows) == 1:
            table.header = True
        elif tag == "table":
            self.tables.pop()
            self.out.extend(table_rows(table.rows, header=table.header, group=table.group))
        if tag in CELL_BREAKS:
            self.broken = True

    def handle_data(self, data: str) -> None:
        if not data.strip():
            return
        # The space before a run is the reader's; the run maps to where its text starts.
        text = data.lstrip()
        pieces = [Piece(data[:len(data) - len(text)]), Piece(text, self._locate(text))]
        cell = self._cell()
        if cell is None:
            if not self.tables:
                self.pieces.extend(pieces)
            return
        if self.broken:
            cell_break(cell)
        self.broken = False
        cell.extend(pieces)

    def _cell(self) -> list[Piece] | None:
        if self.tables and self.tables[-1].rows and self.tables[-1].rows[-1]:
            return self.tables[-1].rows[-1][-1]
        return None

    def _locate(self, text: str) -> int | None:
        key = text.rstrip()
        found = self.source.find(key, self.cursor)
        if found < 0:
            return None
        self.cursor = found + len(key)
        return found

    def end_paragraph(self) -> None:
        if "".join(p.text for p in self.pieces).strip():
            self.out.append(Block("paragraph", tuple(self.pieces)))
        self.pieces = []
