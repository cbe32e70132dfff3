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
_FORWARD = re.compile(r"\b(?:by|until|till|through|effective|starting|beginning|as\s+soon\s+as)"
                      r"\s+$", FLAGS)
# A weekday in the possessive names an event the text reports ("Wednesday's ruling",
# "Thursday's closing price"): one already past, whatever the tense around it.
_POSSESSIVE = re.compile(r"['’]s\b")


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
    if _FORWARD.search(m.string, max(0, m.start() - 12), m.start()):
        direction = 1
    elif _POSSESSIVE.match(m.string, m.end()):
        direction = -1
    else:
        direction = tense(m.string, m.start(), m.end())
    chosen = cal.pick([back, ahead], today, direction)
    return cal.day(chosen, ctx.tz)


# "on the 15th" with no month: a day of the month around today, as speech and letters
# name one ("I met the team on the 15th after my trip"). Only after "on", and only where a
# clause goes on or ends: "the 15th floor", "the 15th anniversary", "the 15th of May" (a
# rule with its month reads that one) are no days.
_DAY_ONLY = re.compile(
    r"(?<=\bon\s)the\s+(?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
    r"(?=\s*(?:$|[.,;:!?)\]—–-]|\s(?:and|or|but|so|after|before|when|while|at|in|with|for|to"
    r"|until|till|because|as|we|i|he|she|they|you|it|this|that)\b))", FLAGS)


@rule(_DAY_ONLY.pattern, relative=True)
def day_of_month(m: re.Match[str], ctx: Context) -> Result:
    """The day ``d`` of a month around today (the months without one skipped), by the
    tense around it: the latest past one, the next one, else the nearest."""
    today, day_ = ctx.today, int(m["d"])
    months = [cal.add_months(today.replace(day=1), k) for k in range(-2, 3)]
    candidates = [date(f.year, f.month, day_) for f in months if _valid(f.year, f.month, day_)]
    if not any(c <= today for c in candidates) or not any(c >= today for c in candidates):
        return None
    return cal.day(cal.pick(candidates, today, tense(m.string, m.start(), m.end())), ctx.tz)


# Years said in words, as transcripts of broadcasts write them: "nineteen ninety-six",
# "January nineteen ninety-seven", "the winter of nineteen ninety-four", "the year two
# thousand" (a bare "two thousand" is a count). Only with ``now`` (no digit for the ingest
# scanner to anchor on), like every rule here.
_ONES = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_YEAR_WORDS = (r"(?:(?P<c>nineteen|twenty)[\s-]+(?:(?P<t>" + "|".join(_TENS) + r")(?:[\s-]+(?P<o>"
               + "|".join(_ONES) + r"))?|(?P<teen>" + "|".join(_TEENS) + r"))\b"
               r"|(?<=\bthe\syear\s)two\s+thousand(?:\s+(?:and\s+)?(?P<o2>"
               + "|".join(_ONES) + r"))?\b)" + _COUNT_NOUNS + r"(?![\s-]+(?:" + "|".join(_ONES)
               + r")\b)")


def _year_of_words(m: re.Match[str]) -> int:
    if not m["c"]:
        return 2000 + (_ONES.index(m["o2"].lower()) + 1 if m["o2"] else 0)
    century = 1900 if m["c"].lower() == "nineteen" else 2000
    if m["teen"]:
        return century + 10 + _TEENS.index(m["teen"].lower())
    ones = _ONES.index(m["o"].lower()) + 1 if m["o"] else 0
    return century + 20 + 10 * _TENS.index(m["t"].lower()) + ones


@rule(r"(?:(?:the\s+)?(?P<s>spring|summer|autumn|fall|winter)\s+of\s+|" + MONTH() + r"\s+(?:of\s+)?"
      r"|(?:the\s+)?year\s+)?" + _YEAR_WORDS, relative=True)
def year_in_words(m: re.Match[str], ctx: Context) -> Result:
    year = _year_of_words(m)
    if m["s"]:
        name = m["s"].lower()
        return cal.season(year, "autumn" if name == "fall" else name, ctx.tz)
    if m["mon"]:
        return cal.month(year, month_number(m["mon"]), ctx.tz)
    return cal.years(year, year, ctx.tz)


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


@rule(r"(?:(?P<yr>this|last|next)\s+year's\s+|the\s+(?:(?P<yy>1\d{3}|20\d{2})\s+"
      r"|(?P<ago>year[\s-](?:ago|earlier))\s+)?(?:fiscal[\s-]+)?)?"
      r"(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b(?!\s+of\s+\d)",
      relative=True)
def bare_quarter(m: re.Match[str], ctx: Context) -> Result:
    q, today = _ORDINAL[m["qw"].lower()], ctx.today
    shift = {"this": 0, "last": -1, "next": 1}.get((m["yr"] or "").lower())
    year = int(m["yy"]) if m["yy"] else today.year + (shift or 0)
    if shift is None and not m["yy"] and date(year, 3 * q - 2, 1) > today and (
            m["ago"] or tense(m.string, m.start(), m.end()) < 0):
        year -= 1  # a past quarter not yet begun this year is last year's
    # "the year-ago third quarter": that quarter of the year before
    return cal.quarter(year - (1 if m["ago"] else 0), q, ctx.tz)


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


# "the weekend" is Saturday and Sunday: the last one before today, or with "next", "coming",
# "ahead of" or a future tense the next one; "this weekend" on a Saturday or Sunday is the
# current one.
_AHEAD = re.compile(r"\bahead\s+of\s+$", FLAGS)


@rule(r"\b(?:the|this|last|past|next|coming)\s+weekend\b(?!s)", relative=True)
def weekend(m: re.Match[str], ctx: Context) -> Result:
    today = ctx.today
    word = m.group(0).split()[0].lower()
    ahead = _AHEAD.search(m.string, max(0, m.start() - 12), m.start()) is not None
    saturday = today + timedelta(days=(5 - today.weekday()) % 7)  # today's or the next
    current = saturday - timedelta(days=7) if today.weekday() == 6 else saturday
    if word in ("last", "past"):
        current = saturday - timedelta(days=7)
        if current + timedelta(days=1) >= today:
            current -= timedelta(days=7)  # a weekend not yet over is not the last one
    elif word == "the" and not ahead and tense(
            m.string, m.start(), m.end()) <= 0 and current > today:
        current -= timedelta(days=7)  # "over the weekend", "said over the weekend"
    elif word in ("next", "coming") and current <= today:
        current += timedelta(days=7)
    return cal.days(current, 2, ctx.tz, Granularity.DAY)


# Holidays with a fixed rule (US usage, as in the news these rules read): resolved like a
# month and day without a year, "last"/"next" the one before or after today.
def _nth_weekday(year: int, month_: int, weekday_: int, n: int) -> date:
    first = date(year, month_, 1)
    return first + timedelta(days=(weekday_ - first.weekday()) % 7 + 7 * (n - 1))


_HOLIDAYS = {
    "thanksgiving": lambda y: _nth_weekday(y, 11, 3, 4),  # fourth Thursday of November
    "election": lambda y: _nth_weekday(y, 11, 0, 1) + timedelta(days=1),  # Tuesday after
    "christmas eve": lambda y: date(y, 12, 24), "christmas": lambda y: date(y, 12, 25),
    "new year's eve": lambda y: date(y, 12, 31), "new year's": lambda y: date(y, 1, 1),
    "independence": lambda y: date(y, 7, 4), "fourth of july": lambda y: date(y, 7, 4),
    "halloween": lambda y: date(y, 10, 31), "valentine's": lambda y: date(y, 2, 14),
}


@rule(r"(?:\b(?P<w>last|this|next)\s+)?(?P<h>(?-i:Thanksgiving|Christmas\s+Eve|Christmas"
      r"|New\s+Year['’]s\s+Eve|Halloween|(?:the\s+)?Fourth\s+of\s+July)(?:\s+Day)?"
      r"|(?-i:Election|Independence|New\s+Year['’]s|Valentine['’]s)\s+Day)\b", relative=True)
def holiday(m: re.Match[str], ctx: Context) -> Result:
    name = re.sub(r"\s+", " ", m["h"].lower().replace("’", "'")).removeprefix("the ")
    name = name.removesuffix(" day") if name != "fourth of july day" else "fourth of july"
    rule_of = _HOLIDAYS[name]
    today, word = ctx.today, (m["w"] or "").lower()
    candidates = [rule_of(y) for y in range(today.year - 1, today.year + 2)]
    if word == "last":
        return cal.day(max(c for c in candidates if c < today), ctx.tz)
    if word == "next":
        return cal.day(min(c for c in candidates if c > today), ctx.tz)
    if word == "this":
        return cal.day(candidates[1], ctx.tz)
    return cal.day(_pick_date(candidates, today, m), ctx.tz)


# A season without a year ("in the summer", "over the early summer"): the last one with a
# past verb, the next one with a future, else the nearest; not "fall", a common verb.
_SEASON_BEFORE = re.compile(r"\b(?:in|during|over|through|throughout|by|until|till|since|of"
                            r"|into|for|before|after|from)\s+$", FLAGS)
@rule(r"\bthe\s+(?:(?:early|late)\s+)?(?P<s>spring|summer|autumn|winter)\b(?!\s+of\b)",
      relative=True)
def bare_season(m: re.Match[str], ctx: Context) -> Result:
    if not _SEASON_BEFORE.search(m.string, max(0, m.start() - 12), m.start()):
        return None  # "The spring broke": a time only after a preposition of time
    name, today = m["s"].lower(), ctx.today
    starts = [date(y, cal.SEASON_START_MONTH[name], 1) for y in range(today.year - 2,
                                                                       today.year + 2)]
    current = max(s for s in starts if s <= today)
    if cal.add_months(current, 3) > today:
        return cal.season(current.year, name, ctx.tz)  # we are in it
    direction = tense(m.string, m.start(), m.end())
    start = cal.pick([current, min(s for s in starts if s > today)], today, direction)
    return cal.season(start.year, name, ctx.tz)


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
