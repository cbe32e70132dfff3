"""Headings and markup lines: sentences that name a section but state nothing.

A heading ("#### Cross-border data transfers") is never a short answer and never a
chunk's best sentence. A sentence is a heading when

* a reader of the document's format marked it: ``Document.metadata["_layout"]["headings"]``
  holds ``[start, end, level]`` offsets into ``Document.text``, and the sentence lies
  inside one of them; or
* its line is markup (a ``#`` heading, a ``|`` table line, a separator such as ``---``,
  ``===`` or ``|---|---|``, an HTML tag alone, a code fence); or
* it is a short line without final punctuation standing alone in its block (blank lines,
  or the start or end of the text, around it), not a list item and not a "label: value"
  line ("Effective date: February 1, 2024" states something); or
* it is a run-in heading: a word or two ending with a period or a colon that opens its
  line, the paragraph it names following on the same line ("Share. We may “share” …",
  from Markdown's "**Share**. We may …").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from chronorag.lang import HAN_RE

__all__ = ["heading_spans", "is_heading", "is_markup_line", "is_run_in", "titled_headings"]


_MARKUP = re.compile(
    r"\s*(?:#{1,6}(?:\s|$)|\||[-=*_~`]{3,}\s*$|:?-{3,}|</?[A-Za-z][^>]*>\s*$|```|~~~)")
_LIST_ITEM = re.compile(r"\s*(?:[-*+•]\s|\d{1,3}[.)]\s|[(（]?\d{1,3}[)）]\s?)")
_FINAL = re.compile(r"[.!?。！？;；…:：,，)）\]」』”’\"']\s*$")
_LABEL = re.compile(r"\S[:：]\s*\S")
_WORD = re.compile(r"\w+")
_EMPHASIS = ("__", "**")
_RUN_IN = re.compile(r"\s*[A-Za-z][A-Za-z'’-]*(?:\s+[A-Za-z][A-Za-z'’-]*)?\s*[.:]\s*")
# Longest line, in words (a Han character counts as one), that may be a bare heading.
_HEADING_WORDS = 12


def heading_spans(metadata: Mapping[str, Any] | None) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of every heading a reader marked in ``metadata["_layout"]``;
    malformed entries are skipped (the layout is a hint, never a reason to fail)."""
    return tuple((start, end) for start, end, _ in _marked(metadata))


def titled_headings(metadata: Mapping[str, Any] | None) -> tuple[tuple[int, int, str], ...]:
    """``(start, end, title)`` of every heading of ``metadata["_layout"]`` that has a
    title (its ``titles`` run parallel to its ``headings``); malformed entries skipped."""
    return tuple((start, end, title) for start, end, title in _marked(metadata)
                 if title is not None)


def _marked(metadata: Mapping[str, Any] | None) -> list[tuple[int, int, str | None]]:
    layout = (metadata or {}).get("_layout")
    if not isinstance(layout, Mapping):
        return []
    headings, titles = layout.get("headings"), layout.get("titles")
    if not isinstance(headings, Sequence) or isinstance(headings, str):
        return []
    if not isinstance(titles, Sequence) or isinstance(titles, str) \
            or len(titles) != len(headings):
        titles = None
    marked = []
    for index, entry in enumerate(headings):
        if (isinstance(entry, Sequence) and len(entry) >= 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in entry[:2])
                and entry[0] <= entry[1]):
            title = titles[index] if titles is not None else None
            marked.append((entry[0], entry[1], title if isinstance(title, str) else None))
    return marked


def is_markup_line(text: str) -> bool:
    """Whether ``text`` starts with heading, table, separator or tag markup."""
    return _MARKUP.match(text) is not None


def is_heading(text: str, start: int, end: int, *, source: str | None = None,
               headings: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether the sentence ``text`` at ``[start, end)`` of ``source`` is a heading."""
    if any(h_start <= start and end <= h_end for h_start, h_end in headings):
        return True
    if is_markup_line(text):
        return True
    if source is None or source[start:end] != text:
        return False
    return _bare_heading(text, start, end, source) or is_run_in(text, start, end, source=source)


def is_run_in(text: str, start: int, end: int, *, source: str) -> bool:
    """Whether the sentence ``text`` at ``[start, end)`` of ``source`` is a run-in
    heading: a word or two ending with a period or a colon, first on its line with the
    paragraph it names after it ("**Share**. We may “share” your personal data …", its
    bold gone with the markup); or a sentence its emphasis marks enclose whole, when a
    reader kept them ("__付款。__我们所提供的本服务…", a PDF printed from Markdown)."""
    if source[start:end] != text:
        return False
    if _emphasised(text, end, source):
        return True
    if not _RUN_IN.fullmatch(text):
        return False
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    rest = source[end:len(source) if line_end < 0 else line_end]
    return not source[line_start:start].strip() and bool(rest.strip())


def _emphasised(text: str, end: int, source: str) -> bool:
    """Whether ``text`` opens with an emphasis mark ("__", "**") that closes right after
    it, with nothing of the mark between: "__Mozilla VPN__是…" is a sentence that
    stresses a name, "__付款。__" a label."""
    opened = text.lstrip()
    return any(opened.startswith(mark) and mark not in opened[len(mark):]
               and source.startswith(mark, end) for mark in _EMPHASIS)


def _bare_heading(text: str, start: int, end: int, source: str) -> bool:
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    line_end = len(source) if line_end < 0 else line_end
    if source[line_start:line_end].strip() != text.strip() or "\n" in text:
        return False
    if _FINAL.search(text) or _LIST_ITEM.match(text) or _LABEL.search(text):
        return False
    han = len(HAN_RE.findall(text))
    if len(_WORD.findall(HAN_RE.sub(" ", text))) + han / 2 > _HEADING_WORDS:
        return False
    previous = source[:line_start][:-1].rsplit("\n", 1)[-1] if line_start else ""
    following = source[line_end + 1:].split("\n", 1)[0] if line_end < len(source) else ""
    return not previous.strip() and (not following.strip() or is_markup_line(following))
