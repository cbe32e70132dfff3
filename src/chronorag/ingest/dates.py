"""Document date fields (ISO 8601 text, or date/datetime objects) -> ``Interval``.

A date names a whole period: "2021-05" is the month ``[2021-05-01, 2021-06-01)`` with
month granularity; a full timestamp is the one second it names. Naive values are read in
the configured time zone.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo

from chronorag.model import Granularity, Interval

__all__ = ["DateError", "is_iso", "parse_date"]

# One regex for every accepted shape: YYYY, YYYY-MM, YYYY-MM-DD, then an optional time
# (hour, minute, second, fraction) with an optional offset. A space may replace the "T"
# because people (and spreadsheets) write "2021-05-06 12:30".
_ISO = re.compile(
    r"(?P<year>\d{4})"
    r"(?:-(?P<month>\d{2})"
    r"(?:-(?P<day>\d{2})"
    r"(?:[T ](?P<hour>\d{2})"
    r"(?::(?P<minute>\d{2})"
    r"(?::(?P<second>\d{2})(?P<fraction>[.,]\d{1,6})?)?)?"
    r"(?P<offset>Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?"
)

_EXAMPLES = '"2021", "2021-05", "2021-05-06", "2021-05-06T12:30:00Z"'


class DateError(ValueError):
    """A date field could not be read; the message is the reason shown to the user."""


def parse_date(value: object, *, tz: tzinfo = UTC, written: bool = False) -> Interval:
    """Read a document date field as the interval of the period it names.

    Accepts ISO 8601 strings (year, month, day, hour, minute, second precision, optional
    ``Z`` or ``±HH:MM`` offset), ``datetime`` objects (second precision), ``date`` objects
    (day precision) and a bare integer year (YAML reads ``valid_from: 2021`` as a number);
    with ``written`` also one date in words ("February 1, 2024", 2024年2月, see
    ``chronorag.ingest.written_dates``). Raises ``DateError`` with a user-facing reason
    otherwise.
    """
    if isinstance(value, datetime):
        start = value if value.tzinfo is not None else value.replace(tzinfo=tz)
        return Interval(start, start + timedelta(seconds=1), Granularity.SECOND)
    if isinstance(value, date):
        return _period(datetime(value.year, value.month, value.day, tzinfo=tz),
                       Granularity.DAY)
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= 9999:
            raise DateError(f"{value} is not a valid year")
        return _period(datetime(value, 1, 1, tzinfo=tz), Granularity.YEAR)
    if not isinstance(value, str):
        raise DateError(f"must be an ISO 8601 date string such as {_EXAMPLES}")
    text = value.strip()
    if written and text and not is_iso(text):
        from chronorag.ingest.written_dates import read_written_date

        try:
            return read_written_date(text, tz=tz)
        except ValueError as exc:
            raise DateError(str(exc)) from None
    return _parse_text(text, tz)


def is_iso(text: str) -> bool:
    """Whether ``text`` has the shape of an ISO 8601 date (valid or not)."""
    return _ISO.fullmatch(text.strip()) is not None


def _parse_text(text: str, tz: tzinfo) -> Interval:
    match = _ISO.fullmatch(text)
    if match is None:
        raise DateError(f"{text!r} is not a valid ISO 8601 date; use e.g. {_EXAMPLES}")
    parts = match.groupdict()
    granularity = _granularity(parts)
    try:
        zone = _offset(parts["offset"]) or tz
        micro = int((parts["fraction"] or ".0")[1:].ljust(6, "0"))
        start = datetime(
            int(parts["year"]), int(parts["month"] or 1), int(parts["day"] or 1),
            int(parts["hour"] or 0), int(parts["minute"] or 0), int(parts["second"] or 0),
            micro, tzinfo=zone,
        )
    except ValueError:
        # datetime() rejects month 13, day 45, hour 25 ...: the shape was right, the
        # calendar was not.
        raise DateError(f"{text!r} is not a valid ISO 8601 date") from None
    return _period(start, granularity)


def _granularity(parts: dict[str, str | None]) -> Granularity:
    for name, granularity in (("second", Granularity.SECOND), ("minute", Granularity.MINUTE),
                              ("hour", Granularity.HOUR), ("day", Granularity.DAY),
                              ("month", Granularity.MONTH)):
        if parts[name] is not None:
            return granularity
    return Granularity.YEAR


def _offset(text: str | None) -> tzinfo | None:
    if text is None:
        return None
    if text == "Z":
        return UTC
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:] or 0)
    if hours > 23 or minutes > 59:
        raise ValueError(text)
    sign = -1 if text[0] == "-" else 1
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _period(start: datetime, granularity: Granularity) -> Interval:
    """The interval ``[start, next period start)``; calendar units step on the wall clock."""
    try:
        if granularity is Granularity.YEAR:
            end: datetime | None = start.replace(year=start.year + 1)
        elif granularity is Granularity.MONTH:
            end = (start.replace(year=start.year + 1, month=1) if start.month == 12
                   else start.replace(month=start.month + 1))
        else:
            step = {Granularity.DAY: timedelta(days=1), Granularity.HOUR: timedelta(hours=1),
                    Granularity.MINUTE: timedelta(minutes=1)}.get(granularity,
                                                                  timedelta(seconds=1))
            end = start + step
    except (ValueError, OverflowError):
        # The last period of year 9999 has no representable end: leave it open.
        end = None
    return Interval(start, end, granularity)
