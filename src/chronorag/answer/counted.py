"""Periods a text counts back from the moment it was written: "for 10 years", 学了三年了.

"He was part of our family for 10 years", said on 3 June 2023, states no date, yet it says
when the period began: about 2013. "I've been playing for about four months now", said in
December 2023, began in August 2023. A "when" question over such a record is answered by
the start of the period, read at the duration's own unit (a count of months gives a month,
of weeks a week), except that a count of years gives the month it reaches back to, marked
approximate ("about June 2013"): the whole calendar year would also hold months more than a
year off. It is said with its phrase and its anchor like any relative phrase.

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
from datetime import datetime, tzinfo

from chronorag.model import Interval
from chronorag.timex import calendar as cal
from chronorag.timex.durations import durations_and_sets
from chronorag.timex.en_tense import tense

_UNITS = {"Y": "year", "M": "month", "W": "week", "D": "day"}
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
    approximate: bool = False


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
        unit = _UNITS[value["u"]]
        try:
            began = cal.shift(anchor.astimezone(tz).date(), unit, -int(value["n"]))
            interval = cal.unit_interval(began, "month" if unit == "year" else unit, tz)
        except (OverflowError, ValueError):
            continue  # past either end of the calendar: no start to name
        start = span.start - (len(opener.group(0)) if opener else 0)
        return Counted(text[start:span.end], start, interval, approximate=unit == "year")
    return None

