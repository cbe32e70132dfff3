"""The layout of a text read from a file, and what it answers: the section an offset lies
in, and where an offset of the text came from in the source file.

A document read from Markdown, HTML, PDF or DOCX keeps it in ``Document.metadata`` under
the reserved key ``"_layout"`` (``Layout.to_json``), as plain lists, ints and strings:

- ``headings``: ``[start, end, level]`` of each heading, ``text[start:end]`` its title
  (also in ``titles``, so a section path needs no text);
- ``blocks``: ``[start, end]`` of each heading, paragraph, list item, table row and code
  block, in order: the lines that stand alone;
- ``pages``: the offset where each page starts (PDF; empty otherwise);
- ``rows``: ``[start, end]`` of each block that is a table row: one record, read as one
  sentence (absent from layouts stored before it was kept: no rows known);
- ``source_map``: ``[text_offset, source_offset]`` pairs, strictly increasing in the
  text and never decreasing in the source; ``unit`` says what a source offset counts:
  ``char`` (characters of the decoded file: Markdown, HTML), ``page`` (1-based page
  number: PDF) or ``block`` (0-based paragraph or table of the body: DOCX).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from chronorag.contract import to_json

__all__ = ["LAYOUT_KEY", "Layout", "section_path", "source_offset"]

LAYOUT_KEY = "_layout"
"""The ``Document.metadata`` key a layout is stored under; no input may set it."""

Unit = Literal["char", "page", "block"]


@dataclass(frozen=True)
class Layout:
    """Where headings, blocks and pages lie in a text, and where it came from."""

    format: str
    unit: Unit
    source_length: int
    headings: tuple[tuple[int, int, int], ...] = ()
    titles: tuple[str, ...] = ()
    blocks: tuple[tuple[int, int], ...] = ()
    pages: tuple[int, ...] = ()
    source_map: tuple[tuple[int, int], ...] = ()
    rows: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return to_json(self)

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Layout:
        """The layout ``to_json`` wrote (raises ``ValueError``/``TypeError`` on others)."""
        unit = value["unit"]
        if unit not in ("char", "page", "block"):
            raise ValueError(f"unknown layout unit {unit!r}")
        return cls(
            format=str(value["format"]), unit=unit, source_length=int(value["source_length"]),
            headings=tuple((int(s), int(e), int(level)) for s, e, level in value["headings"]),
            titles=tuple(str(t) for t in value["titles"]),
            blocks=tuple((int(s), int(e)) for s, e in value["blocks"]),
            pages=tuple(int(p) for p in value["pages"]),
            source_map=tuple((int(t), int(s)) for t, s in value["source_map"]),
            rows=tuple((int(s), int(e)) for s, e in value.get("rows", ())),
        )

    def shifted(self, by: int, *, source_length: int) -> Layout:
        """The same layout for a source that has ``by`` more characters before the part
        that was read (a Markdown body after its front matter)."""
        pairs = tuple((t, s + by) for t, s in self.source_map)
        return replace(self, source_length=source_length, source_map=pairs)


def _layout(layout: Layout | Mapping[str, Any]) -> Layout:
    return layout if isinstance(layout, Layout) else Layout.from_json(layout)


def section_path(layout: Layout | Mapping[str, Any], offset: int) -> tuple[str, ...]:
    """The titles of the headings enclosing ``offset``, outermost first.

    A heading encloses everything from its start to the next heading of the same or a
    higher level (a smaller number); an offset inside a heading lies in that heading's
    own section. Before the first heading the path is empty.
    """
    if isinstance(layout, Layout):
        headings, titles = layout.headings, layout.titles
    else:  # only the headings of a stored layout: its source map may be long
        headings, titles = layout["headings"], layout["titles"]
    stack: list[tuple[int, str]] = []
    for (start, _, level), title in zip(headings, titles, strict=True):
        if start > offset:
            break
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((int(level), str(title)))
    return tuple(title for _, title in stack)


def source_offset(layout: Layout | Mapping[str, Any], offset: int) -> int:
    """Where text offset ``offset`` came from, in the layout's ``unit``.

    For characters: the offset of the last mapped run at or before it plus the distance
    into that run, never past the next run's start or the source's end. For pages and
    blocks: the page or block of that run. 0 when nothing is mapped.
    """
    found = _layout(layout)
    pairs = found.source_map
    i = bisect_right([t for t, _ in pairs], offset) - 1
    if i < 0:
        return 0
    text_at, source_at = pairs[i]
    if found.unit != "char":
        return source_at
    limit = pairs[i + 1][1] if i + 1 < len(pairs) else found.source_length
    return min(source_at + max(offset - text_at, 0), max(limit, source_at))
