"""Chinese lunar dates and festivals, converted to the Gregorian calendar.

农历2015年十月初一 is 2015-11-12; 农历八月十五 and 中秋节 without a year are of the lunar year
that starts in the current Gregorian year; 除夕 is the last day of that lunar year (the eve of
the next 春节). A leap month is 闰: 农历闰四月初一. Conversion uses ``lunar_python`` (MIT,
offline tables), imported only when a lunar expression is found. A lunar day that does not
exist (a 30th in a 29-day month) is an impossible date, skipped as 31 Feb is.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import CN_NUM_CHARS, cn_digits, cn_number
from chronorag.timex.rules import Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

_LUNAR = "农历|農曆|阴历|陰曆"
#: Where a lunar date can begin, for the ingest scanner's list of starting points.
STARTERS = _LUNAR
_YEAR = r"(?P<y>(?<!\d)\d{4}|[〇零○一二三四五六七八九]{4})\s*年"
_NAMED = {"去年": -1, "今年": 0, "明年": 1}
_MONTH = rf"(?P<leap>闰|閏)?(?P<m>正|冬|腊|臘|[{CN_NUM_CHARS}]{{1,2}}|\d{{1,2}})\s*月"
_DAY = (r"(?P<d>初[一二三四五六七八九十]|廿[一二三四五六七八九]?|卅|三十|二十"
        r"|十[一二三四五六七八九]?|[一二三四五六七八九])")
_MONTH_WORDS = {"正": 1, "冬": 11, "腊": 12, "臘": 12}
_FESTIVALS = {"春节": (1, 1), "春節": (1, 1), "元宵节": (1, 15), "元宵節": (1, 15),
              "端午节": (5, 5), "端午節": (5, 5), "七夕节": (7, 7), "七夕": (7, 7),
              "中秋节": (8, 15), "中秋節": (8, 15), "中秋": (8, 15), "重阳节": (9, 9),
              "重陽節": (9, 9), "腊八节": (12, 8), "腊八": (12, 8), "除夕": (0, 0)}
#: The festivals' names, longest first, for rules that read a festival after a year.
FESTIVAL_NAMES = "|".join(sorted(_FESTIVALS, key=len, reverse=True))


def _lunar_day(text: str) -> int:
    """初五 -> 5, 十五 -> 15, 廿三 -> 23, 卅 -> 30."""
    if text.startswith("初"):
        return cn_number(text[1:])
    if text.startswith("廿"):
        return 20 + (cn_number(text[1:]) if len(text) > 1 else 0)
    return 30 if text == "卅" else cn_number(text)


def to_solar(year: int, month: int, day: int, *, leap: bool = False) -> date:
    """The Gregorian day of a lunar date; ``ValueError`` when the lunar day does not exist."""
    from lunar_python import Lunar  # imported on use: most texts name no lunar date

    if not (1 <= month <= 12 and 1 <= day <= 30 and 1 <= year <= 9998):
        raise ValueError(f"no lunar date {year}-{month}-{day}")
    try:
        solar = Lunar.fromYmd(year, -month if leap else month, day).getSolar()
    except Exception as exc:  # the library raises bare Exception for a day it has not
        raise ValueError(f"no lunar date {year}-{month}-{day}: {exc}") from None
    return date(solar.getYear(), solar.getMonth(), solar.getDay())


def _year(m: re.Match[str], ctx: Context) -> int:
    if m["y"]:
        return cn_digits(m["y"])
    return ctx.today.year + _NAMED.get(m.groupdict().get("ny") or "", 0)


@rule(rf"(?:{_LUNAR})\s*(?:{_YEAR}\s*)?{_MONTH}\s*{_DAY}\s*[日号]?")
def lunar_date(m: re.Match[str], ctx: Context) -> Result:
    if m["y"] is None and ctx.now is None:
        return None  # a lunar date without a year needs ``now`` (not known at ingest)
    month = _MONTH_WORDS.get(m["m"]) or cn_number(m["m"])
    leap = m.groupdict().get("leap") is not None
    return cal.day(to_solar(_year(m, ctx), month, _lunar_day(m["d"]), leap=leap), ctx.tz)


# 正月 and 腊月 are lunar months by name: 正月初一 needs no 农历 (but 神龙二年正月 is of an
# era this table does not hold).
@rule(rf"(?:{_YEAR}\s*|(?<!年))(?P<m>正|腊|臘)\s*月\s*{_DAY}\s*[日号]?")
def named_lunar_month(m: re.Match[str], ctx: Context) -> Result:
    return lunar_date(m, ctx)


# A day written 初一 … 初十 is a lunar day by its form (Gregorian days are 一日, 1号): 十月初一
# needs no 农历 either. 十月初 alone is early October.
@rule(rf"(?:{_YEAR}\s*|(?<![年\d{CN_NUM_CHARS}]))(?P<leap>闰|閏)?(?P<m>[{CN_NUM_CHARS}]{{1,2}}"
      r"|\d{1,2})\s*月\s*(?P<d>初[一二三四五六七八九十])")
def lunar_first_days(m: re.Match[str], ctx: Context) -> Result:
    return lunar_date(m, ctx)


@rule(rf"(?:{_YEAR}|(?P<ny>去年|今年|明年))?\s*的?\s*(?P<f>{'|'.join(_FESTIVALS)})")
def festival(m: re.Match[str], ctx: Context) -> Result:
    if m["y"] is None and ctx.now is None:
        return None  # 中秋节 without a year needs ``now`` (not known at ingest)
    year = _year(m, ctx)
    month, day = _FESTIVALS[m["f"]]
    if month == 0:  # 除夕: the eve of the next lunar new year
        return cal.day(to_solar(year + 1, 1, 1) - timedelta(days=1), ctx.tz)
    return cal.day(to_solar(year, month, day), ctx.tz)
