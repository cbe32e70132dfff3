"""Date answers to "when" questions: the time a record's text states, with its reason.

A record is about the times its sentences state. "When did Jon lose his job?" over the
turn "Lost my job as a banker yesterday", said on 20 January 2023, answers
``19 January 2023 ("yesterday", said on 20 January 2023)``: the phrase, read at its own
granularity, and the moment it was read against. Only a record whose text states no time
is answered from its metadata (``occurred_at``, the day it was recorded), and the answer
says so. The answer carries an :class:`AnswerTime` so a caller sees the phrase, the anchor
and the source without parsing the text.

A question about a clock time ("what time", 几点) is not answered here: its answer is a
time of day (``answer.personal``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Annotated, Any

from chronorag.answer.counted import counted_back
from chronorag.contract import Inline, OmitNone, to_json
from chronorag.lang import has_han
from chronorag.model import Evidence, Granularity, Interval, Mention
from chronorag.timex import calendar as cal
from chronorag.timex.en_tense import tense as sentence_tense
from chronorag.timex.pipeline import context, find

_CLOCK_QUESTION = re.compile(
    r"\bwhat\s+time\b|\bat\s+what\s+hour\b|几点|几时几分|什么时刻|几点钟", re.IGNORECASE)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_ZH_VERBS = {"said": "说于", "recorded": "记于", "written": "写于"}
# A Chinese question about what is still to come (将 / 打算 / 计划 / 准备 / 预计), or one
# about what has happened (the aspect markers 了 / 过). 会 and 要 are left out: they stand
# in too many words (会议, 重要) to mark a tense alone.
_ZH_FUTURE = re.compile(r"将|打算|计划|計劃|準備|准备|预计|預計")
_ZH_PAST = re.compile(r"[了过過]")
# A count of whole years back from the anchor ("a year ago", "two years earlier", 三年前),
# as opposed to a calendar year named relative to it ("last year", 去年).
_YEARS_BACK = re.compile(r"\byears?\s+(?:ago|earlier|before)\W*$|年(?:以)?前\W*$",
                         re.IGNORECASE)

TOLD_WHOLE: frozenset[str] = frozenset({"news", "wiki", "policy", "faq", "script",
                                        "glossary"})
"""Kinds of text that tell their event whole: a news story states its own date or is
about the day it came out, so it never takes a date from another record, nor gives one.
Messages, records, notes and forum posts are parts of a telling and may."""


@dataclass(frozen=True)
class AnswerTime:
    """The time a date answer names and where it came from.

    ``source`` is ``text`` (``phrase`` is the record's own words; ``anchor`` the moment
    a relative phrase was read against, ``None`` for an absolute one), ``counted`` (the
    start of a period the text counts back from ``anchor``: ``phrase`` "for 10 years",
    see ``answer.counted``) or ``metadata`` (the record's ``occurred_at``, or the date
    field a question about a document's own date asks for; no phrase). ``sentence``: the
    sentence the phrase stands in, when it is not the evidence chunk's (a document's
    "Effective date: …" line). The fields are in the order of ``answer_time`` in ``ask
    --json``.
    """

    interval: Annotated[Interval, Inline]
    source: str
    phrase: str | None = field(default=None, kw_only=True)
    anchor: datetime | None = field(default=None, kw_only=True)
    approximate: bool = field(default=False, kw_only=True)
    doc_id: str
    chunk_id: str
    sentence: Annotated[str | None, OmitNone] = field(default=None, kw_only=True)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


def asks_clock(question: str) -> bool:
    """Whether a time question wants a time of day rather than a date."""
    return _CLOCK_QUESTION.search(question) is not None


def tells_part(item: Evidence) -> bool:
    """Whether ``item`` may be one part of an event told over several records (see
    ``TOLD_WHOLE``)."""
    return (item.source_type or "").strip().lower() not in TOLD_WHOLE


def question_tense(question: str) -> int:
    """-1 when ``question`` asks about what has happened ("When did…", 什么时候去的),
    +1 about what is to come ("When will…", "planning", 打算), 0 when it does not say."""
    if has_han(question):
        return 1 if _ZH_FUTURE.search(question) else -1 if _ZH_PAST.search(question) else 0
    return sentence_tense(question, 0, 0)


def answer_time(item: Evidence, *, tz: tzinfo, tense: int = 0) -> AnswerTime | None:
    """The time ``item`` says its event happened: the first date its own text states (the
    best sentence's first), else, unless the question asks about what is still to come
    (``tense`` 1, see ``question_tense``), the start of a period its text counts back from
    its anchor ("for 10 years"), else its recorded ``occurred_at`` as a day; ``None``
    when none exists."""
    # A time finer than a day ("2023年3月5日下午", "last night") names its day too.
    stated = next((m for m in item.times
                   if m.interval.start is not None and m.interval.end is not None), None)
    if stated is not None:
        anchor = stated.anchor if _needs_anchor(stated, tz) else None
        near = None if anchor is None else years_back(stated, anchor=anchor, tz=tz)
        return AnswerTime(near or stated.interval, "text", item.doc_id, item.chunk_id,
                          phrase=stated.text, anchor=anchor, approximate=near is not None)
    anchor = _anchor(item)
    if anchor is not None and tense <= 0:
        counted = counted_back(item.sentence or item.text, anchor=anchor, tz=tz)
        if counted is None and item.sentence:
            counted = counted_back(item.text, anchor=anchor, tz=tz)
        if counted is not None:
            return AnswerTime(counted.interval, "counted", item.doc_id, item.chunk_id,
                              phrase=counted.phrase, anchor=anchor,
                              approximate=counted.approximate)
    if item.occurred_at is None:
        return None
    return AnswerTime(day_of(item.occurred_at, tz), "metadata",
                      item.doc_id, item.chunk_id)


def years_back(mention: Mention, *, anchor: datetime, tz: tzinfo) -> Interval | None:
    """The month a count of whole years back from ``anchor`` lands in ("a year ago",
    said on 3 August 2023: August 2022), when ``mention`` is one; else ``None``."""
    interval = mention.interval
    if interval.granularity is not Granularity.YEAR or interval.start is None \
            or not _YEARS_BACK.search(mention.text):
        return None
    said = anchor.astimezone(tz).date()
    try:
        landed = cal.shift(said, "year", interval.start.astimezone(tz).year - said.year)
    except (OverflowError, ValueError):
        return None
    return cal.unit_interval(landed, "month", tz)


def _needs_anchor(mention: Mention, tz: tzinfo) -> bool:
    """Whether the phrase names its time only against its anchor ("yesterday"), not by
    itself ("2023年3月5日下午": its rule may read yearless dates too, but this one has a
    year)."""
    if mention.anchor is None:
        return False
    alone = find(mention.text, context(None, tz))
    return not any(f.interval is not None and f.interval.covers(mention.interval)
                   for f in alone)


def _anchor(item: Evidence) -> datetime | None:
    """When the record's text was written or said (``Document.reference_time``)."""
    return item.published_at or item.occurred_at


def disagreeing(best: AnswerTime, others: Sequence[AnswerTime], *, tense: int = 0) -> bool:
    """Whether another equally good record gives a time that does not fit ``best``.

    A time its text states must overlap ``best``. A record whose text states none gives
    only the day it was recorded, a bound rather than a date: it disagrees only when
    it was recorded before ``best`` began, for an event that has happened (``tense`` < 1:
    it spoke of the event before it took place), or after ``best`` ended, for one still
    to come (``tense`` 1).
    """
    return any(_against(best.interval, o, tense) for o in others)


def _against(claimed: Interval, other: AnswerTime, tense: int) -> bool:
    if other.source != "metadata" or claimed.start is None or claimed.end is None:
        return not other.interval.overlaps(claimed)
    recorded = other.interval
    assert recorded.start is not None and recorded.end is not None
    return recorded.start >= claimed.end if tense > 0 else recorded.end <= claimed.start


def format_answer(time: AnswerTime, *, question: str, tz: tzinfo,
                  published_at: datetime | None = None, source_type: str | None = None) -> str:
    """``19 January 2023 ("yesterday", said on 20 January 2023)``, in the question's
    language; a recorded date says it is one; an absolute phrase ("February 8, 2021") is
    answered in its own words when the question is in its language. A message was said,
    a record recorded, anything else (and whatever has a ``published_at`` anchor)
    written."""
    zh = has_han(question)
    when = format_interval(time.interval, tz=tz, zh=zh)
    if time.approximate:
        when = f"约{when}" if zh else f"about {when}"
    if time.source == "metadata":
        return f"{when}（记录日期）" if zh else f"{when} (the date it was recorded)"
    if time.anchor is None or time.phrase is None:
        # An absolute phrase names its time by itself: the answer is the text's own words
        # (a span of the evidence), unless the question is asked in the other language.
        if time.source == "text" and time.phrase and has_han(time.phrase) == zh:
            return time.phrase.strip()
        return when
    verb = "written"
    if published_at is None or published_at != time.anchor:
        verb = {"message": "said", "record": "recorded"}.get(source_type or "", "written")
    anchor = format_interval(day_of(time.anchor, tz), tz=tz, zh=zh)
    if zh:
        return f"{when}（“{time.phrase}”，{_ZH_VERBS[verb]}{anchor}）"
    return f'{when} ("{time.phrase}", {verb} on {anchor})'


def format_interval(interval: Interval, *, tz: tzinfo, zh: bool) -> str:
    """A period at its own granularity: ``19 January 2023``, ``January 2023``, ``2023``;
    other periods as their first and last day."""
    assert interval.start is not None
    start = interval.start.astimezone(tz)
    gran = interval.granularity
    if gran is Granularity.YEAR:
        return f"{start.year}年" if zh else str(start.year)
    if gran is Granularity.MONTH:
        return (f"{start.year}年{start.month}月" if zh
                else f"{_MONTHS[start.month - 1]} {start.year}")
    if gran in (Granularity.DAY, Granularity.HOUR, Granularity.MINUTE, Granularity.SECOND):
        return (f"{start.year}年{start.month}月{start.day}日" if zh
                else f"{start.day} {_MONTHS[start.month - 1]} {start.year}")
    if interval.end is None:
        return start.date().isoformat()
    last = (interval.end.astimezone(tz) - timedelta(microseconds=1)).date()
    return f"{start.date().isoformat()} – {last.isoformat()}"


def day_of(moment: datetime, tz: tzinfo) -> Interval:
    """The calendar day of ``moment`` in ``tz``, as a day interval."""
    day = moment.astimezone(tz).replace(hour=0, minute=0, second=0, microsecond=0)
    return Interval(day, day + timedelta(days=1), Granularity.DAY)


