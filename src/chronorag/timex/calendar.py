"""Calendar arithmetic used by the time parsers.

All helpers work on calendar ``date`` values in the caller's time zone and turn them into
timezone-aware half-open intervals at the very end, so DST never shifts a day boundary.

The calendar holds 0001-01-01 to 9999-12-31 (Python's ``date``), and an interval must also
hold in UTC, where the store keeps it. A year-9999 interval cannot be held: its exclusive
end would be 10000-01-01. Helpers raise ``ValueError`` / ``OverflowError`` for a time the
calendar cannot hold or an impossible date (31 Feb); the scanner turns that into a skip.
"""

from __future__ import annotations

import calendar as _cal
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

from chronorag.model import Granularity, Interval

G = Granularity

# Meteorological seasons (Northern hemisphere): spring = Mar-May, summer = Jun-Aug,
# autumn = Sep-Nov, winter = Dec of the named year to Feb of the next.
SEASON_START_MONTH = {"spring": 3, "summer": 6, "autumn": 9, "winter": 12}


class Unheld(ValueError):
    """A time that is recognised but that the calendar cannot hold (500 BC, year 10000)."""


def held(interval: Interval) -> Interval:
    """``interval`` itself when the calendar can hold it in UTC too, else ``Unheld``.

    ``Interval`` already insists on aware ends and ``start < end``; this adds that both ends
    exist in UTC, where the store keeps them: a local 0001-01-01 east of Greenwich is still
    year 0 in UTC. A UTC offset is under a day, so only years 1 and 9999 need the check.
    """
    for value in (interval.start, interval.end):
        if value is not None and (value.year == 1 or value.year == 9999):
            try:
                value.astimezone(UTC)
            except OverflowError:
                raise Unheld(f"{value.isoformat()} is outside the calendar in UTC") from None
    return interval


@dataclass(frozen=True)
class Context:
    """What resolution needs: the reference ``now`` (None at ingest) and the time zone."""

    now: datetime | None
    tz: tzinfo

    @property
    def today(self) -> date:
        if self.now is None:  # relative recognizers are never run without a now
            raise ValueError("relative expression resolved without a reference time")
        return self.now.date()


def at(d: date, tz: tzinfo, hour: int = 0, minute: int = 0) -> datetime:
    """Midnight (or the given wall time) of ``d`` in ``tz``."""
    return datetime(d.year, d.month, d.day, hour, minute, tzinfo=tz)


def add_months(d: date, months: int) -> date:
    """``d`` moved by whole months; the day is clamped to the target month's end."""
    index = d.year * 12 + (d.month - 1) + months
    year, month = divmod(index, 12)
    last = _cal.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(d.day, last))


def shift(d: date, unit: str, n: int) -> date:
    """``d`` moved by ``n`` units (day, week, month, quarter, year, decade)."""
    if unit == "day":
        return d + timedelta(days=n)
    if unit == "week":
        return d + timedelta(weeks=n)
    months = {"month": 1, "quarter": 3, "year": 12, "decade": 120}[unit]
    return add_months(d, n * months)


def week_start(d: date) -> date:
    """The Monday of ``d``'s week (weeks start on Monday)."""
    return d - timedelta(days=d.weekday())


def span(start: date, end: date, tz: tzinfo, granularity: Granularity) -> Interval:
    """The interval ``[start, end)`` between two calendar days."""
    return Interval(at(start, tz), at(end, tz), granularity)


def day(d: date, tz: tzinfo) -> Interval:
    return span(d, d + timedelta(days=1), tz, G.DAY)


def days(start: date, n: int, tz: tzinfo, granularity: Granularity = G.DAY) -> Interval:
    return span(start, start + timedelta(days=n), tz, granularity)


def month(year: int, month_: int, tz: tzinfo) -> Interval:
    first = date(year, month_, 1)
    return span(first, add_months(first, 1), tz, G.MONTH)


def months(year: int, month_: int, n: int, tz: tzinfo, granularity: Granularity) -> Interval:
    first = date(year, month_, 1)
    return span(first, add_months(first, n), tz, granularity)


def years(first: int, last: int, tz: tzinfo, granularity: Granularity = G.YEAR) -> Interval:
    """Whole years ``first`` through ``last`` inclusive."""
    return span(date(first, 1, 1), date(last + 1, 1, 1), tz, granularity)


def quarter(year: int, q: int, tz: tzinfo) -> Interval:
    return months(year, 3 * q - 2, 3, tz, G.QUARTER)


def season(year: int, name: str, tz: tzinfo) -> Interval:
    return months(year, SEASON_START_MONTH[name], 3, tz, G.SEASON)


def year_part(year: int, part: str, tz: tzinfo) -> Interval:
    """early / mid / late year = first / middle / last third: Jan-Apr, May-Aug, Sep-Dec."""
    start = {"early": 1, "mid": 5, "late": 9}[part]
    return months(year, start, 4, tz, G.MONTH)


def half_year(year: int, second: bool, tz: tzinfo) -> Interval:
    return months(year, 7 if second else 1, 6, tz, G.MONTH)


def decade(first_year: int, tz: tzinfo, part: str | None = None) -> Interval:
    """The decade starting at ``first_year``; a part is early 0-3, mid 4-6, late 7-9."""
    if part is None:
        return years(first_year, first_year + 9, tz, G.DECADE)
    lo, hi = {"early": (0, 3), "mid": (4, 6), "late": (7, 9)}[part]
    return years(first_year + lo, first_year + hi, tz, G.YEAR)


def century(number: int, tz: tzinfo, part: str | None = None) -> Interval:
    """The n-th century AD as years (n-1)00..(n-1)99 (popular usage, not the strict 01..00);
    a part is early 0-32, mid 33-65, late 66-99."""
    if part is None:
        return century_years(number, 0, 99, tz, G.CENTURY)
    lo, hi = {"early": (0, 32), "mid": (33, 65), "late": (66, 99)}[part]
    return century_years(number, lo, hi, tz, G.DECADE)


def century_years(number: int, lo: int, hi: int, tz: tzinfo,
                  granularity: Granularity) -> Interval:
    """Years ``lo``..``hi`` (0-99, inclusive) of the n-th century AD."""
    if number < 1:
        raise Unheld(f"there is no century {number} AD")
    base = (number - 1) * 100
    # Popular usage would start the 1st century in year 0, which does not exist (1 BC is
    # followed by AD 1), so the 1st century is read as years 1..99: [0001-01-01, 0100-01-01).
    return years(max(base + lo, 1), base + hi, tz, granularity)


def unit_interval(d: date, unit: str, tz: tzinfo) -> Interval:
    """The calendar ``unit`` (day, week, month, quarter, year) containing ``d``."""
    if unit == "day":
        return day(d, tz)
    if unit == "week":
        return days(week_start(d), 7, tz, G.WEEK)
    if unit == "month":
        return month(d.year, d.month, tz)
    if unit == "quarter":
        return quarter(d.year, (d.month - 1) // 3 + 1, tz)
    return years(d.year, d.year, tz)


def trailing(today: date, unit: str, n: int, tz: tzinfo) -> Interval:
    """The last ``n`` units up to and including today: ``[tomorrow - n units, tomorrow)``."""
    tomorrow = today + timedelta(days=1)
    return span(shift(tomorrow, unit, -n), tomorrow, tz, G.DAY)


def hours(d: date, first: int, last: int, tz: tzinfo) -> Interval:
    """Hours ``[first, last)`` of day ``d`` (``last`` 24 ends at the next midnight): a part
    of the day such as 晚上 (18-24)."""
    end = at(d + timedelta(days=1), tz) if last == 24 else at(d, tz, last)
    return Interval(at(d, tz, first), end, G.HOUR)


def time_of_day(d: date, hour: int, minute: int | None, tz: tzinfo) -> Interval:
    """One hour (``minute`` None) or one minute of day ``d``."""
    start = at(d, tz, hour, minute or 0)
    if minute is None:
        return Interval(start, start + timedelta(hours=1), G.HOUR)
    return Interval(start, start + timedelta(minutes=1), G.MINUTE)


def pick(candidates: list[date], today: date, direction: int) -> date:
    """The candidate day a time without a year means: the latest on or before ``today``
    (``direction`` -1, past tense), the first on or after (+1, future), else the nearest
    (a tie goes to the past). ``candidates`` must hold one on each side of ``today``."""
    before = [c for c in candidates if c <= today]
    after = [c for c in candidates if c >= today]
    if direction < 0 or not after:
        return max(before)
    if direction > 0 or not before:
        return min(after)
    last, first = max(before), min(after)
    return last if today - last <= first - today else first


def month_part(year: int, month_: int, part: str | None, tz: tzinfo) -> Interval:
    """A month, or its early / mid / late part: days 1-10, 11-20, 21 to the end."""
    if part is None:
        return month(year, month_, tz)
    first = date(year, month_, 1)
    lo, hi = {"early": (1, 11), "mid": (11, 21), "late": (21, None)}[part]
    end = add_months(first, 1) if hi is None else date(year, month_, hi)
    return span(date(year, month_, lo), end, tz, G.MONTH)
