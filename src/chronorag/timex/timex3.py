"""TIMEX3 values (TimeML) of intervals: the one place the value format lives.

An interval read at its granularity is written as TimeML writes it: the century "19", the
decade "199", the year "1998", "1998-SU", "1998-Q3", "1998-04", "1998-W14", "1998-04-01",
and times with hours and minutes ("1998-10-23T22:00", as TIMEX3 writes an hour);
``extract`` and the benchmark's adapters for other taggers both use it, so every system is
scored through the same rule. An interval open on one side that meets ``now`` is the
reference word for the past or the future; any other open interval has no value.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from chronorag.model import Granularity, Interval

_SEASONS = {3: "SP", 6: "SU", 9: "FA", 12: "WI"}
# TIMEX3 parts of day, appended to a day ("1998-08-07TMO").
PARTS_OF_DAY = {"morning": "MO", "afternoon": "AF", "evening": "EV", "night": "NI"}


def _week(s: datetime) -> str:
    iso = s.isocalendar()
    return f"{iso[0]:04d}-W{iso[1]:02d}"


_FORMS: dict[str, Callable[[datetime], str]] = {
    "century": lambda s: f"{s.year // 100:02d}",
    "decade": lambda s: f"{s.year // 10:03d}",
    "year": lambda s: f"{s.year:04d}",
    "season": lambda s: f"{s.year:04d}-{_SEASONS.get(s.month, 'XX')}",
    "quarter": lambda s: f"{s.year:04d}-Q{(s.month - 1) // 3 + 1}",
    "month": lambda s: f"{s.year:04d}-{s.month:02d}",
    "week": _week,
    "day": lambda s: f"{s.year:04d}-{s.month:02d}-{s.day:02d}",
    "hour": lambda s: f"{s.year:04d}-{s.month:02d}-{s.day:02d}T{s.hour:02d}:{s.minute:02d}",
    "minute": lambda s: f"{s.year:04d}-{s.month:02d}-{s.day:02d}T{s.hour:02d}:{s.minute:02d}",
    "second": lambda s: (f"{s.year:04d}-{s.month:02d}-{s.day:02d}"
                         f"T{s.hour:02d}:{s.minute:02d}:{s.second:02d}"),
}


def value_of(start: datetime | None, end: datetime | None,
             granularity: Granularity | str | None, now: datetime | None = None) -> str | None:
    """The TIMEX3 value of ``[start, end)`` at ``granularity`` (a day when it is unknown).

    Datetimes are written in their own wall time; naive ones (a tagger's output) work too.

    >>> value_of(datetime(1998, 10, 23, 22), datetime(1998, 10, 23, 23), "hour")
    '1998-10-23T22:00'
    >>> value_of(None, datetime(1998, 1, 1), "day", now=datetime(1998, 1, 1))
    'PAST_REF'
    """
    if start is None or end is None:
        edge = end if start is None else start
        if edge is None or now is None:
            return None
        if (edge.tzinfo is None) != (now.tzinfo is None):
            edge, now = edge.replace(tzinfo=None), now.replace(tzinfo=None)
        if abs(edge - now) > timedelta(days=1):
            return None
        return "PAST_REF" if start is None else "FUTURE_REF"
    form = _FORMS.get(str(granularity) if granularity is not None else "day")
    return None if form is None else form(start)


def timex_value(interval: Interval, granularity: Granularity | str | None = None,
                now: datetime | None = None) -> str | None:
    """The TIMEX3 value of ``interval`` at ``granularity`` (by default its own), written by
    ``value_of``; an interval of several units is written as the unit that holds it.

    >>> from datetime import UTC
    >>> timex_value(Interval(datetime(1991, 1, 1, tzinfo=UTC), datetime(1991, 5, 1, tzinfo=UTC),
    ...                      Granularity.MONTH))
    '1991'
    """
    g = str(granularity if granularity is not None else interval.granularity or "day")
    start, end = interval.start, interval.end
    if start is not None and end is not None:
        if g == "day" and start.weekday() == 5 and end - start == timedelta(days=2):
            return _week(start) + "-WE"  # a weekend, Saturday and Sunday: "1990-W32-WE"
        enclosing = _enclosing(start, end - timedelta(microseconds=1), g)
        if enclosing is not None:
            return enclosing
    return value_of(start, end, g, now)


def _enclosing(first: datetime, last: datetime, g: str) -> str | None:
    """Several months, years or decades ("early 1991" is Jan-Apr, "the late 1970s" 1977-79)
    have no TIMEX3 value of their own: TimeML writes the unit that holds them ("1991",
    "197") and keeps early / mid / late apart (its MOD). None for one unit."""
    if g == "month" and (first.year, first.month) != (last.year, last.month):
        if first.year != last.year:
            return None
        n = last.month - first.month + 1
        if n == 6 and first.month in (1, 7):
            return f"{first.year:04d}-H{1 if first.month == 1 else 2}"
        if n == 3 and first.month % 3 == 1:
            return f"{first.year:04d}-Q{(first.month - 1) // 3 + 1}"
        return f"{first.year:04d}"
    if g == "year" and first.year != last.year:
        if first.year // 10 == last.year // 10:
            return f"{first.year // 10:03d}"
        return f"{first.year // 100:02d}" if first.year // 100 == last.year // 100 else None
    if g == "decade" and first.year // 10 != last.year // 10:
        return f"{first.year // 100:02d}" if first.year // 100 == last.year // 100 else None
    return None
