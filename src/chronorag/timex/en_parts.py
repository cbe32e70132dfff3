"""TIMEX3 values that English words add to an interval's own value.

``parse`` keeps intervals at the precision its conventions give (``timex.en``): "Friday
morning" is the day, "the past two months" the calendar days it covers. TimeML writes
more than the interval says, and ``extract`` asks this module for it:

* a part of day after a day is the day's value with TMO, TAF, TEV or TNI ("Friday
  morning" is "1998-08-07TMO", "tonight" "…TNI", "mid-afternoon yesterday" "…TAF");
* a window counted back or ahead from now ("the past two months", "the next 14 months") is
  a DURATION anchored at now, valued by its length ("P2M"), as TimeML annotates it.
"""

from __future__ import annotations

import re

from chronorag.timex.numerals import EN_NUMBER, en_number
from chronorag.timex.timex3 import PARTS_OF_DAY

_PART = re.compile(r"\b(?:(?P<tonight>tonight|overnight)|(?P<p>morning|afternoon|evening|night))"
                   r"\b", re.IGNORECASE)
_WINDOW = re.compile(r"\b(?:last|past|previous|next|coming|following)\s+(?P<n>" + EN_NUMBER
                     + r")\s+(?P<u>day|week|month|quarter|year|decade)s?\b", re.IGNORECASE)
_UNITS = {"day": "D", "week": "W", "month": "M", "quarter": "Q", "year": "Y"}


def part_of_day(text: str) -> str:
    """The TIMEX3 part-of-day suffix a day expression names ("TMO"), or ""."""
    m = _PART.search(text)
    if m is None:
        return ""
    word = "night" if m["tonight"] else m["p"].lower()
    return "T" + PARTS_OF_DAY[word]


def window_value(text: str) -> str | None:
    """The TIMEX3 duration of "the past two months" ("P2M"); None for another text."""
    m = _WINDOW.search(text)
    if m is None:
        return None
    n, unit = en_number(m["n"]), m["u"].lower()
    if unit == "decade":
        return f"P{10 * n}Y"
    return f"P{n}{_UNITS[unit]}"
