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
anchor ("since 2013" is "2013", as TIMEX3 keeps the signal word apart), and a range has none.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from chronorag.model import Granularity, Interval, Relation
from chronorag.timex.durations import durations_and_sets
from chronorag.timex.engine import Found
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import relate

_FINE = (Granularity.HOUR, Granularity.MINUTE, Granularity.SECOND)
_SEASONS = {3: "SP", 6: "SU", 9: "FA", 12: "WI"}
_RELATIONS = {Relation.SINCE: "since", Relation.UNTIL: "until", Relation.BEFORE: "before",
              Relation.AFTER: "after"}


@dataclass(frozen=True)
class Extracted:
    """One expression of a text: ``text == source[start:end]``; ``interval`` is ``None`` for
    a duration or a set, which name no place on the time line."""

    text: str
    start: int
    end: int
    interval: Interval | None
    kind: str
    relation: str
    value: str | None

    def to_json(self) -> dict[str, Any]:
        """The ``time --extract`` line: DESIGN.md "Extraction", plus ``value``."""
        times = (self.interval.to_json() if self.interval is not None
                 else {"start": None, "end": None, "granularity": None})
        return {"text": self.text, "span": [self.start, self.end], **times,
                "kind": self.kind, "relation": self.relation, "value": self.value}


def extract(text: str, *, now: datetime, tz: tzinfo = UTC) -> list[Extracted]:
    """Every time expression of ``text`` in order, non-overlapping, with character spans.

    >>> from datetime import datetime, UTC
    >>> [e.value for e in extract("since 2013, every Monday for three weeks",
    ...                           now=datetime(2026, 1, 1, tzinfo=UTC))]
    ['2013', 'XXXX-WXX-1', 'P3W']
    """
    ctx = context(now, tz)
    dates = [_date(text, f) for f in find(text, ctx) if f.interval is not None]
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


def _date(text: str, f: Found) -> Extracted:
    assert f.interval is not None
    related = relate(text, f)
    relation = _RELATIONS.get(related.relation, "none")
    start, end = (related.start, related.end) if relation != "none" else (f.start, f.end)
    interval = related.interval if relation != "none" else f.interval
    value: str | None
    if f.kind == "ref":
        kind, value = "ref", _ref_value(f.interval)
    else:
        kind = "time" if interval.granularity in _FINE else "date"
        value = _value(f.interval) if f.kind != "range" else None
    return Extracted(text[start:end], start, end, interval, kind, relation, value)


def _ref_value(interval: Interval) -> str:
    # "the past" runs up to now and "the future" from it; "now" itself is today.
    if interval.start is None:
        return "PAST_REF"
    if interval.end is None:
        return "FUTURE_REF"
    return "PRESENT_REF"


def _value(interval: Interval) -> str | None:
    """TIMEX3 value of a closed interval, named by its start and granularity."""
    s, g = interval.start, interval.granularity
    if s is None or interval.end is None or g is None:
        return None
    forms = {
        Granularity.CENTURY: f"{s.year // 100:02d}", Granularity.DECADE: f"{s.year // 10:03d}",
        Granularity.YEAR: f"{s.year:04d}", Granularity.MONTH: f"{s.year:04d}-{s.month:02d}",
        Granularity.QUARTER: f"{s.year:04d}-Q{(s.month - 1) // 3 + 1}",
        Granularity.SEASON: f"{s.year:04d}-{_SEASONS.get(s.month, 'XX')}",
        Granularity.DAY: s.date().isoformat(),
        Granularity.WEEK: "{:04d}-W{:02d}".format(*s.isocalendar()[:2]),
        Granularity.HOUR: f"{s.date().isoformat()}T{s.hour:02d}",
        Granularity.MINUTE: f"{s.date().isoformat()}T{s.hour:02d}:{s.minute:02d}",
        Granularity.SECOND: s.replace(tzinfo=None).isoformat(timespec="seconds"),
    }
    return forms.get(g)
