"""Answer validation: an answer must be supported by its cited evidence and lie in time.

* **Supported**: a time answer is a clock time (and date) that the evidence states in its
  text or in its ``occurred_at``; a count equals the number of counted records; a content
  answer is a span of the evidence text.
* **Consistent in time**: every cited record's event time (the times its text states,
  else its ``occurred_at``) overlaps the question's event window, and a date answer is not
  contradicted by the dates its evidence's own text states.

* **Whole**: a short answer is no heading or markup line, and not shorter than its
  question needs: a number for "how many days" (or a length said in words, the cell of a
  table's column of time, "immediately", a count of none or without limit), a time or a
  condition for "when" ("when the free trial period ends", 每个订阅期结束时), a sentence
  not cut inside itself ("GitHub complies with the EU-U."), and for a yes/no or a
  sentence asked, a sentence that states something (not a link or a label: "Google").

A failed check turns the answer ``uncertain``; the caller then shows the raw evidence
with a ``Flag`` saying why (``ANSWER_UNSUPPORTED``, ``ANSWER_IS_HEADING``, ...).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, tzinfo

from chronorag.answer.asks_date import asked_field
from chronorag.answer.cells import time_cell
from chronorag.answer.choose import worded_duration
from chronorag.answer.headings import is_markup_line
from chronorag.answer.polar import replies
from chronorag.answer.shape import Want, wanted, whole_without_number
from chronorag.flags import Flag
from chronorag.ingest.sentences import ends_inside_sentence
from chronorag.lang import states
from chronorag.model import Evidence, Granularity, Interval
from chronorag.timex import parse

_NUMBER_TEXT = re.compile(
    r"\d|[零〇一二两三四五六七八九十百千万亿]|\b(?:one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|ninety|hundred|few|several|"
    r"dozen)\b", re.IGNORECASE)
_CUT_INITIALISM = re.compile(r"[-‐/][A-Za-z]\.$")
# What says when without a number: a condition or an order in time ("when the free trial
# period ends", "after obtaining your consent", "at any time", 每个订阅期结束时), a
# month or day by name, or a unit of time ("around the clock, every day of the year").
# ("May" and "fall" are left out: "you may", "fall under".)
_SAYS_WHEN = re.compile(
    r"\b(?:when|whenever|after|before|until|till|upon|once|if|unless|during|within|while|"
    r"prior\s+to|as\s+soon\s+as|at\s+(?:any|the|that|this|which)\s+time|any\s*time|"
    r"immediately|promptly|now|today|yesterday|tomorrow|daily|weekly|monthly|annually|yearly|"
    r"end|beginning|start|expir\w*|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|"
    r"june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
    r"spring|summer|autumn|winter|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"(?:second|minute|hour|day|night|week|weekend|month|quarter|year|morning|afternoon|"
    r"evening|noon|midnight|holiday)s?|around\s+the\s+clock|always|never|24/7)\b"
    r"|时|前|后|当|期间|以前|以后|之前|之后|起|至|直到|一旦|如果|若|每|立即|随时|届时",
    re.IGNORECASE)
_CLOCK = frozenset({Granularity.HOUR, Granularity.MINUTE, Granularity.SECOND})


def occurred(item: Evidence) -> datetime | None:
    """The start of a record's ``occurred_at`` (``None`` for other documents)."""
    return item.occurred_at


def clock_times(item: Evidence, *, tz: tzinfo, granularity: Granularity | None) -> list[datetime]:
    """Moments of day the evidence states, in ``tz``: ``occurred_at`` when it is finer
    than a day (``granularity``), then clock times in its text ("12:30", 上午九点)."""
    start = occurred(item)
    times = []
    if start is not None and granularity in _CLOCK:
        times.append(start.astimezone(tz))
    if start is not None:
        # The record's own day anchors the clock times of its text.
        for found in parse(item.sentence or item.text, now=start.astimezone(tz), tz=tz):
            iv = found.interval
            if iv.granularity in _CLOCK and iv.start is not None:
                times.append(iv.start.astimezone(tz))
    return times


def format_time(moment: datetime, *, with_date: bool) -> str:
    """``12:30``, or ``2026-11-17 12:30`` when the question spans more than a day."""
    return moment.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M")


def check_time(answer: str, item: Evidence, *, tz: tzinfo,
               granularity: Granularity | None) -> list[Flag]:
    """Flags when ``answer`` is not one of the times ``item`` states."""
    stated = {format_time(t, with_date=" " in answer)
              for t in clock_times(item, tz=tz, granularity=granularity)}
    return [] if answer in stated else [Flag.ANSWER_UNSUPPORTED]


def check_count(answer: str, counted: Sequence[Evidence]) -> list[Flag]:
    """Flags when ``answer`` is not the number of distinct counted records."""
    return [] if answer == str(len({e.doc_id for e in counted})) else [Flag.ANSWER_UNSUPPORTED]


def check_content(answer: str, item: Evidence) -> list[Flag]:
    """Flags when ``answer`` is not a span of the evidence text."""
    return [] if answer and answer in item.text else [Flag.ANSWER_UNSUPPORTED]


def check_short(answer: str, item: Evidence, *, question: str) -> list[Flag]:
    """Flags when ``answer``, said from ``item``, is a heading or less than ``question``
    needs (see the module docstring)."""
    if not answer.strip() or is_markup_line(answer) or (
            Flag.ONLY_HEADINGS in item.flags and answer.strip() == (item.sentence or "").strip()):
        return [Flag.ANSWER_IS_HEADING]
    want = wanted(question)
    if want in (Want.NUMBER, Want.DURATION) and not _says_enough(answer, want, item):
        return [Flag.ANSWER_INCOMPLETE]
    if want is Want.DATE and asked_field(question) is None and not (
            _NUMBER_TEXT.search(answer) or _SAYS_WHEN.search(answer)):
        # "Welcome to GitHub Marketplace!" answers no when: it names neither a time nor
        # a condition. (A document's own date is answered from the document: ``own_date``.)
        return [Flag.ANSWER_INCOMPLETE]
    whole = answer.strip() == (item.sentence or item.text).strip()
    return [Flag.ANSWER_INCOMPLETE] if whole and (
        not says_something(want, answer) or cut_short(answer, item.text)) else []


def says_something(want: Want, sentence: str) -> bool:
    """Whether ``sentence`` can answer what ``want`` asks: any sentence answers a span, and
    a question asking for a statement (yes/no, a sentence) needs one that states something
    (``lang.states``) or, to a yes/no question, a reply ("Yes.", "不可以。"). A link or a
    label ("Google", "30-Day Refund Policy.") answers neither."""
    if want not in (Want.YES_NO, Want.SENTENCE) or states(sentence):
        return True
    return want is Want.YES_NO and replies(sentence)


def _says_enough(answer: str, want: Want, item: Evidence) -> bool:
    """Whether ``answer`` is a whole answer to how many or how long: a number, or said
    whole without one ("immediately", "no phone number masks", 不限数量); for how long,
    also a length in words or a table's column of time, whose cell says it in its own
    words ("session", "until user closes browser")."""
    if _NUMBER_TEXT.search(answer) or whole_without_number(answer):
        return True
    return want is Want.DURATION and (worded_duration(answer)
                                      or answer == time_cell(item.sentence or ""))


def cut_short(answer: str, text: str) -> bool:
    """Whether ``answer`` stops inside a sentence of ``text`` ("... the EU-U." of
    "... the EU-U.S. Data Privacy Framework.")."""
    answer = answer.strip()
    if _CUT_INITIALISM.search(answer):
        return True
    at = text.find(answer)
    if at < 0:
        return False
    end = at + len(answer)
    return end < len(text) and ends_inside_sentence(text[:end], text[end:])


def check_date(claimed: Sequence[Interval], item: Evidence) -> list[Flag]:
    """Flags when the dates an answer names all disagree with the dates its evidence's own
    text states (``Evidence.times``, day or coarser). A text that states no date cannot
    contradict; one date of the answer that agrees is enough (an answer may also name the
    day something was said)."""
    own = [m.interval for m in item.times if m.interval.granularity not in _CLOCK]
    if not own or not claimed:
        return []
    if any(c.overlaps(o) for c in claimed for o in own):
        return []
    return [Flag.DATE_CONTRADICTED_BY_TEXT]


def check_window(cited: Sequence[Evidence], window: Interval | None) -> list[Flag]:
    """Flags when a cited record's event time does not overlap ``window``: the times its
    text states, or when none does, its ``occurred_at`` (a record said the day after its
    event, "yesterday", lies in the window by its text)."""
    if window is None:
        return []
    for item in cited:
        start = occurred(item)
        if any(m.interval.overlaps(window) for m in item.times):
            continue
        if start is None or not window.contains(start):
            return [Flag.EVIDENCE_OUTSIDE_INTERVAL]
    return []
