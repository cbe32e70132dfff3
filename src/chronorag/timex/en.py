"""English time expressions.

Conventions (documented here because they are choices):

* "last Tuesday" is the most recent Tuesday strictly before today and "next Monday" the
  first Monday strictly after today: never more than a week away, which is what most
  speakers mean and what other parsers return. "this Friday" is the Friday of the current
  Monday-based week, even when it is already past. (Chinese 上周二 / 下周二 are calendar
  weeks instead; see ``zh.py``.)
* "N days/weeks/months/quarters/years ago" is the calendar unit that far back, at the
  unit's granularity ("four years ago" is a year, "two months ago" a month, "3 days ago" a
  day; month arithmetic clamps to the month end); "N decades ago" is that year.
* A time without a year ("Friday", "Aug. 7", "early December", "the third quarter") is
  read by the tense of its sentence (``en_tense``; rules in ``en_noyear``): the latest one
  on or before today after a past-tense verb, the next one on or after today with "will",
  else the nearest. After "by", "until", "effective" a date looks ahead.
* "now", "currently", "recently", "the past", "the future" are references (kind ``ref``):
  the present is the day of ``now``, the past ``[None, now)``, the future ``[now, None)``.
* "the last/past N days" is the N calendar days ending today: ``[tomorrow - N, tomorrow)``.
* A bare four-digit number is a year only in a date context (after "in", "since",
  "from", "born", "the ... <noun>", in parentheses, ...), never "1,000" or "model 2048".
* A year with an era ("AD 800", "800 AD", "800 CE", "AD 69-81") may have any number of
  digits. A time with "BC" / "BCE" / "B.C." / "B.C.E." ("500 BC", "the 1st century BC",
  "221 BC to 206 BC") is recognised and skipped: the calendar starts at AD 1. Era words
  are upper case only, since "ad", "ce" and "bc" (because) are ordinary lower-case words.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from chronorag.model import Granularity, Interval
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import EN_NUMBER, en_number
from chronorag.timex.rules import AD, BC, Clock, Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def MONTH(name: str = "mon") -> str:
    return (rf"(?<![^\W\d_])(?P<{name}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?"
            rf"|may|june?|july?"
            rf"|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")


# A plausible year (1000-2100) that is not part of a longer number such as 1,000 or 2.5.
_Y = r"(?:1\d{3}|20\d{2}|2100)"
_NUMGUARD_BEFORE = r"(?<![\d$£€#.,/])"
_NUMGUARD_AFTER = r"(?!\d|[.,/:]\d|%|\s*(?:%|percent))"
_COUNT_NOUNS = (
    r"(?!\s+(?:people|persons|men|women|children|soldiers|troops|votes|voters|km|kilomet\w*"
    r"|met(?:re|er)s|miles|feet|ft|m|units|copies|students|members|employees|workers|staff"
    r"|residents|inhabitants|households|cars|vehicles|pages|words|points|dollars|euros"
    r"|pounds|yen|tons|tonnes|acres|hectares|seats|games|matches|goals|runs|yards|species"
    r"|square|sq|times|cases|deaths|casualties|prisoners|rooms|beds|spectators)\b)"
)


def YEAR(name: str = "y") -> str:
    return rf"{_NUMGUARD_BEFORE}(?P<{name}>{_Y}){_NUMGUARD_AFTER}{_COUNT_NOUNS}"


def _lookbehind(words: str) -> str:
    """Alternation of fixed-width look-behinds (Python needs each one fixed width)."""
    return "(?:" + "|".join(rf"(?<=\b{re.escape(w)} )" for w in words.split()) + ")"


def month_number(name: str) -> int:
    return _MONTHS.index(name[:3].lower()) + 1


def _date(y: str, m: int, d: str, ctx: Context) -> Result:
    return cal.day(date(int(y), m, int(d)), ctx.tz)


# ---------------------------------------------------------------- eras
_BC = r"\s*" + BC
# One side of a BC time: "the 1st century", "early 3rd century", "1,000", "221". Atomic, so
# the many numbers without a BC marker fail at once instead of backtracking digit by digit.
_BC_SIDE = (r"(?>(?:the\s+)?(?:(?:early|mid|middle|late)[\s-]+)?\d++(?:st|nd|rd|th)[\s-]+"
            r"(?:century|millennium)|(?<![\d.,])(?:\d{1,3}(?:,\d{3})++|\d++))")
_ERA_SEP = r"\s*(?:-|–|—|to|until|till|through)\s*"
_AD_BEFORE = r"(?<![^\W\d_])(?-i:AD|A\.D\.)\s*"


@rule(r"(?:(?:from|between)\s+)?" + _BC_SIDE + r"(?:" + _BC + r")?(?:(?:" + _ERA_SEP
      + r"|\s+and\s+)" + _BC_SIDE + r")?" + _BC, era=True)
def before_christ(m: re.Match[str], ctx: Context) -> Result:
    raise cal.Unheld("a BC time: the calendar starts at AD 1")


@rule(r"(?:(?:from|between)\s+)?(?:" + _AD_BEFORE + r"(?P<y1>\d++)" + _ERA_SEP + r"(?:"
      + _AD_BEFORE + r")?(?P<y2>\d++)|" + _NUMGUARD_BEFORE + r"(?P<y3>\d++)(?:\s*" + AD + r")?"
      + _ERA_SEP + r"(?P<y4>\d++)\s*" + AD + ")", kind="range", era=True)
def anno_domini_range(m: re.Match[str], ctx: Context) -> Result:
    first, tail = int(m["y1"] or m["y3"]), m["y2"] or m["y4"]
    last = int(tail)
    if last < first and len(tail) < len(str(first)):  # "AD 1990-91", "AD 1066-87"
        last += first // 10 ** len(tail) * 10 ** len(tail)
    if not first < last:
        return None  # not a range: "AD 1990" alone is read by the next rule
    return cal.years(first, last, ctx.tz)


@rule(_AD_BEFORE + r"(?P<y>\d++)|" + _NUMGUARD_BEFORE + r"(?P<y2>\d++)\s*" + AD, era=True)
def anno_domini(m: re.Match[str], ctx: Context) -> Result:
    year = int(m["y"] or m["y2"])
    return cal.years(year, year, ctx.tz)


# ---------------------------------------------------------------- numeric dates
# Years of five digits and more are matched too, so "10000-12-31 23:59" is skipped whole
# rather than leaving "23:59" to be read as today.
@rule(r"(?<![\d.])(?P<y>\d{4,})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"
      r"[T ](?P<H>[01]?\d|2[0-3]):(?P<M>[0-5]\d)(?::\d{2}(?:\.\d+)?)?"
      r"(?P<z>Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?(?!\d)")
def iso_datetime(m: re.Match[str], ctx: Context) -> Result:
    d = date(int(m["y"]), int(m["m"]), int(m["d"]))
    if not m["z"]:
        return cal.time_of_day(d, int(m["H"]), int(m["M"]), ctx.tz)
    # A stated offset fixes the moment; it is shown in the reader's zone.
    offset = datetime.strptime(m["z"], "%z").tzinfo  # Z, +0530, -05:30
    start = datetime.combine(d, time(int(m["H"]), int(m["M"])), offset).astimezone(ctx.tz)
    return Interval(start, start + timedelta(minutes=1), Granularity.MINUTE)


@rule(r"(?<![\d.])(?P<y>\d{4,})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?![\d])")
def numeric_date(m: re.Match[str], ctx: Context) -> Result:
    return _date(m["y"], int(m["m"]), m["d"], ctx)


@rule(r"(?<![\d.])(?P<y>\d{4,})-(?P<m>0[1-9]|1[0-2])(?![\d-])")
def iso_month(m: re.Match[str], ctx: Context) -> Result:
    return cal.month(int(m["y"]), int(m["m"]), ctx.tz)


# ---------------------------------------------------------------- written dates
_WEEKDAY_PREFIX = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s*,?\s+)?"


@rule(_WEEKDAY_PREFIX + r"(?:the\s+)?(?<![\d.])(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*(?:of\s+)?"
      + MONTH() + r"\s*,?\s*(?P<y>\d{3,4})(?!\d)")
def day_month_year(m: re.Match[str], ctx: Context) -> Result:
    return _date(m["y"], month_number(m["mon"]), m["d"], ctx)


@rule(_WEEKDAY_PREFIX + MONTH() + r"\s+(?P<d>\d{1,2})(?!\d)(?:st|nd|rd|th)?"
      r"(?:\s*,\s*|\s+)(?P<y>\d{3,4})(?!\d)")
def month_day_year(m: re.Match[str], ctx: Context) -> Result:
    return _date(m["y"], month_number(m["mon"]), m["d"], ctx)


@rule(r"(?:(?:from|between)\s+)?" + MONTH("m1") + r"\s*(?:-|–|—|to|until|till|through|and)\s*"
      + MONTH("m2") + r"\s*,?\s*(?P<y>\d{4})(?!\d)", kind="range")
def month_range(m: re.Match[str], ctx: Context) -> Result:
    first, last = month_number(m["m1"]), month_number(m["m2"])
    if last < first:
        return None
    return cal.months(int(m["y"]), first, last - first + 1, ctx.tz, Granularity.MONTH)


@rule(MONTH() + r"\s*,?\s*(?:of\s+)?(?P<y>\d{3,4})(?!\d)")
def month_year(m: re.Match[str], ctx: Context) -> Result:
    return cal.month(int(m["y"]), month_number(m["mon"]), ctx.tz)


_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
            "fourth": 4, "4th": 4}


@rule(r"\bQ(?P<q>[1-4])\s*,?\s*(?:of\s+)?(?P<y>\d{4})(?!\d)"
      r"|(?<!\d)(?P<y2>\d{4})\s*-?\s*Q(?P<q2>[1-4])\b"
      r"|(?:the\s+)?(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?"
      r"(?P<y3>\d{4})(?!\d)")
def quarter(m: re.Match[str], ctx: Context) -> Result:
    year = m["y"] or m["y2"] or m["y3"]
    q = int(m["q"] or m["q2"] or _ORDINAL[m["qw"].lower()])
    return cal.quarter(int(year), q, ctx.tz)


@rule(r"(?:the\s+)?(?P<h>first|second|1st|2nd)\s+half\s+of\s+(?P<y>\d{4})(?!\d)"
      r"|\bH(?P<h2>[12])\s*(?P<y2>\d{4})(?!\d)")
def half(m: re.Match[str], ctx: Context) -> Result:
    second = (m["h"] or "").lower() in ("second", "2nd") or m["h2"] == "2"
    return cal.half_year(int(m["y"] or m["y2"]), second, ctx.tz)


@rule(r"(?:the\s+)?(?P<s>spring|summer|autumn|fall|winter)\s+(?:of\s+)?(?P<y>\d{4})(?!\d)")
def season(m: re.Match[str], ctx: Context) -> Result:
    name = m["s"].lower()
    return cal.season(int(m["y"]), "autumn" if name == "fall" else name, ctx.tz)


_PART = r"(?P<p>early|mid|middle|late)"
_PARTS = {"early": "early", "mid": "mid", "middle": "mid", "late": "late"}


@rule(r"(?:the\s+)?" + _PART + r"[\s-]*(?:the\s+)?(?P<dec>1\d{2}0|20\d0)\s*['’]?s\b")
def decade_part(m: re.Match[str], ctx: Context) -> Result:
    first, part = int(m["dec"]), _PARTS[m["p"].lower()]
    if _is_hundreds(first):
        return cal.century(first // 100 + 1, ctx.tz, part)
    return cal.decade(first, ctx.tz, part)


def _is_hundreds(first: int) -> bool:
    """"the 1800s" is a century (1800-1899); "the 2000s" is read as a decade (2000-2009)."""
    return first % 100 == 0 and first < 2000


@rule(r"(?:the\s+)?(?<![\d$£€#.,])(?P<dec>1\d{2}0|20\d0)\s*['’]?s\b")
def decade(m: re.Match[str], ctx: Context) -> Result:
    first = int(m["dec"])
    if _is_hundreds(first):
        return cal.century(first // 100 + 1, ctx.tz)
    return cal.decade(first, ctx.tz)


@rule(r"(?:the\s+)?(?:" + _PART + r"[\s-]+)?(?<!\d)(?P<c>1\d|2[01]|[1-9])(?:st|nd|rd|th)[\s-]+"
      r"century\b")
def century(m: re.Match[str], ctx: Context) -> Result:
    part = _PARTS[m["p"].lower()] if m["p"] else None
    return cal.century(int(m["c"]), ctx.tz, part)


@rule(r"(?:the\s+)?(?P<p>early|mid|middle|late|beginning of|start of|end of|middle of)"
      r"[\s-]*(?:the\s+year\s+)?" + YEAR())
def year_part(m: re.Match[str], ctx: Context) -> Result:
    p = m["p"].lower()
    part = "early" if p in ("beginning of", "start of") else "late" if p == "end of" else p
    return cal.year_part(int(m["y"]), _PARTS.get(part, "mid"), ctx.tz)


# ---------------------------------------------------------------- years and year ranges
@rule(r"(?:(?P<pre>from|between)\s+)?" + YEAR("y1")
      + r"\s*(?:-|–|—|/|\bto\b|\buntil\b|\btill\b|\bthrough\b|\band\b)\s*"
      + r"(?P<y2>" + _Y + r"|\d{2})(?!\d|[.,:]\d|\s*%|[^\W\d_])" + _COUNT_NOUNS, kind="range")
def year_range(m: re.Match[str], ctx: Context) -> Result:
    first = int(m["y1"])
    tail = m["y2"]
    last = first // 100 * 100 + int(tail) if len(tail) == 2 else int(tail)
    connector = m.group(0)[m.end("y1") - m.start(0):m.start("y2") - m.start(0)].strip().lower()
    if connector == "and" and (m["pre"] or "").lower() != "between":
        return None  # "in 1990 and 1995" names two years, not a span
    if not first < last <= first + 150:
        return None
    return cal.years(first, last, ctx.tz)


# Not "for": "played for 1860 Munich", "paid for 1500 tickets" name no year.
_CONTEXT_WORDS = ("in since before after until till by from to between and during of circa into"
                  " both due"
                  " around c. ca. born died year than through throughout early late mid"
                  " summer winter spring autumn fall season election elections census"
                  " est. founded established")
_DETERMINERS = "the his her its their this that whose a 's"


@rule(_lookbehind(_CONTEXT_WORDS) + YEAR())
def year_in_context(m: re.Match[str], ctx: Context) -> Result:
    return cal.years(int(m["y"]), int(m["y"]), ctx.tz)


@rule(r"(?:(?<=\()|(?<=\( )|(?<=\[)|(?<=\[ )|^|(?<=\. ))" + YEAR() + r"(?=\s*[)\],;:]|\s*$)")
def year_standalone(m: re.Match[str], ctx: Context) -> Result:
    return cal.years(int(m["y"]), int(m["y"]), ctx.tz)


@rule("(?:" + "|".join(rf"(?<=\b{w} )" for w in _DETERMINERS.split()[:-1])
      + r"|(?<='s ))" + YEAR() + r"(?=\s+[a-z])")
def year_attributive(m: re.Match[str], ctx: Context) -> Result:
    return cal.years(int(m["y"]), int(m["y"]), ctx.tz)


# ---------------------------------------------------------------- relative (need now)
@rule(r"(?:the\s+)?day\s+before\s+yesterday|(?:the\s+)?day\s+after\s+tomorrow"
      r"|\btoday\b|\btonight\b|(?:\b(?:mid-?\s?)?(?:morning|afternoon|evening)\s+)?"
      r"\b(?:yesterday|tomorrow)\b(?:\s+(?:morning|afternoon|evening|night)\b)?"
      r"|\bthis\s+(?:morning|afternoon|evening)\b|\blast\s+night\b", relative=True)
def named_day(m: re.Match[str], ctx: Context) -> Result:
    text = m.group(0).lower()
    offset = (-2 if "before" in text else 2 if "after tomorrow" in text
              else -1 if "yesterday" in text or "last" in text
              else 1 if "tomorrow" in text else 0)
    return cal.day(ctx.today + timedelta(days=offset), ctx.tz)


_UNIT = r"(?P<u>day|week|month|quarter|year|decade)s?"


@rule(r"\b(?P<n>" + EN_NUMBER + r")\s+" + _UNIT + r"\s+(?P<dir>ago|earlier|before|from\s+now"
      r"|later|hence)\b", relative=True)
def units_ago(m: re.Match[str], ctx: Context) -> Result:
    n = en_number(m["n"])
    sign = -1 if m["dir"].lower() in ("ago", "earlier", "before") else 1
    unit = m["u"].lower()
    target = cal.shift(ctx.today, unit, sign * n)
    return cal.unit_interval(target, "year" if unit == "decade" else unit, ctx.tz)


@rule(r"(?:the\s+)?\b(?P<w>last|past|previous|next|coming|following)\s+(?P<n>" + EN_NUMBER
      + r")\s+" + _UNIT + r"(?!\s+(?:ago|later))", relative=True, kind="window")
def unit_window(m: re.Match[str], ctx: Context) -> Result:
    n, unit = en_number(m["n"]), m["u"].lower()
    if m["w"].lower() in ("last", "past", "previous"):
        return cal.trailing(ctx.today, unit, n, ctx.tz)
    start = ctx.today + timedelta(days=1)
    return cal.span(start, cal.shift(start, unit, n), ctx.tz, Granularity.DAY)


# "next year's first quarter" is read whole by ``bare_quarter``.
_QUARTER_WORD = r"(?:first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter"


@rule(r"(?:the\s+)?\b(?P<w>this|last|past|previous|next|coming|current)\s+"
      r"(?P<u>week|month|quarter|year|decade)\b(?!'s\s+" + _QUARTER_WORD + ")", relative=True)
def this_unit(m: re.Match[str], ctx: Context) -> Result:
    word, unit = m["w"].lower(), m["u"].lower()
    if word == "past":
        return cal.trailing(ctx.today, unit, 1, ctx.tz)
    offset = -1 if word in ("last", "previous") else 1 if word in ("next", "coming") else 0
    if unit == "decade":
        first = ctx.today.year // 10 * 10 + 10 * offset
        return cal.decade(first, ctx.tz)
    return cal.unit_interval(cal.shift(ctx.today, unit, offset), unit, ctx.tz)


@rule(r"\b(?P<w>last|this|next|coming|past)\s+(?P<d>mon|tues|wednes|thurs|fri|satur|sun)day\b",
      relative=True)
def weekday(m: re.Match[str], ctx: Context) -> Result:
    target = [w[:3] for w in _WEEKDAYS].index(m["d"][:3].lower())
    today, word = ctx.today, m["w"].lower()
    if word in ("this",):
        return cal.day(cal.week_start(today) + timedelta(days=target), ctx.tz)
    if word in ("last", "past"):
        back = (today.weekday() - target - 1) % 7 + 1
        return cal.day(today - timedelta(days=back), ctx.tz)
    ahead = (target - today.weekday() - 1) % 7 + 1
    return cal.day(today + timedelta(days=ahead), ctx.tz)


# ---------------------------------------------------------------- times of day
# A zone after the clock ("5 p.m. EST") belongs to it; the hour stays the wall time named.
_ZONE = r"(?:\s+(?-i:[ECMP][SD]T|GMT|UTC)\b)?"


@rule(r"(?:\bat\s+)?\b(?P<h>1[0-2]|0?[1-9])(?::(?P<m>[0-5]\d))?\s*(?P<ap>a\.?m\b\.?|p\.?m\b\.?)"
      + _ZONE, kind="time")
def clock_12h(m: re.Match[str], ctx: Context) -> Result:
    hour = int(m["h"]) % 12 + (12 if m["ap"].lower().startswith("p") else 0)
    return Clock(hour, int(m["m"]) if m["m"] else None)


@rule(r"(?:\bat\s+)?(?<![\d:.])(?P<h>[01]?\d|2[0-3])[:：](?P<m>[0-5]\d)(?![\d:])", kind="time")
def clock_24h(m: re.Match[str], ctx: Context) -> Result:
    return Clock(int(m["h"]), int(m["m"]))


@rule(r"(?:\bat\s+)?\b(?P<w>noon|midday|midnight)\b", kind="time")
def clock_word(m: re.Match[str], ctx: Context) -> Result:
    return Clock(12 if m["w"].lower() != "midnight" else 0, None)
