"""English times of a year counted back or ahead from now.

Conventions: a month, a day, a season, "today", "this week" or "this month" next to a year
counted from now is read in that year, in either order: "in August three years ago",
"three years ago in August", "March of last year", "the summer of next year", "five years
ago today", "this day last year", "two years ago this month". The same day moved a year
back from 29 February is 28 February (month ends clamp).
"""

from __future__ import annotations

import re
from datetime import date

from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.en import MONTH, month_number
from chronorag.timex.numerals import EN_NUMBER, en_number
from chronorag.timex.rules import Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

_YEARS_BACK = (r"(?:(?P<n{i}>" + EN_NUMBER + r")\s+years?\s+"
               r"(?P<dir{i}>ago|earlier|later|from\s+now)|(?P<w{i}>last|next|this)\s+year)\b")
_DAY = r"(?:\s+(?P<d{i}>[12]?\d|3[01])(?:st|nd|rd|th)?\b)?"
_WHEN = MONTH("mon{i}") + _DAY + r"|(?P<s{i}>spring|summer|autumn|fall|winter)\b"
_SAME = r"(?P<same{i}>today|this\s+(?:day|week|month))\b"
_PREP = r"(?:in|on|during)\s+(?:the\s+)?"
# A month after a year counted back needs a preposition and one before it needs "in" or
# "of" ("it may this year" and "a year ago may" are no month); as in TimeML, a preposition
# before the expression stays out of it.
_FORMS = (
    r"\b{back},?\s+(?:" + _PREP + r"(?:{when})|{same})",
    r"(?:(?<=\bin\s)|(?<=\bon\s)|(?<=\bduring\s))(?:the\s+)?(?:{when}),?\s+(?:of\s+)?{back}",
    r"\b(?:the\s+)?(?:{when})\s+of\s+{back}",
    r"\b{same}\s+(?:of\s+)?{back}",
)


def _pattern() -> str:
    return "|".join(
        form.format(back=_YEARS_BACK.format(i=i), when=_WHEN.format(i=i),
                    same=_SAME.format(i=i))
        for i, form in enumerate(_FORMS, start=1))


def _offset(m: re.Match[str], i: int) -> int:
    word = m[f"w{i}"]
    if word:
        return {"last": -1, "next": 1, "this": 0}[word.lower()]
    n = en_number(m[f"n{i}"])
    return -n if m[f"dir{i}"].lower() in ("ago", "earlier") else n


def _form(m: re.Match[str]) -> int:
    """Which of ``_FORMS`` matched."""
    groups = m.groupdict()
    return next(i for i in range(1, len(_FORMS) + 1)
                if groups.get(f"mon{i}") or groups.get(f"s{i}") or groups.get(f"same{i}"))


@rule(_pattern(), relative=True)
def part_of_year_back(m: re.Match[str], ctx: Context) -> Result:
    i = _form(m)
    years = _offset(m, i)
    if abs(years) >= 1000:
        return None
    moved = cal.shift(ctx.today, "year", years)
    month_name, season, same = (m.groupdict().get(f"{g}{i}") for g in ("mon", "s", "same"))
    if month_name:
        day = m.groupdict().get(f"d{i}")
        if day:
            return cal.day(date(moved.year, month_number(month_name), int(day)), ctx.tz)
        return cal.month(moved.year, month_number(month_name), ctx.tz)
    if season:
        season = season.lower()
        return cal.season(moved.year, "autumn" if season == "fall" else season, ctx.tz)
    if years == 0 or same is None:
        return None  # "this month this year" says no more than "this month"
    unit = same.lower().split()[-1]
    return cal.unit_interval(moved, "day" if unit in ("today", "day") else unit, ctx.tz)
