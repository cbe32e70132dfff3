"""Markdown read by markdown-it-py (CommonMark with tables and strikethrough).

Kept: the text of headings, paragraphs, list items, quotes, table cells, link texts,
image alt texts, inline code and code blocks. Dropped: every mark of the syntax,
HTML comments and tags (the text between tags of an HTML block is kept; an HTML table
is read as table rows, ``formats.html_table``), link targets,
thematic breaks, kramdown attribute lists (``{: .class }``). Each run of kept text is
looked up in the source after the previous one, so the source map points at the
characters it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from chronorag.deps import import_module
from chronorag.ingest.formats.base import (
    Block,
    Extracted,
    FormatError,
    Piece,
    Table,
    assemble,
    table_rows,
)
from chronorag.ingest.formats.html_table import has_table, read_html_block

__all__ = ["MarkdownReader", "read_markdown"]

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_TAG = re.compile(r"<[^>]*>")
# kramdown's attribute lists ("Effective June 10, 2025 {: datetime="2025-06-10" }"), which
# Jekyll sites (GitHub Pages) put after a block or a span: markup, not text.
_ATTRIBUTES = re.compile(r"\s*\{:[^{}\n]*\}")
# Inline tokens that carry text, and what stands in for them.
_INLINE_TEXT = {"text", "text_special", "code_inline", "image"}
_BREAKS = {"softbreak", "hardbreak"}


class MarkdownReader:
    """Reads ``.md`` and ``.markdown`` bodies (front matter already split off)."""

    def read(self, data: bytes, *, name: str) -> Extracted:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise FormatError("encoding", "is not valid UTF-8; save the file as UTF-8",
                              line=line) from None
        return read_markdown(text)


def read_markdown(source: str) -> Extracted:
    """The plain text of Markdown ``source`` with its layout; the title is the first
    level-1 heading."""
    tokens = _parser().parse(source)
    walk = _Walk(source)
    blocks = list(walk.blocks(tokens))
    title = next((_text(b) for b in blocks if b.kind == "heading" and b.level == 1), None)
    return assemble(blocks, format="markdown", unit="char", source_length=len(source),
                    title=title)


@cache
def _parser() -> Any:
    # Building a parser compiles its rules: once per process, not once per file.
    parser = import_module("markdown_it").MarkdownIt("commonmark", {"html": True})
    return parser.enable(["table", "strikethrough"])


def _text(block: Block) -> str:
    return " ".join("".join(p.text for p in block.pieces).split())


class _Walk:
    """State of one pass over the token stream."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = [0]
        for match in re.finditer("\n", source):
            self.lines.append(match.end())
        self.cursor = 0
        self.groups = 0

    def _line(self, number: int) -> int:
        return self.lines[min(number, len(self.lines) - 1)] if number < len(self.lines) \
            else len(self.source)

    def blocks(self, tokens: Sequence[Any]) -> Iterator[Block]:
        lists: list[int] = []   # group of the outermost open list, repeated per level
        heading = 0
        table: Table | None = None
        for token in tokens:
            kind = token.type
            if kind in ("bullet_list_open", "ordered_list_open"):
                self.groups += 1
                lists.append(lists[0] if lists else self.groups)
            elif kind in ("bullet_list_close", "ordered_list_close"):
                lists.pop()
            elif kind == "heading_open":
                heading = int(token.tag[1:])
            elif kind == "table_open":
                self.groups += 1
                table = Table(self.groups)
            elif kind == "thead_open" and table is not None:
                table.header = True
            elif kind == "tr_open" and table is not None:
                table.rows.append([])
            elif kind == "table_close" and table is not None:
                yield from table_rows(table.rows, header=table.header, group=table.group)
                table = None
            elif kind == "inline":
                pieces = self._inline(token)
                if table is not None and table.rows:
                    table.rows[-1].append(pieces)
                elif heading:
                    yield Block("heading", tuple(pieces), level=heading)
                    heading = 0
                elif lists:
                    yield Block("item", tuple(pieces), group=lists[-1])
                else:
                    yield Block("paragraph", tuple(pieces))
            elif kind in ("fence", "code_block"):
                yield self._code(token, fenced=kind == "fence", group=lists[-1] if lists else None)
            elif kind == "html_block":
                yield from self._html(token)

    def _range(self, token: Any) -> tuple[int, int]:
        if token.map is None:
            return self.cursor, len(self.source)
        return max(self._line(token.map[0]), self.cursor), self._line(token.map[1])

    def _locate(self, text: str, start: int, end: int) -> int | None:
        """Where ``text`` starts in the source, searched from the last match on."""
        key = text.strip()
        if not key:
            return None
        found = self.source.find(key, max(start, self.cursor), end)
        if found < 0:
            return None
        self.cursor = found + len(key)
        return max(found - (len(text) - len(text.lstrip())), 0)

    def _inline(self, token: Any) -> list[Piece]:
        start, end = self._range(token)
        pieces: list[Piece] = []
        for child in token.children or ():
            if child.type in _INLINE_TEXT and child.type != "code_inline":
                pieces.extend(Piece(part, self._locate(part, start, end))
                              for part in _ATTRIBUTES.split(child.content) if part)
            elif child.type in _INLINE_TEXT:
                pieces.append(Piece(child.content, self._locate(child.content, start, end)))
            elif child.type in _BREAKS or (child.type == "html_inline"
                                           and child.content.lower().startswith("<br")):
                pieces.append(Piece(" "))
        return pieces

    def _code(self, token: Any, *, fenced: bool, group: int | None) -> Block:
        start, _ = self._range(token)
        # A fence's code starts on the line after the fence.
        if fenced and token.map is not None:
            start = max(self._line(token.map[0] + 1), start)
        end = self._line(token.map[1]) if token.map is not None else len(self.source)
        self.cursor = max(self.cursor, end)
        return Block("code", (Piece(token.content, start),), group=group)

    def _html(self, token: Any) -> list[Block]:
        start, end = self._range(token)
        self.cursor = max(self.cursor, end)
        html = _COMMENT.sub(" ", token.content)
        if has_table(html):
            blocks, free = read_html_block(html, source=self.source, start=start,
                                           group=self.groups + 1)
            self.groups = free - 1
            return blocks
        text = _TAG.sub(" ", html)
        # An unclosed tag ("<div" to the end of the block) is markup, not text.
        text = text.split("<", 1)[0]
        if not text.strip():
            return []
        return [Block("paragraph", (Piece(text, start),))]
