"""Periods a text counts back from the moment it was written: "for 10 years", 学了三年了.

"He was part of our family for 10 years", said on 3 June 2023, states no date, yet it says
when the period began: about 2013. "I've been playing for about four months now", said in
December 2023, began in August 2023. A "when" question over such a record is answered by
the start of the period, read at the duration's own unit (a count of years gives a year, of
months a month) and said with its phrase and its anchor like any relative phrase.

Only a duration that reaches up to the anchor counts: one opened by "for", "the past" /
"the last", "after" ("left my job after 3 years": the job began 3 years before it ended,
and it ended when it was told), or followed by "now" / "already" / "so far", and in Chinese
one followed by 了 ("学了三年了"), or right after 已经 / 已 / 近 ("已经三周"); never in a
clause about the future ("I will be away for two weeks"). "three years ago" is a date (the
date rules read it); "within two weeks" or "in three days" counts forward, not back; an
unknown count ("for years") names no start.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from chronorag.model import Granularity, Interval
from chronorag.timex.durations import durations_and_sets
from chronorag.timex.en_tense import tense

_UNITS = {"Y": Granularity.YEAR, "M": Granularity.MONTH, "W": Granularity.WEEK,
          "D": Granularity.DAY}
_VALUE = re.compile(r"P(?P<n>\d+)(?P<u>[YMWD])")
# Words before the duration that make it reach up to the moment of writing; the modifier
# ("about", "just under") is part of the duration itself (``timex.durations``).
_BEFORE_EN = re.compile(r"\b(?:for|the\s+(?:past|last)|after)\s+$", re.IGNORECASE)
_AFTER_EN = re.compile(r"^\s+(?:now|already|so\s+far)\b", re.IGNORECASE)
_BEFORE_ZH = re.compile(r"(?:已经|已|近|这|這)$")
_AFTER_ZH = re.compile(r"^了")
_REACH = 24


@dataclass(frozen=True)
class Counted:
    """A period a text counts back from its anchor: the phrase and the unit it began in."""

    phrase: str
    start: int
    interval: Interval


def counted_back(text: str, *, anchor: datetime, tz: tzinfo) -> Counted | None:
    """The first period of ``text`` that reaches up to ``anchor`` (see the module
    docstring), as the calendar unit it began in; ``None`` when there is none."""
    for span in durations_and_sets(text):
        value = _VALUE.fullmatch(span.value) if span.kind == "duration" else None
        if value is None:
            continue
        before = text[max(0, span.start - _REACH):span.start]
        after = text[span.end:span.end + _REACH]
        opener = _BEFORE_EN.search(before)
        if not (opener or _AFTER_EN.match(after) or _BEFORE_ZH.search(before)
                or _AFTER_ZH.match(after)) or tense(text, span.start, span.end) > 0:
            continue
        try:
            began = _back(anchor.astimezone(tz), int(value["n"]), value["u"])
            interval = _unit_of(began, _UNITS[value["u"]])
        except (OverflowError, ValueError):
            continue  # past either end of the calendar: no start to name
        start = span.start - (len(opener.group(0)) if opener else 0)
        return Counted(text[start:span.end], start, interval)
    return None


def _back(moment: datetime, count: int, unit: str) -> datetime:
    if unit == "Y":
        return _months_back(moment, 12 * count)
    if unit == "M":
        return _months_back(moment, count)
    return moment - timedelta(days=count * (7 if unit == "W" else 1))


def _months_back(moment: datetime, months: int) -> datetime:
    index = moment.year * 12 + moment.month - 1 - months
    year, month = divmod(index, 12)
    return moment.replace(year=year, month=month + 1, day=min(moment.day, 28))


def _unit_of(moment: datetime, granularity: Granularity) -> Interval:
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if granularity is Granularity.YEAR:
        start = day.replace(month=1, day=1)
        end = _months_back(start, -12)
    elif granularity is Granularity.MONTH:
        start = day.replace(day=1)
        end = _months_back(start, -1)
    elif granularity is Granularity.WEEK:
        start = day - timedelta(days=day.weekday())
        end = start + timedelta(days=7)
    else:
        start, end = day, day + timedelta(days=1)
    return Interval(start, end, granularity)
