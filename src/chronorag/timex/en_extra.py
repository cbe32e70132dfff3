"""English expressions that only ``extract`` reports: they say when relative to the text,
not a time a question could be constrained to.

* References without a place of their own: "then current" (PAST_REF), "these days",
  "now that" (PRESENT_REF), "the near term", "the short term", "a later date" (FUTURE_REF). A bare
  "current" ("his current wife") is left out: TBAQ tags it in about half of its uses
  (9 of 16), and each untagged one costs precision. A question naming the present sets no
  constraint (``understand``) and a reference must never narrow retrieval, so these stay
  out of ``parse``.
* Vague spans counted from now: "recent years", "in coming weeks", "the weeks ahead" are
  durations of an unknown count (PXY, PXW), as TimeML writes them.
* The comparison period of a report: "year-earlier", "the year-ago period" and "a year
  ago" / "a year earlier" name the period the text is comparing, a year before. In a
  report about a quarter ("third-quarter profit rose 19% from a year ago") that is the
  same quarter a year before; otherwise the year before (``compared_period``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from chronorag.model import Interval
from chronorag.timex import calendar as cal

_FLAGS = re.IGNORECASE


@dataclass(frozen=True)
class Extra:
    """One expression found here: offsets, kind (ref, duration, date), value, interval."""

    start: int
    end: int
    kind: str
    value: str
    interval: Interval | None = None


_REFS = [
    (re.compile(r"\bthen[\s-]+current\b", _FLAGS), "PAST_REF"),
    (re.compile(r"\bthese\s+days\b", _FLAGS), "PRESENT_REF"),
    # "now that ..." gives a cause but still says "at present" (TimeML tags it); ``parse``
    # leaves it out, since it names no time a question asks about.
    (re.compile(r"\bnow(?=\s+that\b)", _FLAGS), "PRESENT_REF"),
    (re.compile(r"\bthe\s+(?:near|short)\s+term\b|\ba\s+later\s+date\b", _FLAGS), "FUTURE_REF"),
]
_UNIT_LETTERS = {"day": "D", "week": "W", "month": "M", "quarter": "Q", "year": "Y",
                 "decade": "DE"}
_VAGUE = re.compile(r"\b(?:(?:recent|coming)\s+(?P<u>day|week|month|quarter|year|decade)s\b"
                    r"|the\s+(?P<u2>day|week|month|year)s\s+ahead\b)", _FLAGS)
_ADJECTIVE = re.compile(r"\b(?:the\s+(?:comparable\s+)?)?year[\s-](?:ago|earlier)"
                        r"(?:\s+(?:period|quarter|results))?(?![\w-])", _FLAGS)


def english_extras(text: str, now: datetime, tz: tzinfo) -> list[Extra]:
    """References, vague durations and comparison periods of ``text``, in text order."""
    out: list[Extra] = []
    for rx, value in _REFS:
        out += [Extra(m.start(), m.end(), "ref", value) for m in rx.finditer(text)]
    for m in _VAGUE.finditer(text):
        unit = (m["u"] or m["u2"]).lower()
        out.append(Extra(m.start(), m.end(), "duration", f"PX{_UNIT_LETTERS[unit]}"))
    for m in _ADJECTIVE.finditer(text):
        period = compared_period(text, m.start(), now.date(), tz)
        if period is not None:
            out.append(Extra(m.start(), m.end(), "date", period[1], period[0]))
    out.sort(key=lambda e: (e.start, -e.end))
    kept: list[Extra] = []
    for e in out:
        if not kept or e.start >= kept[-1].end:
            kept.append(e)
    return kept


# The period a report compares: a quarter ("third-quarter", "the quarter"), or a longer one
# ("the nine months", "the first half", "the year") which TimeML writes as the year. A
# year already compared ("a year ago") is no period of its own.
_PERIOD = re.compile(
    r"\b(?:(?P<q>(?:(?P<ord>first|second|third|fourth)[\s-]+)?quarter)"
    r"|(?P<long>(?:nine|six|twelve|first\s+\w+)\s+months|half|year(?![\s-]+(?:ago|earlier))))\b",
    _FLAGS)
_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_LOOK_BACK = 400


def compared_period(text: str, start: int, today: date,
                    tz: tzinfo) -> tuple[Interval, str] | None:
    """The period a year before the one the text at ``start`` is reporting on, with its
    TIMEX3 value: the quarter when the nearest period named before is a quarter (that
    quarter, or the last one ended), else the year before ``today``'s. None when the
    calendar cannot hold it (``today`` in year 1)."""
    try:
        return _compared(text, start, today, tz)
    except (ValueError, OverflowError):
        return None


def _compared(text: str, start: int, today: date, tz: tzinfo) -> tuple[Interval, str]:
    last = None
    for m in _PERIOD.finditer(text, max(0, start - _LOOK_BACK), start):
        last = m
    if last is None or not last["q"]:
        year = today.year - 1
        return cal.held(cal.years(year, year, tz)), f"{year:04d}"
    if last["ord"]:
        q, year = _ORD[last["ord"].lower()], today.year
        if date(year, 3 * q - 2, 1) > today:
            year -= 1  # a quarter not yet begun this year is last year's
    else:
        current = (today.month - 1) // 3
        q, year = (current, today.year) if current else (4, today.year - 1)
    return cal.held(cal.quarter(year - 1, q, tz)), f"{year - 1:04d}-Q{q}"
