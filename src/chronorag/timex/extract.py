"""Extraction from running text: every time expression with its kind, relation and value.

The public face of the time parser for callers that want all of a text's times
(``chronorag time --extract``): dates and times come from ``find`` (relative ones resolved
against ``now``), durations and sets from ``timex.durations``. ``kind`` is one of date,
time (a granularity of an hour or finer), duration, set and ref (PRESENT_REF, PAST_REF,
FUTURE_REF); ``relation`` is none, since, until, before or after, and with one the span
covers the relation words and the interval is opened ("since 2013" is
``[2013-01-01, None)``). ``value`` is a TIMEX3-style value ("2021-05", "2021-W18", "P3D",
"XXXX-WXX-1", "PRESENT_REF"; a Chinese duration keeps the decimals of its reference
annotation, "P1.5Y", where English writes TimeML's "P1Y6M"); with a relation it names the
anchor ("since 2013" is "2013", as TIMEX3 keeps the signal word apart), and a range has none
but lists its two ends in ``parts`` (TimeML tags "between [1994] and [1997]" as two).

Values follow TimeML where it writes more than the interval (``timex.timex3``,
``timex.en_parts``, ``timex.en_extra``): "Friday morning" is "1998-08-07TMO"; "the past two
months" is a duration anchored at now (kind duration, value "P2M", the interval kept);
"three days later" is the duration "three days" (it counts from an event, not from now);
"a year ago" in a report on a quarter is that quarter a year before; "early 1991" is "1991".
English references that only extraction reports ("these days", "the near term") never
reach ``parse``, so they never constrain a question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, tzinfo
from typing import Annotated, Any, ClassVar

from chronorag.contract import Inline, to_json
from chronorag.model import Granularity, Interval, Relation
from chronorag.timex.calendar import Context
from chronorag.timex.durations import durations_and_sets
from chronorag.timex.en_extra import compared_period, english_extras
from chronorag.timex.en_parts import part_of_day, window_value
from chronorag.timex.engine import Found, attach_times
from chronorag.timex.numerals import EN_NUMBER
from chronorag.timex.pipeline import context, find, scanner
from chronorag.timex.relations import relate
from chronorag.timex.rules import ERA_MARK
from chronorag.timex.timex3 import timex_value

_FINE = (Granularity.HOUR, Granularity.MINUTE, Granularity.SECOND)
# "a year ago" in a report names the period compared a year before (``en_extra``).
_A_YEAR_BACK = re.compile(r"(?:a|one)\s+year\s+(?:ago|earlier)", re.IGNORECASE)
_FROM_EVENT = re.compile(r"(?:" + EN_NUMBER + r")\s+(?:day|week|month|quarter|year|decade)s?"
                         r"\s+(?:before|after|later)", re.IGNORECASE)
_RELATIONS = {Relation.SINCE: "since", Relation.UNTIL: "until", Relation.BEFORE: "before",
              Relation.AFTER: "after"}


@dataclass(frozen=True)
class Extracted:
    """One expression of a text: ``text == source[start:end]``; ``interval`` is ``None`` for
    a duration or a set, which name no place on the time line."""

    text: str
    start: int
    end: int
    interval: Annotated[Interval | None, Inline]
    kind: str
    relation: str
    value: str | None
    # The two ends of a range ("between 1994 and 1997"), each read alone, as TimeML tags
    # them: two TIMEX3 linked by the range words; empty for any other expression.
    parts: tuple[Extracted, ...] = ()

    # The ``time --extract`` line: DESIGN.md "Extraction", plus ``value``.
    json_keys: ClassVar[tuple[str, ...]] = (
        "text", "span", "interval", "kind", "relation", "value")

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


def extract(text: str, *, now: datetime, tz: tzinfo = UTC) -> list[Extracted]:
    """Every time expression of ``text`` in order, non-overlapping, with character spans.

    >>> from datetime import datetime, UTC
    >>> [e.value for e in extract("since 2013, every Monday for three weeks",
    ...                           now=datetime(2026, 1, 1, tzinfo=UTC))]
    ['2013', 'XXXX-WXX-1', 'P3W']
    """
    ctx = context(now, tz)
    # "three days later", "ten days before the shooting" count from an event, not from now:
    # TimeML tags the duration ("three days", P3D), which ``durations`` reads.
    found = [f for f in find(text, ctx) if f.interval is not None
             and not _FROM_EVENT.fullmatch(text, f.start, f.end)]
    dates = [_date(text, f, ctx) for f in found]
    if any(f.kind == "range" for f in found):
        dates = _with_parts(text, dates, ctx)
    spans = durations_and_sets(text)
    # The longer reading wins: a set or duration holds the day or hour it names ("every
    # Monday", "8天20时"); a date holds the duration it counts from ("three years ago").
    longer = [(s.start, s.end) for s in spans]
    out = [d for d in dates
           if not any(a <= d.start and d.end <= b and b - a > d.end - d.start
                      for a, b in longer)]
    taken = [(e.start, e.end) for e in out]
    for span in spans:
        if all(span.end <= a or span.start >= b for a, b in taken):
            out.append(Extracted(text[span.start:span.end], span.start, span.end, None,
                                 span.kind, "none", span.value))
    # Words only extraction reports (``timex.en_extra``) fill what nothing else read.
    taken = [(e.start, e.end) for e in out]
    if ctx.now is not None:
        for extra in english_extras(text, ctx.now, tz):
            if all(extra.end <= a or extra.start >= b for a, b in taken):
                out.append(Extracted(text[extra.start:extra.end], extra.start, extra.end,
                                     extra.interval, extra.kind, "none", extra.value))
    out.sort(key=lambda e: e.start)
    return _disjoint(out)


def _disjoint(items: list[Extracted]) -> list[Extracted]:
    # Relation words may reach into a neighbour ("2003 to since 2005" is not a range): the
    # earlier expression keeps its words.
    out: list[Extracted] = []
    for item in items:
        if not out or item.start >= out[-1].end:
            out.append(item)
    return out


def _date(text: str, f: Found, ctx: Context) -> Extracted:
    assert f.interval is not None
    related = relate(text, f)
    relation = _RELATIONS.get(related.relation, "none")
    start, end = (related.start, related.end) if relation != "none" else (f.start, f.end)
    interval = related.interval if relation != "none" else f.interval
    compared = (compared_period(text, f.start, ctx.today, ctx.tz) if ctx.now is not None
                and _A_YEAR_BACK.fullmatch(text, f.start, f.end) else None)
    if compared is not None:
        # "up from $5 a year earlier" compares; the period is the value either way
        return Extracted(text[start:end], start, end,
                         compared[0] if relation == "none" else interval, "date", relation,
                         compared[1])
    value: str | None
    if f.kind == "ref":
        kind, value = "ref", _ref_value(f.interval)
    elif f.kind == "window":
        kind, value = "duration", window_value(text[f.start:f.end])
    else:
        kind = "time" if interval.granularity in _FINE else "date"
        value = timex_value(f.interval) if f.kind != "range" else None
        if value is not None and f.interval.granularity == Granularity.DAY:
            value += part_of_day(text[f.start:f.end])
    return Extracted(text[start:end], start, end, interval, kind, relation, value)


def _with_parts(text: str, dates: list[Extracted], ctx: Context) -> list[Extracted]:
    """Each range with its ends, read by the scanner before ranges were merged."""
    eras = ERA_MARK.search(text) is not None
    raw = attach_times(text, scanner(absolute_only=ctx.now is None, eras=eras).scan(text, ctx),
                       ctx)
    out = []
    for d in dates:
        if d.value is None and d.interval is not None:
            inside = [f for f in raw if f.interval is not None
                      and d.start <= f.start and f.end <= d.end]
            if len(inside) < 2:  # one rule read the whole range ("between 1994 and 1997")
                inside = _halves(text, d.start, d.end, ctx)
            d = replace(d, parts=tuple(_part(text, f) for f in inside))
        out.append(d)
    return out


_CONNECTOR = re.compile(r"\s*(?:-|–|—|/|\bto\b|\buntil\b|\btill\b|\bthrough\b|\band\b)\s*",
                        re.IGNORECASE)


def _halves(text: str, start: int, end: int, ctx: Context) -> list[Found]:
    """The expressions on either side of a range's last connector, read apart."""
    cuts = list(_CONNECTOR.finditer(text, start, end))
    if not cuts:
        return []
    cut = cuts[-1]
    out = []
    for lo, hi in ((start, cut.start()), (cut.end(), end)):
        found = [f for f in find(text[lo:hi], ctx) if f.interval is not None]
        if len(found) != 1:
            return []
        out.append(replace(found[0], start=found[0].start + lo, end=found[0].end + lo))
    return out


def _part(text: str, f: Found) -> Extracted:
    assert f.interval is not None
    if f.kind == "ref":
        return Extracted(text[f.start:f.end], f.start, f.end, f.interval, "ref", "none",
                         _ref_value(f.interval))
    kind = "time" if f.interval.granularity in _FINE else "date"
    value = timex_value(f.interval)
    if value is not None and f.interval.granularity == Granularity.DAY:
        value += part_of_day(text[f.start:f.end])
    return Extracted(text[f.start:f.end], f.start, f.end, f.interval, kind, "none", value)


def _ref_value(interval: Interval) -> str:
    # "the past" runs up to now and "the future" from it; "now" itself is today.
    if interval.start is None:
        return "PAST_REF"
    if interval.end is None:
        return "FUTURE_REF"
    return "PRESENT_REF"
