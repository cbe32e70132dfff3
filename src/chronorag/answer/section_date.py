"""The date a section of a document states for itself, when a question names the section.

A privacy notice "Last Updated: December 2025" may hold addenda each with its own line
("### Canada Addendum" / "Last updated: October 2023"): "When was the Canada addendum last
updated?" asks the addendum's date, not the notice's. The answer stage reads documents
without their text, so the section is found by its heading in the document's layout
(``metadata["_layout"]``: heading offsets and titles, kept at ingest) and its date line in
the text of an evidence item that covers the lines right under that heading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import tzinfo

from chronorag.answer.choose import stems
from chronorag.answer.headings import titled_headings
from chronorag.ingest.stated import is_date_line, propose
from chronorag.model import Document, Evidence, Interval
from chronorag.timex import sentence_mentions

__all__ = ["SectionDate", "section_date"]

# Nouns that say a heading is a part of something and not which part it is.
_PART_NOUNS = frozenset(stems("addendum addenda appendix annex schedule exhibit supplement "
                              "section part chapter article clause"))
# How far under its heading a section's own date line may stand.
_UNDER = 160


@dataclass(frozen=True)
class SectionDate:
    """The date line a section states (``sentence``), the date in it as written
    (``phrase``) and read (``interval``), the evidence item it was read from and the
    section's title."""

    phrase: str
    interval: Interval
    sentence: str
    item: Evidence
    title: str


def section_date(question: str, field: str, *, document: Document,
                 items: Sequence[Evidence], tz: tzinfo) -> SectionDate | None:
    """The ``field`` (``valid_from`` or ``modified_at``) a section named by ``question``
    states under its heading, read from an item of ``items`` of ``document``; None when
    the question names no section of it or no item shows that section's date line."""
    asked = stems(question)
    own = stems(document.title)
    for _start, end, title in titled_headings(document.metadata):
        words = stems(title)
        which = words - _PART_NOUNS
        # The heading names a part ("Canada Addendum") the question names too, and not
        # the document itself (its title heading).
        if not which or not which <= asked or words <= own:
            continue
        found = _date_under(end, field, title, document.id, items, tz=tz)
        if found is not None:
            return found
    return None


def _date_under(heading_end: int, field: str, title: str, doc_id: str,
                items: Sequence[Evidence], *, tz: tzinfo) -> SectionDate | None:
    """The first line under the heading ``title`` ending at ``heading_end``, when an item
    of ``doc_id`` covers it and it is a date line of ``field``."""
    for item in items:
        if item.doc_id != doc_id or not item.start <= heading_end < item.end:
            continue
        below = item.text[heading_end - item.start:][:_UNDER]
        line = next((ln.strip() for ln in below.splitlines() if ln.strip()), "")
        if not is_date_line(line) or all(p.field != field for p in propose(line, tz=tz)):
            return None
        (mentions,) = sentence_mentions(line, [(0, len(line))], tz=tz)
        own = [m for m in mentions if not m.inherited and m.interval.start is not None]
        if not own:
            return None
        return SectionDate(line[own[0].start:own[0].end], own[0].interval, line, item, title)
    return None
