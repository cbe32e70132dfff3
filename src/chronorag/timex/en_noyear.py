"""English times that need ``now`` and name no year: "Friday", "Aug. 7", "early December",
"the third quarter", "last summer", "fiscal 1989", and the references "now", "the past",
"the future" (conventions in ``timex.en``).

Its own registry, scanned after ``timex.en``'s: these rules only apply where no rule with a
year matched at the same place ("Friday, Aug. 7, 1998" is read whole by ``timex.en``).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from chronorag.model import Granularity, Interval
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.en import (
    _COUNT_NOUNS,
    _ORDINAL,
    _PARTS,
    _WEEKDAY_PREFIX,
    _WEEKDAYS,
    MONTH,
    month_number,
)
from chronorag.timex.en_tense import tense
from chronorag.timex.numerals import EN_NUMBER
from chronorag.timex.rules import FLAGS, Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

# Capitalised only: "may", "march", "sun" are ordinary words in lower case.
_BARE_DAY = r"(?-i:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
_DAY_PART = r"(?:\s+(?:morning|afternoon|evening|night))?"


def _capitalised(name: str) -> bool:
    return name[:1].isupper()


@rule(_WEEKDAY_PREFIX + MONTH() + r"\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)?(?!\d|[:/.,]\d|\s*%)"
      + _COUNT_NOUNS, relative=True)
def month_day(m: re.Match[str], ctx: Context) -> Result:
    if not _capitalised(m["mon"]):
        return None
    month_, day_ = month_number(m["mon"]), int(m["d"])
    years = range(ctx.today.year - 1, ctx.today.year + 2)
    candidates = [date(y, month_, day_) for y in years if _valid(y, month_, day_)]
    if len(candidates) < 2:
        return None
    named = m.string[m.start():m.start("mon")].strip(" ,").lower()[:3]
    fitting = [c for c in candidates if _WEEKDAYS[c.weekday()].startswith(named)] if named else []
    if len(fitting) == 1:  # "Friday, Aug. 7" is the Aug. 7 that is a Friday
        return cal.day(fitting[0], ctx.tz)
    return cal.day(_pick_date(candidates, ctx.today, m), ctx.tz)


# A deadline or a start ("by Jan. 14", "through January", "effective Feb. 1") looks ahead,
# whatever the tense of the verb that reports it.
_FORWARD = re.compile(r"\b(?:by|until|till|through|effective|starting|beginning)\s+$", FLAGS)


def _pick_date(candidates: list[date], today: date, m: re.Match[str]) -> date:
    """The day (or month) a date without a year means: after a deadline word the next one,
    else the tense decides (``cal.pick``); but not over half a year away while the nearest
    reading is within a quarter: news reports past events and coming deadlines alike in
    the past tense, and a deadline just passed is still named "by Jan. 14"."""
    forward = _FORWARD.search(m.string, max(0, m.start() - 12), m.start()) is not None
    chosen = cal.pick(candidates, today, 1 if forward else tense(m.string, m.start(), m.end()))
    near = cal.pick(candidates, today, 0)
    if abs((chosen - today).days) > 183 and abs((near - today).days) < 92:
        return near
    return chosen


def _valid(year: int, month_: int, day_: int) -> bool:
    try:
        date(year, month_, day_)
    except ValueError:
        return False
    return True


@rule(r"(?<![\w-])(?P<d>" + _BARE_DAY + r")\b(?!-)" + _DAY_PART, relative=True)
def bare_weekday(m: re.Match[str], ctx: Context) -> Result:
    target = [w[:3] for w in _WEEKDAYS].index(m["d"][:3].lower())
    today = ctx.today
    back = today - timedelta(days=(today.weekday() - target) % 7)
    ahead = today + timedelta(days=(target - today.weekday()) % 7)
    chosen = cal.pick([back, ahead], today, tense(m.string, m.start(), m.end()))
    return cal.day(chosen, ctx.tz)


# A bare month name: the full name, or an abbreviation with its dot ("Dec."); "May" and
# "March" also need a part word, "last/this/next" or a preposition before them.
_BARE_MONTH = (r"(?P<mon>(?-i:January|February|March|April|May|June|July|August|September"
               r"|October|November|December|(?:Jan|Feb|Aug|Sept?|Oct|Nov|Dec)\.))(?![\w-])")
_PREPOSITIONS = re.compile(r"(?:\b(?:in|since|by|until|till|of|during|through|from|to|before"
                           r"|after|early|mid|late|last|this|next|and|or)[\s-]+)$", FLAGS)


@rule(r"(?:(?P<p>early|mid|middle|late)[\s-]+)?(?:(?P<w>last|this|next|past)\s+)?"
      + _BARE_MONTH + r"(?!\s*\d)(?:\s+(?P<y2>this|last|next)\s+year\b)?", relative=True)
def bare_month(m: re.Match[str], ctx: Context) -> Result:
    name = m["mon"]
    if name in ("May", "March") and not _PREPOSITIONS.search(m.string, 0, m.start("mon")):
        return None
    target, today = month_number(name), ctx.today
    word = (m["w"] or "").lower()
    if m["y2"]:
        year = today.year + {"this": 0, "last": -1, "next": 1}[m["y2"].lower()]
    elif word == "this":
        year = today.year
    else:
        firsts = [date(y, target, 1) for y in range(today.year - 1, today.year + 2)]
        current = date(today.year, today.month, 1)
        if word in ("last", "past"):
            year = max(f for f in firsts if f < current).year
        elif word == "next":
            year = min(f for f in firsts if f > current).year
        else:
            year = _pick_date(firsts, current, m).year
    part = _PARTS[m["p"].lower()] if m["p"] else None
    return cal.month_part(year, target, part, ctx.tz)


@rule(r"(?:(?P<yr>this|last|next)\s+year's\s+|the\s+(?:(?P<yy>1\d{3}|20\d{2})\s+)?"
      r"(?:fiscal[\s-]+)?)?"
      r"(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b(?!\s+of\s+\d)",
      relative=True)
def bare_quarter(m: re.Match[str], ctx: Context) -> Result:
    q, today = _ORDINAL[m["qw"].lower()], ctx.today
    shift = {"this": 0, "last": -1, "next": 1}.get((m["yr"] or "").lower())
    year = int(m["yy"]) if m["yy"] else today.year + (shift or 0)
    if shift is None and not m["yy"] and date(year, 3 * q - 2, 1) > today and tense(
            m.string, m.start(), m.end()) < 0:
        year -= 1  # a past quarter not yet begun this year is last year's
    return cal.quarter(year, q, ctx.tz)


# A fiscal year is read as the calendar year it is named after (companies' fiscal years
# differ and the text rarely says how): "fiscal 1989", "this fiscal year".
@rule(r"\bfiscal(?:\s+year)?\s+(?P<y>1\d{3}|20\d{2})(?!\d)|(?:the\s+)?\b(?P<w>this|current"
      r"|last|previous|next|coming)\s+fiscal\s+year\b", relative=True)
def fiscal_year(m: re.Match[str], ctx: Context) -> Result:
    if m["y"]:
        year = int(m["y"])
    else:
        word = m["w"].lower()
        year = ctx.today.year + (-1 if word in ("last", "previous") else
                                 1 if word in ("next", "coming") else 0)
    return cal.years(year, year, ctx.tz)


# "the quarter" in a report is the one just ended; "year-ago" moves it back a year.
@rule(r"\bthe\s+(?:(?P<w>latest|most\s+recent|just-ended|recent)\s+|(?P<ago>year-ago"
      r"|year-earlier|comparable\s+year-ago)\s+)?(?-i:quarter)\b(?![-\w])", relative=True)
def reported_quarter(m: re.Match[str], ctx: Context) -> Result:
    current = date(ctx.today.year, (ctx.today.month - 1) // 3 * 3 + 1, 1)
    ended = cal.add_months(current, -15 if m["ago"] else -3)
    return cal.unit_interval(ended, "quarter", ctx.tz)


@rule(r"(?:the\s+)?(?P<w>last|this|next|past|coming)\s+(?P<s>spring|summer|autumn|fall|winter)\b",
      relative=True)
def near_season(m: re.Match[str], ctx: Context) -> Result:
    name = m["s"].lower().replace("fall", "autumn")
    today, word = ctx.today, m["w"].lower()
    starts = [date(y, cal.SEASON_START_MONTH[name], 1) for y in range(today.year - 2,
                                                                       today.year + 2)]
    current = max(s for s in starts if s <= today)
    if word in ("last", "past") and cal.add_months(current, 3) > today:
        current = cal.add_months(current, -12)  # we are in it: the one before
    elif word in ("next", "coming"):
        current = min(s for s in starts if s > today)
    elif word == "this" and not (name == "winter" and today.month <= 2):
        current = starts[2]  # this year's, past or coming ("this winter" in Jan: the current)
    return cal.season(current.year, name, ctx.tz)


# "now that" is a cause, "now known as" a name: neither says when something holds.
_PRESENT = (r"\b(?:now|currently|at\s+present|nowadays|presently)\b"
            r"(?!\s+(?:that|known|called|named)\b)")
# "the past year", "the past few weeks" are spans, read by ``timex.en`` or left alone.
_PAST = (r"(?:\bin\s+)?\bthe\s+past\b(?![\s-]+(?:\d|" + EN_NUMBER + r"\s|few\b|several\b"
         r"|(?:day|week|month|quarter|year|decade|century|centuries)))|\brecently\b")
_FUTURE = r"(?:\bin\s+)?\bthe\s+(?:near\s+)?future\b"


@rule(_PRESENT + "|" + _PAST + "|" + _FUTURE, relative=True, kind="ref")
def reference(m: re.Match[str], ctx: Context) -> Result:
    word, today, now = m.group(0).lower(), ctx.today, ctx.now
    if now is None:  # never: ``today`` already insists on a now
        return None
    if "future" in word:
        return Interval(now, None, Granularity.DAY)
    if "past" in word or "recent" in word:
        return Interval(None, now, Granularity.DAY)
    return cal.day(today, ctx.tz)
