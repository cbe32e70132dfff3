"""Date fields written in words: "February 1, 2024", "1 Feb 2024", 2024年2月1日, 2024年2月.

A front matter or JSON date field that is not ISO 8601 is read by ``chronorag.timex`` as one
expression, in the time zone the document's naive dates are read in, when it names one
fixed period. What could mean two dates stays an error that says why: a relative phrase
("last week" names no day without the moment it was written), a numeric day and month
("03/04/2024" is 3 April or 4 March), an open period ("since 2019") or a range.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo

from chronorag.errors import TimeParseError
from chronorag.model import Granularity, Interval
from chronorag.timex import parse_one

__all__ = ["read_written_date"]

# Relative phrases are recognised against any moment; the value read is then refused.
_PROBE = datetime(2000, 1, 1, tzinfo=UTC)
_NUMERIC_DAY_MONTH = re.compile(r"\d{1,2}\s*[/.]\s*\d{1,2}\s*[/.]\s*\d{2,4}")
_PERIODS = (Granularity.YEAR, Granularity.QUARTER, Granularity.MONTH, Granularity.WEEK,
            Granularity.DAY, Granularity.HOUR, Granularity.MINUTE, Granularity.SECOND)
_ISO_HINT = 'write it as ISO 8601 ("2024-02-01") or in words ("February 1, 2024", 2024年2月1日)'


def read_written_date(text: str, *, tz: tzinfo = UTC) -> Interval:
    """The period ``text`` names; ``ValueError`` with the reason it names none or several."""
    if _NUMERIC_DAY_MONTH.fullmatch(text):
        raise ValueError(f"{text!r} is ambiguous: the day and month could be either way "
                         f"round; {_ISO_HINT}")
    try:
        expression = parse_one(text, now=_PROBE, tz=tz)
    except TimeParseError:
        raise ValueError(f"{text!r} is not a date chronorag can read; {_ISO_HINT}") from None
    except (ValueError, OverflowError):
        raise ValueError(f"{text!r} names a time outside the calendar") from None
    interval = expression.interval
    if expression.relative:
        raise ValueError(f"{text!r} is relative: it names a date only against the moment it "
                         f"was written; {_ISO_HINT}")
    if interval.start is None or interval.end is None:
        raise ValueError(f"{text!r} names an open period, not a date; give the date itself")
    if interval.granularity not in _PERIODS or _is_range(text, interval):
        raise ValueError(f"{text!r} names a span of time, not one date; give the date itself")
    return interval


def _is_range(text: str, interval: Interval) -> bool:
    """A range ("2019 to 2021") is read at the granularity of its ends: one period of
    that granularity does not reach its end."""
    assert interval.start is not None and interval.end is not None
    days = (interval.end - interval.start).days
    limits = {Granularity.YEAR: 366, Granularity.QUARTER: 92, Granularity.MONTH: 31,
              Granularity.WEEK: 7, Granularity.DAY: 1}
    limit = limits.get(interval.granularity) if interval.granularity else None
    return limit is not None and days > limit
