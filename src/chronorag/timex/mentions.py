"""Ingest-time mention extraction: every text read at its own time.

A text with a reference time (when it was written or said, ``Document.reference_time``)
has its relative phrases read against it: "Lost my job yesterday", said on 20 January
2023, names 19 January 2023, and the mention keeps the phrase and that anchor. A text
without one gets absolute expressions only: its "yesterday" has no day. Absolute-only
scanning is fast: a cheap pre-filter skips sentences without any digit or Chinese numeral
(every absolute expression has one), and one compiled alternation scans the rest.

Not every relative phrase dates a statement. "now", "currently", 目前 and "in the past"
(kind ``ref``) say the statement holds when it was written, not that it happened then:
read as that day they would make "she is currently chair" violate every later question,
so they are left to the document's own dates. "three days later" counts from an event the
text names, not from the anchor, and is left out too.

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
from datetime import UTC, datetime, tzinfo

from chronorag.model import Mention, Relation
from chronorag.timex.calendar import Context
from chronorag.timex.engine import Found
from chronorag.timex.numerals import CN_NUM_CHARS, EN_NUMBER
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import relate

_MAYBE_TIME = re.compile(rf"[0-9{CN_NUM_CHARS}]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_INGEST = context(None, UTC)  # no `now` at ingest: only absolute rules run
_OPENING = frozenset({Relation.SINCE, Relation.UNTIL, Relation.BEFORE, Relation.AFTER})
_DATING_WORDS = re.compile(r"by\b", re.IGNORECASE)
_FROM_EVENT = re.compile(r"(?:" + EN_NUMBER + r")\s+(?:day|week|month|quarter|year|decade)s?"
                         r"\s+(?:before|after|later)", re.IGNORECASE)


def _relation(sentence: str, found: Found) -> Relation:
    related = relate(sentence, found)
    if related.relation not in _OPENING or _DATING_WORDS.match(sentence, related.start):
        return Relation.IN
    return related.relation


def _dates(sentence: str, found: Found) -> bool:
    """Whether a found expression dates the statement (see the module docstring)."""
    if found.interval is None or found.kind == "ref":
        return False
    return not (found.relative and _FROM_EVENT.fullmatch(sentence, found.start, found.end))


def _own_mentions(text: str, start: int, end: int, ctx: Context) -> tuple[Mention, ...]:
    sentence = text[start:end]
    if ctx.now is None and _MAYBE_TIME.search(sentence) is None:
        return ()
    anchor = ctx.now
    return tuple(
        Mention(sentence[f.start:f.end], start + f.start, start + f.end, f.interval,
                relation=_relation(sentence, f), anchor=anchor if f.relative else None)
        for f in find(sentence, ctx, word_starts=True)
        if f.interval is not None and _dates(sentence, f)
    )


def sentence_mentions(text: str, spans: Sequence[tuple[int, int]], *,
                      anchor: datetime | None = None,
                      tz: tzinfo = UTC) -> list[tuple[Mention, ...]]:
    """Time mentions of each sentence ``[start, end)`` of ``text``.

    With ``anchor`` (the text's reference time) relative phrases are read against it, in
    the calendar of ``tz``, and carry it as their ``anchor``; without, only absolute ones.
    Offsets are absolute into ``text``. A sentence without a mention of its own inherits the
    nearest preceding mention of its paragraph (paragraphs are separated by a blank line),
    as one ``Mention`` with ``inherited=True`` and the original text, offsets and interval.
    """
    ctx = _INGEST if anchor is None else context(anchor, tz)
    breaks = [m.start() for m in _PARAGRAPH_BREAK.finditer(text)] if "\n" in text else []
    result: list[tuple[Mention, ...]] = []
    last: Mention | None = None
    last_paragraph = -1
    for start, end in spans:
        paragraph = bisect.bisect_right(breaks, start)
        if paragraph != last_paragraph:
            last, last_paragraph = None, paragraph
        own = _own_mentions(text, start, end, ctx)
        if own:
            last = own[-1]
            result.append(own)
        elif last is not None:
            result.append((Mention(last.text, last.start, last.end, last.interval, True,
                                   last.relation, last.anchor),))
        else:
            result.append(())
    return result


_PROBE = context(datetime(2000, 1, 1, tzinfo=UTC), UTC)


def relative_phrases(text: str, *, limit: int = 3) -> list[str]:
    """Up to ``limit`` phrases of ``text`` that would date a statement if the text had a
    reference time ("yesterday", 上周五): what a text without one leaves unread."""
    out: list[str] = []
    for f in find(text, _PROBE, word_starts=True):
        if f.relative and f.interval is not None and _dates(text, f):
            out.append(text[f.start:f.end])
            if len(out) >= limit:
                break
    return out
