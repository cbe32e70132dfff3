"""Ingest-time mention extraction: absolute expressions only, fast.

A cheap pre-filter skips sentences without any digit or Chinese numeral (every absolute
expression has one), and one compiled alternation scans the rest in a single pass.

A relation word next to a mention is recorded with it ("自2013年起" is the year 2013 with
``SINCE``; "until 2005", "2018年以前", "after 1990" likewise) while the mention keeps the time
it names: the statement is dated by that time and may hold beyond it, which is for the
temporal scorer to weigh. "as of" / 截至 and "by" record nothing: they date a statement
("by 2005 he had three children" is a state reached then, not one that ended).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from datetime import UTC

from chronorag.model import Mention, Relation
from chronorag.timex.engine import Found
from chronorag.timex.numerals import CN_NUM_CHARS
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import relate

_MAYBE_TIME = re.compile(rf"[0-9{CN_NUM_CHARS}]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_INGEST = context(None, UTC)  # no `now` at ingest: only absolute rules run
_OPENING = frozenset({Relation.SINCE, Relation.UNTIL, Relation.BEFORE, Relation.AFTER})
_DATING_WORDS = re.compile(r"by\b", re.IGNORECASE)


def _relation(sentence: str, found: Found) -> Relation:
    related = relate(sentence, found)
    if related.relation not in _OPENING or _DATING_WORDS.match(sentence, related.start):
        return Relation.IN
    return related.relation


def _own_mentions(text: str, start: int, end: int) -> tuple[Mention, ...]:
    sentence = text[start:end]
    if _MAYBE_TIME.search(sentence) is None:
        return ()
    found = find(sentence, _INGEST)
    return tuple(
        Mention(sentence[f.start:f.end], start + f.start, start + f.end, f.interval,
                relation=_relation(sentence, f))
        for f in found if f.interval is not None
    )


def sentence_mentions(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[Mention, ...]]:
    """Absolute time mentions of each sentence ``[start, end)`` of ``text``.

    Offsets are absolute into ``text``. A sentence without a mention of its own inherits the
    nearest preceding mention of its paragraph (paragraphs are separated by a blank line),
    as one ``Mention`` with ``inherited=True`` and the original text, offsets and interval.
    """
    breaks = [m.start() for m in _PARAGRAPH_BREAK.finditer(text)] if "\n" in text else []
    result: list[tuple[Mention, ...]] = []
    last: Mention | None = None
    last_paragraph = -1
    for start, end in spans:
        paragraph = bisect.bisect_right(breaks, start)
        if paragraph != last_paragraph:
            last, last_paragraph = None, paragraph
        own = _own_mentions(text, start, end)
        if own:
            last = own[-1]
            result.append(own)
        elif last is not None:
            result.append((Mention(last.text, last.start, last.end, last.interval, True,
                                   last.relation),))
        else:
            result.append(())
    return result
