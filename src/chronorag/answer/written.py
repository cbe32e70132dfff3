"""Checks of an answer a language model wrote from the evidence.

A written answer is accepted only when

* it cites at least one evidence id in square brackets (``[policy-2026]``), and every id
  it cites is an item of the answer's evidence (a document id or a chunk id);
* every cited item applies at ``as_of`` (not superseded, not yet valid, not a draft or
  retired; an upcoming version is never cited);
* every date and time it states is one the cited items state (in their text, title or
  dates), or one the question states, or the asked time itself, read at its own
  precision: "in 2021" for "on 6 May 2021", "from 2019 to 2022" for "from July 2019 to
  September 2022"; never finer ("on 3 July 2019" for "July 2019") and never shifted;
* every other number it states is a number of the cited items or of the question
  (digits, Chinese numerals, English number words from two up);
* a date it names for a record is not one the record's own text contradicts: a message
  that says "yesterday" is not about the day it was said;
* it is an answer, not the prompt copied (the evidence's field labels) or one clause
  said three times or more.

Anything else is a :class:`Problem`, and the engine keeps the extractive answer.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from chronorag.answer import check, when
from chronorag.contract import to_json
from chronorag.model import Evidence, Granularity, Interval
from chronorag.timex import parse
from chronorag.timex.numerals import CN_NUM_CHARS, EN_NUMBER, cn_digits, cn_number, en_number

UNKNOWN_CITATION = "unknown_citation"
NOT_APPLICABLE = "cited_not_applicable"
NO_CITATION = "no_citation"
NUMBER = "number_not_in_evidence"
DATE = "date_not_in_evidence"
EMPTY = "empty_answer"
ECHO = "echoes_the_prompt"
REPEATS = "repeats_itself"

_CITATION = re.compile(r"\[([^\[\]\n]{1,200})\]")
# "1. ..." / "2) ..." at the start of a line numbers a list; it states nothing.
_LIST_MARK = re.compile(r"^[ \t]*\d{1,3}[.)](?=\s)", re.MULTILINE)
_DIGITS = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)*")
_CN_RUN = re.compile(rf"[{CN_NUM_CHARS}]+")
# A Chinese numeral counts as a number when a unit follows it ("三十天", "两年"); alone,
# 一 and 两 are as often words ("一起", "两者") as numbers.
_CN_UNIT = "天日月年周岁时分秒元块次倍号点%％"
_EN_WORD = re.compile(rf"\b{EN_NUMBER}\b", re.IGNORECASE)
_EN_NOT_NUMBERS = frozenset({"a", "an", "one", "a couple of"})
# The evidence's field labels as the prompt writes them ("valid_from: 2026-11-01"): a text
# holding one copied the prompt instead of answering.
_PROMPT_LABEL = re.compile(r"\b(?:doc_id|source_type|valid_from|valid_to|occurred_at|"
                           r"published_at|applicable): ")
_CLAUSE = re.compile(r"[^.!?。！？\n]{12,}")


@dataclass(frozen=True)
class Problem:
    """One reason a written answer was not accepted."""

    rule: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Verdict:
    """The evidence ids an answer cites, in order, and its problems (none: accepted)."""

    cited: tuple[str, ...]
    problems: tuple[Problem, ...]

    @property
    def accepted(self) -> bool:
        return not self.problems


def citations(text: str, *, ids: Collection[str] = (),
              quoted: Collection[str] = ()) -> list[str]:
    """Ids cited in square brackets, in order, each once; ``[a, b]`` cites two, unless
    ``a, b`` is itself one of ``ids`` (a document id may hold a comma). A bracket of the
    evidence's own text (``quoted``: Wikipedia's "[clarification needed]") is a quote,
    not a citation, unless it is an id."""
    out: list[str] = []
    for match in _CITATION.finditer(text):
        whole = match.group(1).strip()
        if whole in quoted and whole not in ids:
            continue
        parts = [whole] if whole in ids else whole.split(",")
        for part in parts:
            if (name := part.strip()) and name not in out:
                out.append(name)
    return out


def check_written(text: str, *, evidence: Sequence[Evidence], question: str,
                  now: datetime, as_of: datetime, tz: tzinfo,
                  upcoming: Sequence[Evidence] = ()) -> Verdict:
    """Judge a written answer against the evidence (and upcoming versions) it was
    written from."""
    if not text.strip():
        return Verdict((), (Problem(EMPTY, "the model wrote nothing"),))
    shown = (*evidence, *upcoming)
    cited = citations(text, ids={i for e in shown for i in (e.doc_id, e.chunk_id)},
                      quoted={m.strip() for e in shown for m in _CITATION.findall(e.text)})
    problems: list[Problem] = []
    if not cited:
        problems.append(Problem(NO_CITATION, "the answer cites no evidence id"))
    items: list[Evidence] = []
    for name in cited:
        found = [e for e in evidence if name in (e.doc_id, e.chunk_id)]
        if any(name in (e.doc_id, e.chunk_id) for e in upcoming):
            problems.append(Problem(NOT_APPLICABLE, f"[{name}] is an upcoming version: it "
                                    "does not apply yet at the asked time"))
        elif not found:
            problems.append(Problem(UNKNOWN_CITATION, f"[{name}] is not in the evidence"))
        for item in found:
            if not item.applicable:
                why = ", ".join(item.flags) or "not applicable"
                problems.append(Problem(NOT_APPLICABLE, f"[{name}] does not apply at the "
                                        f"asked time ({why})"))
        items.extend(found)
    problems.extend(_form(text))
    plain = _LIST_MARK.sub(lambda m: " " * len(m.group()), _CITATION.sub(" ", text))
    sources = [*(_item_text(e) for e in items), question]
    problems.extend(_unsupported_times(plain, sources=sources, cited=items, now=now,
                                       as_of=as_of, tz=tz))
    problems.extend(_contradicted(plain, cited=items, tz=tz))
    return Verdict(tuple(cited), tuple(dict.fromkeys(problems)))  # each problem once


def _contradicted(text: str, *, cited: Sequence[Evidence], tz: tzinfo) -> list[Problem]:
    """A record's own text dates its event ("yesterday": the 19th); an answer that names
    only the day it was recorded (the 20th) for it is contradicted by its evidence."""
    problems = []
    for item in cited:
        if item.occurred_at is None or not item.times:
            continue
        anchor = _start(item).astimezone(tz)
        said = [f.interval for f in parse(text, now=anchor, tz=tz)
                if f.interval.granularity not in _FINE_UNITS]
        day = when.day_of(anchor, tz)
        if (said and any(i.overlaps(day) for i in said)
                and check.check_date(said, item)):
            problems.append(Problem(DATE, f"[{item.doc_id}] says "
                                    f"{item.times[0].text!r}, not the day it was recorded"))
    return problems


_FINE_UNITS = (Granularity.HOUR, Granularity.MINUTE, Granularity.SECOND)


def _form(text: str) -> list[Problem]:
    """An answer that copies the prompt's evidence headers, or says one thing three times
    or more (a model caught in a loop), is no answer, whatever it cites."""
    out = []
    if (label := _PROMPT_LABEL.search(text)) is not None:
        out.append(Problem(ECHO, f"it copies the prompt ({label.group().strip()!r})"))
    clauses = [" ".join(c.split()).lower() for c in _CLAUSE.findall(text)]
    repeated = next((c for c in clauses if clauses.count(c) >= 3), None)
    if repeated is not None:
        out.append(Problem(REPEATS, f"it repeats {repeated[:60]!r} "
                                    f"{clauses.count(repeated)} times"))
    return out


def _item_text(item: Evidence) -> str:
    return f"{item.title}\n{item.text}"


def _unsupported_times(text: str, *, sources: Sequence[str], cited: Sequence[Evidence],
                       now: datetime, as_of: datetime, tz: tzinfo) -> list[Problem]:
    # A record's own day anchors clock times without a date ("12:30" of a lunch record);
    # anything else is read against ``now``, as the question was.
    anchors = [now, *(_start(e).astimezone(tz) for e in cited if e.occurred_at)]
    stated = _stated_intervals(sources, cited=cited, anchors=anchors, as_of=as_of, tz=tz)
    readings: dict[tuple[int, int], list[Interval]] = {}
    surfaces: dict[tuple[int, int], str] = {}
    for anchor in anchors:
        for found in parse(text, now=anchor, tz=tz):
            readings.setdefault((found.start, found.end), []).append(found.interval)
            surfaces[(found.start, found.end)] = found.text
    problems = [Problem(DATE, f"{surfaces[span]!r} is not a time the cited evidence or "
                        "the question states")
                for span, intervals in readings.items()
                if not any(_states(s, i, tz) for i in intervals for s in stated)]
    known = numbers(" ".join(sources))
    rest = "".join(" " if any(a <= i < b for a, b in readings) else ch
                   for i, ch in enumerate(text))
    for surface, candidates in _answer_numbers(rest):
        if not candidates & known:
            problems.append(Problem(NUMBER, f"{surface!r} is not a number of the cited "
                                    "evidence or the question"))
    return problems


def _states(stated: Interval, said: Interval, tz: tzinfo) -> bool:
    """Whether ``said`` is ``stated`` read at ``said``'s precision (its unit at both ends:
    July 2019 - September 2022 read in years is 2019 - 2022)."""
    if (stated.start, stated.end) == (said.start, said.end):
        return True
    unit = said.granularity
    if unit not in _UNITS or stated.start is None or stated.end is None:
        return False
    return (_floor(stated.start, unit, tz), _ceil(stated.end, unit, tz)) == (said.start,
                                                                              said.end)


_UNITS = {Granularity.CENTURY: 1200, Granularity.DECADE: 120, Granularity.YEAR: 12,
          Granularity.QUARTER: 3, Granularity.MONTH: 1, Granularity.WEEK: 0,
          Granularity.DAY: 0, Granularity.HOUR: 0, Granularity.MINUTE: 0}


def _floor(moment: datetime, unit: Granularity, tz: tzinfo) -> datetime:
    local = moment.astimezone(tz)
    if unit is Granularity.MINUTE:
        return local.replace(second=0, microsecond=0)
    if unit is Granularity.HOUR:
        return local.replace(minute=0, second=0, microsecond=0)
    day = local.date()
    if unit is Granularity.WEEK:
        day -= timedelta(days=day.weekday())
    elif unit is not Granularity.DAY:
        months = _UNITS[unit]
        index = (day.year * 12 + day.month - 1) // months * months
        day = day.replace(year=index // 12, month=index % 12 + 1, day=1)
    return datetime(day.year, day.month, day.day, tzinfo=tz)


def _ceil(moment: datetime, unit: Granularity, tz: tzinfo) -> datetime:
    start = _floor(moment, unit, tz)
    if start == moment:
        return start
    step = {Granularity.MINUTE: timedelta(minutes=1), Granularity.HOUR: timedelta(hours=1),
            Granularity.DAY: timedelta(days=1), Granularity.WEEK: timedelta(weeks=1)}
    if unit in step:
        return _floor(start + step[unit], unit, tz)  # across a DST change too
    index = start.year * 12 + start.month - 1 + _UNITS[unit]
    return start.replace(year=index // 12, month=index % 12 + 1)


def _start(item: Evidence) -> datetime:
    if item.occurred_at is None:
        raise ValueError(f"{item.doc_id} is no record: it has no occurred_at")
    return item.occurred_at


def _stated_intervals(sources: Sequence[str], *, cited: Sequence[Evidence],
                      anchors: Sequence[datetime], as_of: datetime, tz: tzinfo
                      ) -> list[Interval]:
    """Times the cited items and the question state (a range with its two ends), and the
    asked and the current minute."""
    out = [i for anchor in anchors for text in sources for i in _parsed(text, anchor, tz)]
    for item in cited:
        for value in (item.valid_from, item.valid_to, item.occurred_at, item.published_at):
            if value is not None:
                # Read as the text of an ISO time, so a stated date matches it at any
                # granularity the parser gives its ends.
                out.extend(_parsed(value.isoformat(), anchors[0], tz))
    for moment in (as_of, anchors[0]):
        local = moment.astimezone(tz).replace(second=0, microsecond=0)
        out.append(Interval(local, local + timedelta(minutes=1), Granularity.MINUTE))
    return [*out, *(end for i in out for end in _ends(i, tz))]


@lru_cache(maxsize=512)
def _parsed(text: str, anchor: datetime, tz: tzinfo) -> tuple[Interval, ...]:
    # Evidence texts repeat across the checks of one answer; reading them is the cost.
    return tuple(found.interval for found in parse(text, now=anchor, tz=tz))


def _ends(interval: Interval, tz: tzinfo) -> list[Interval]:
    """The first and the last unit of a range ("July 2019" and "September 2022" of "from
    July 2019 to September 2022"); nothing for a single unit or an open range."""
    unit, start, end = interval.granularity, interval.start, interval.end
    if unit not in _UNITS or start is None or end is None:
        return []
    tick = timedelta(microseconds=1)
    first = Interval(start, _ceil(start + tick, unit, tz), unit)
    if first.end is None or first.end >= end:
        return []
    return [first, Interval(_floor(end - tick, unit, tz), end, unit)]


def numbers(text: str) -> set[Decimal]:
    """Every number ``text`` states: digits (``1,000`` as 1000 and as its parts), Chinese
    numerals and English number words."""
    out: set[Decimal] = set()
    for match in _DIGITS.finditer(text):
        out.update(_values(match.group()))
    for match in _CN_RUN.finditer(text):
        out.update(_cn_values(match.group()))
    for match in _EN_WORD.finditer(text):
        try:
            out.add(Decimal(en_number(match.group())))
        except ValueError:
            continue
    return out


def _answer_numbers(text: str) -> Iterable[tuple[str, set[Decimal]]]:
    """Each number of an answer with its possible readings (``3,5``: 35 or 3.5)."""
    for match in _DIGITS.finditer(text):
        if readings := set(_wholes(match.group())):
            yield match.group(), readings
    for match in _CN_RUN.finditer(text):
        unit = text[match.end():match.end() + 1]
        if unit and unit in _CN_UNIT and (readings := set(_cn_values(match.group()))):
            yield match.group(), readings
    for match in _EN_WORD.finditer(text):
        word = match.group().lower()
        if word in _EN_NOT_NUMBERS or word.isdigit():
            continue
        try:
            yield match.group(), {Decimal(en_number(word))}
        except ValueError:
            continue


def _wholes(surface: str) -> list[Decimal]:
    """``1,000`` read with a thousands separator and with a decimal comma."""
    out: list[Decimal] = []
    for candidate in (surface.replace(",", ""), surface.replace(",", ".")):
        try:
            out.append(Decimal(candidate))
        except InvalidOperation:
            continue
    return out


def _values(surface: str) -> list[Decimal]:
    """Every reading of a run of digits in the evidence: whole and each part, so
    ``1,000.5`` states 1000.5, 1000,5 read as decimals, 1, 0 and 5."""
    return [*_wholes(surface), *(Decimal(part) for part in re.findall(r"\d+", surface))]


def _cn_values(surface: str) -> list[Decimal]:
    """A Chinese numeral read by its units (二十一) and digit by digit (二〇二六)."""
    out: list[Decimal] = []
    for read in (cn_number, cn_digits):
        try:
            out.append(Decimal(read(surface)))
        except (ValueError, KeyError):
            continue
    return out
