"""HTML read by selectolax (the Lexbor HTML5 parser).

The main text is ``<main>``, else the first ``<article>``, else ``<body>``; scripts,
styles, navigation, asides, forms and footers are dropped, and so is the page's header
(a header inside the main element holds the article's own title and stays). ``<title>`` is the
title, ``h1``–``h6`` the headings, list items and table rows lines of their own. Text
runs are looked up in the source after the previous one, so the source map points at
the characters they came from (an entity-encoded run at the nearest plain part of it).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import Any

from chronorag.deps import import_module
from chronorag.ingest.formats.base import (
    CELL_BREAKS,
    Block,
    Extracted,
    FormatError,
    Kind,
    Piece,
    Table,
    assemble,
    cell_break,
    table_rows,
)

__all__ = ["HtmlReader", "read_html"]

_DROP = ("script", "style", "noscript", "template", "svg", "iframe", "nav", "aside", "form",
         "button", "select", "dialog", "footer")
_PAGE_ONLY = ("header",)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = {"p", "div", "section", "article", "main", "blockquote", "figure", "figcaption",
           "address", "dl", "dt", "dd", "ul", "ol", "table", "caption", "hr", "br", "header",
           "footer", "details", "summary", "fieldset", "center", "body", "html", "pre", "li",
           "tr", *_HEADINGS}
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.I)
# Characters an HTML source may spell as entities: a run is located by its plain prefix.
_PLAIN = re.compile(r"[^&<>\"'\u00a0]+")


class HtmlReader:
    """Reads ``.html`` and ``.htm`` files (UTF-8, or the charset their ``<meta>`` names)."""

    def read(self, data: bytes, *, name: str) -> Extracted:
        return read_html(decode_html(data))


def decode_html(data: bytes) -> str:
    """The characters of an HTML file: UTF-8 (a byte-order mark allowed), else the
    encoding a ``<meta charset>`` in its first 2 KB declares."""
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        declared = _CHARSET.search(data[:2048])
        if declared is not None:
            try:
                return data.decode(declared.group(1).decode("ascii"))
            except (LookupError, UnicodeDecodeError):
                pass
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError("encoding", f"byte 0x{data[exc.start]:02x} is not valid UTF-8 and "
                          "no <meta charset> reads the file; save it as UTF-8",
                          line=line) from None


def read_html(source: str) -> Extracted:
    """The main text of HTML ``source`` with its layout; the title is ``<title>``, else
    the first ``h1``."""
    lexbor = import_module("selectolax.lexbor")
    tree = lexbor.LexborHTMLParser(source)
    title_node = tree.css_first("title")
    title = title_node.text(strip=True) if title_node is not None else None
    root = tree.css_first("main") or tree.css_first("article")
    page = root is None
    if root is None:
        root = tree.body or tree.root
    blocks: list[Block] = []
    if root is not None:
        for node in root.css(", ".join(_DROP + (_PAGE_ONLY if page else ()))):
            node.decompose()
        blocks = list(_Walk(source, _start_of(source, root.tag)).blocks(root))
    if not title:
        title = next((" ".join("".join(p.text for p in b.pieces).split())
                      for b in blocks if b.kind == "heading" and b.level == 1), None)
    return assemble(blocks, format="html", unit="char", source_length=len(source),
                    title=title)


def _start_of(source: str, tag: str | None) -> int:
    """Where the main element's text may start in the source: after its start tag."""
    if not tag:
        return 0
    found = re.search(f"<{re.escape(tag)}\\b[^>]*>", source, re.I)
    return found.end() if found else 0


class _Walk:
    """One pass over the element tree, depth first, without recursion (pages nest
    deeper than Python's stack)."""

    def __init__(self, source: str, cursor: int) -> None:
        self.source = source
        self.cursor = cursor
        self.groups = 0
        self.pieces: list[Piece] = []
        self.kind: tuple[Kind, int, int | None] = ("paragraph", 0, None)
        self.lists: list[int] = []
        self.tables: list[Table] = []
        self.pre = 0
        self.out: list[Block] = []

    def blocks(self, root: Any) -> Iterator[Block]:
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, leaving = stack.pop()
            if leaving:
                self._leave(node.tag)
            elif node.tag == "-text":
                self._text(node.text_content or "")
            elif node.is_element_node:
                self._enter(node.tag)
                stack.append((node, True))
                children = list(node.iter(include_text=True))
                stack.extend((child, False) for child in reversed(children))
            yield from self.out
            self.out.clear()
        self._flush()
        yield from self.out

    def _text(self, text: str) -> None:
        if not text:
            return
        key = _PLAIN.search(text)
        found = -1 if key is None else self.source.find(key.group(), self.cursor)
        at = None
        if found >= 0:
            self.cursor = found + len(key.group()) if key is not None else self.cursor
            at = max(found - key.start(), 0) if key is not None else None
        if self.tables and self.tables[-1].rows and self.tables[-1].rows[-1]:
            self.tables[-1].rows[-1][-1].append(Piece(text, at))
        else:
            self.pieces.append(Piece(text, at))

    def _enter(self, tag: str) -> None:
        if tag in ("td", "th") and self.tables and self.tables[-1].rows:
            self.tables[-1].rows[-1].append([])
            return
        cell = self.tables[-1].rows[-1][-1] if (
            self.tables and self.tables[-1].rows and self.tables[-1].rows[-1]) else None
        if cell is not None and tag in CELL_BREAKS:
            # A cell's list items and paragraphs are read apart: "Technical data, Location".
            cell_break(cell)
            return
        if tag not in _BLOCKS:
            return
        self._flush()
        if tag in _HEADINGS:
            self.kind = ("heading", _HEADINGS[tag], None)
        elif tag in ("ul", "ol", "dl"):
            self.groups += 1
            self.lists.append(self.lists[0] if self.lists else self.groups)
        elif tag in ("li", "dt", "dd") and self.lists:
            self.kind = ("item", 0, self.lists[-1])
        elif tag == "table":
            self.groups += 1
            self.tables.append(Table(self.groups))
        elif tag == "tr" and self.tables:
            self.tables[-1].rows.append([])
        elif tag == "pre":
            self.pre += 1
            self.kind = ("code", 0, None)

    def _leave(self, tag: str) -> None:
        if tag == "th" and self.tables and len(self.tables[-1].rows) == 1:
            self.tables[-1].header = True
        if tag not in _BLOCKS:
            return
        self._flush()
        if tag in ("ul", "ol", "dl") and self.lists:
            self.lists.pop()
        elif tag == "table" and self.tables:
            table = self.tables.pop()
            self.out.extend(table_rows(table.rows, header=table.header, group=table.group))
        elif tag == "pre":
            self.pre = max(self.pre - 1, 0)

    def _flush(self) -> None:
        kind, level, group = self.kind
        if self.pieces:
            if self.pre and kind != "code":
                kind = "code"
            if kind == "paragraph" and self.lists and group is None:
                kind, group = "item", self.lists[-1]
            self.out.append(Block(kind, tuple(self.pieces), level=level, group=group))
        self.pieces = []
        self.kind = ("item", 0, self.lists[-1]) if self.lists else ("paragraph", 0, None)
        if self.pre:
            self.kind = ("code", 0, None)
