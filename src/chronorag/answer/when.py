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
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any

from chronorag.lang import has_han
from chronorag.model import Evidence, Granularity, Interval

_CLOCK_QUESTION = re.compile(
    r"\bwhat\s+time\b|\bat\s+what\s+hour\b|几点|几时几分|什么时刻|几点钟", re.IGNORECASE)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_DAY_OR_COARSER = (Granularity.CENTURY, Granularity.DECADE, Granularity.YEAR,
                   Granularity.SEASON, Granularity.QUARTER, Granularity.MONTH,
                   Granularity.WEEK, Granularity.DAY)

_ZH_VERBS = {"said": "说于", "recorded": "记于", "written": "写于"}

TIMES_DISAGREE = "times_disagree"
"""Answer flag: records as relevant as the deciding one state other times for it."""
FROM_METADATA = "time_from_metadata"
"""Answer flag: the record's text states no time; its recorded date answers."""


@dataclass(frozen=True)
class AnswerTime:
    """The time a date answer names and where it came from.

    ``source`` is ``text`` (``phrase`` is the record's own words; ``anchor`` the moment
    a relative phrase was read against, ``None`` for an absolute one) or ``metadata``
    (the record's ``occurred_at``, or the date field a question about a document's own
    date asks for; no phrase). ``sentence``: the sentence the phrase stands in, when it
    is not the evidence chunk's (a document's "Effective date: …" line).
    """

    interval: Interval
    source: str
    doc_id: str
    chunk_id: str
    phrase: str | None = None
    anchor: datetime | None = None
    sentence: str | None = None

    def to_json(self) -> dict[str, Any]:
        shown = {} if self.sentence is None else {"sentence": self.sentence}
        return {**self.interval.to_json(), "source": self.source, "phrase": self.phrase,
                "anchor": None if self.anchor is None else self.anchor.isoformat(),
                "doc_id": self.doc_id, "chunk_id": self.chunk_id, **shown}


def asks_clock(question: str) -> bool:
    """Whether a time question wants a time of day rather than a date."""
    return _CLOCK_QUESTION.search(question) is not None


def answer_time(item: Evidence, *, tz: tzinfo) -> AnswerTime | None:
    """The time ``item`` says its event happened: the first date its own text states (the
    best sentence's first), else its recorded ``occurred_at`` as a day; ``None`` when
    neither exists."""
    stated = next((m for m in item.times if m.interval.granularity in _DAY_OR_COARSER
                   and m.interval.start is not None and m.interval.end is not None), None)
    if stated is not None:
        return AnswerTime(stated.interval, "text", item.doc_id, item.chunk_id,
                          stated.text, stated.anchor)
    if item.occurred_at is None:
        return None
    return AnswerTime(day_of(datetime.fromisoformat(item.occurred_at), tz), "metadata",
                      item.doc_id, item.chunk_id)


def disagreeing(best: AnswerTime, others: Sequence[AnswerTime]) -> bool:
    """Whether another equally good record states a time that does not overlap ``best``."""
    return any(not o.interval.overlaps(best.interval) for o in others)


def format_answer(time: AnswerTime, *, question: str, tz: tzinfo,
                  published_at: str | None = None, source_type: str | None = None) -> str:
    """``19 January 2023 ("yesterday", said on 20 January 2023)``, in the question's
    language; a recorded date says it is one. A message was said, a record recorded,
    anything else (and whatever has a ``published_at`` anchor) written."""
    zh = has_han(question)
    when = format_interval(time.interval, tz=tz, zh=zh)
    if time.source == "metadata":
        return f"{when}（记录日期）" if zh else f"{when} (the date it was recorded)"
    if time.anchor is None or time.phrase is None:
        return when
    verb = "written"
    if published_at is None or not _same_moment(published_at, time.anchor):
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


def _same_moment(iso: str, moment: datetime) -> bool:
    return datetime.fromisoformat(iso) == moment

