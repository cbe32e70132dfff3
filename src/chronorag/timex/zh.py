"""Chinese time expressions.

Conventions:

* Weeks start on Monday. 上周 is the whole previous calendar week; 上周二 is the Tuesday of
  that week; 这周三 / 本周三 is the Wednesday of the current week even if it is past;
  下周三 is the Wednesday of next week. A bare 周二 / 星期二 means this week's Tuesday.
* N天前 / 三年前 is the single day exactly that far back (month ends clamp).
* 最近N天 / 近三个月 / 过去N年 is the window of N units ending today, inclusive.
* 年初 / 年中 / 年底(年末) are the first / middle / last third of the year (Jan-Apr,
  May-Aug, Sep-Dec), as for English early / mid / late.
* 公元 before a year makes it a year of any length ("公元800年", "公元1949年"); a bare year
  needs four digits. 公元前 (and a bare 前 before a three- or four-digit year: "前221年",
  "前221—前206年") marks a BC time, recognised and skipped: the calendar starts at AD 1.
  "前3年" / "前100年里" stay the previous / first N years.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from chronorag.model import Granularity
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import CN_NUM_CHARS, cn_digits, cn_number
from chronorag.timex.rules import Clock, Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

# Never the tail of a longer number: "12345天前" is not "2345天前" or "5天前".
N = rf"(?:(?<!\d)\d{{1,4}}|(?<![{CN_NUM_CHARS}])[{CN_NUM_CHARS}]{{1,4}})"
Y4 = (rf"(?:公元\s*(?:\d+|[{CN_NUM_CHARS}]{{1,6}})|(?<!\d)\d{{4}}"
      r"|[〇零○一二三四五六七八九]{4})")
_SEASONS = {"春": "spring", "夏": "summer", "秋": "autumn", "冬": "winter"}
_PARTS = {"初": "early", "中": "mid", "底": "late", "末": "late"}
_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6,
            "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}
_WEEK_OFFSET = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}


def _year(text: str) -> int:
    """A year of ``Y4``: "2019", "二〇一九", "公元800", "公元八百"."""
    digits = text.removeprefix("公元").strip()
    if any(unit in digits for unit in "十百千"):
        return cn_number(digits)
    return cn_digits(digits)


# ---------------------------------------------------------------- eras
_BC_TIME = (rf"(?:\d+|[{CN_NUM_CHARS}]+)\s*(?:年|世纪(?:[初中末]期?|中叶|[上下]半叶)?)?")
# 公元前 always marks BC; a bare 前 only before a year of three or four digits, and not
# before 内 / 里 / 以来 / 间 / 中 ("前100年里" is the first hundred years).
_BC_START = (r"(?:公元前|(?<![之以提年天月日周])前(?=\d{3,4}\s*(?:年(?!内|里|以来|来|间|中)"
             r"|[-–—~～到至]\s*(?:公元)?前?\d{1,4}\s*年)))")


@rule(rf"{_BC_START}\s*{_BC_TIME}(?:\s*{N}\s*月(?:\s*{N}\s*[日号])?)?"
      rf"(?:\s*(?:到|至|-|–|—|~|～)\s*(?:公元)?前?\s*{_BC_TIME})?", era=True)
def before_christ(m: re.Match[str], ctx: Context) -> Result:
    raise cal.Unheld("a BC time (公元前): the calendar starts at AD 1")


# ---------------------------------------------------------------- absolute
@rule(rf"(?P<y>{Y4})\s*年\s*(?P<m>{N})\s*月\s*(?P<d>{N})\s*[日号]")
def full_date(m: re.Match[str], ctx: Context) -> Result:
    return cal.day(date(_year(m["y"]), cn_number(m["m"]), cn_number(m["d"])), ctx.tz)


@rule(rf"(?P<y>{Y4})\s*年\s*(?P<m>{N})\s*月份?(?![{CN_NUM_CHARS}\d])")
def year_month(m: re.Match[str], ctx: Context) -> Result:
    return cal.month(_year(m["y"]), cn_number(m["m"]), ctx.tz)


@rule(rf"(?P<y>{Y4})\s*年\s*(?:第?(?P<q>[1-4一二三四])季度|Q(?P<q2>[1-4]))")
def year_quarter(m: re.Match[str], ctx: Context) -> Result:
    return cal.quarter(_year(m["y"]), cn_number(m["q"] or m["q2"]), ctx.tz)


@rule(rf"(?P<y>{Y4})\s*年\s*(?P<h>上|下)半年")
def year_half(m: re.Match[str], ctx: Context) -> Result:
    return cal.half_year(_year(m["y"]), m["h"] == "下", ctx.tz)


@rule(rf"(?P<y>{Y4})\s*年\s*的?(?P<s>[春夏秋冬])(?:天|季)")
def year_season(m: re.Match[str], ctx: Context) -> Result:
    return cal.season(_year(m["y"]), _SEASONS[m["s"]], ctx.tz)


# 年中 only before punctuation or a relation word: "2003年中国" is "2003 / 中国".
@rule(rf"(?P<y>{Y4})\s*年(?P<p>初(?!次)|底|末|中(?=[，,。.\s的以之前后]|$))(?:期)?")
def year_part(m: re.Match[str], ctx: Context) -> Result:
    return cal.year_part(_year(m["y"]), _PARTS[m["p"]], ctx.tz)


_CENTURY = r"(?:公元\s*)?(?<!\d)(?P<c>\d{1,2}|[一二]?十[一二]?|[一二三四五六七八九])"
_DECADE = r"(?P<d>[1-9]0|[一二三四五六七八九]十|00|零零)"


@rule(_CENTURY + r"\s*世纪\s*" + _DECADE + r"\s*年代(?P<p>初|中|末)?期?")
def century_decade(m: re.Match[str], ctx: Context) -> Result:
    first = (cn_number(m["c"]) - 1) * 100 + (0 if m["d"] in ("00", "零零") else cn_number(m["d"]))
    return cal.decade(first, ctx.tz, _PARTS[m["p"]] if m["p"] else None)


@rule(r"(?<!\d)(?P<y>1\d{2}0|20\d0|[1-9]0)\s*年代(?P<p>初|中|末)?期?")
def decade(m: re.Match[str], ctx: Context) -> Result:
    value = int(m["y"])
    # "90年代" is the 1990s; two-digit decades up to 20 are read as this century.
    first = value if value >= 1000 else (2000 + value if value <= 20 else 1900 + value)
    return cal.decade(first, ctx.tz, _PARTS[m["p"]] if m["p"] else None)


@rule(_CENTURY + r"\s*世纪(?P<p>初|中叶|中期|末|上半叶|下半叶)?")
def century(m: re.Match[str], ctx: Context) -> Result:
    part = {"初": "early", "中叶": "mid", "中期": "mid", "末": "late"}.get(m["p"] or "")
    if m["p"] in ("上半叶", "下半叶"):
        lo = 50 if m["p"] == "下半叶" else 0
        return cal.century_years(cn_number(m["c"]), lo, lo + 49, ctx.tz, Granularity.DECADE)
    return cal.century(cn_number(m["c"]), ctx.tz, part)


@rule(rf"(?:[从自在]\s*)?(?P<y1>{Y4})\s*年?\s*(?:到|至|-|–|—|~|～)\s*(?P<y2>{Y4})\s*年"
      r"(?:之间|期间|间)?", kind="range")
def year_range(m: re.Match[str], ctx: Context) -> Result:
    first, last = _year(m["y1"]), _year(m["y2"])
    return cal.years(first, last, ctx.tz) if first <= last else None


@rule(rf"(?P<y>{Y4})\s*年(?!代|度?[{CN_NUM_CHARS}\d])")
def year(m: re.Match[str], ctx: Context) -> Result:
    return cal.years(_year(m["y"]), _year(m["y"]), ctx.tz)


# ---------------------------------------------------------------- relative (need now)
@rule(rf"(?<![年\d{CN_NUM_CHARS}])(?P<m>{N})\s*月\s*(?P<d>{N})\s*[日号]", relative=True)
def month_day(m: re.Match[str], ctx: Context) -> Result:
    return cal.day(date(ctx.today.year, cn_number(m["m"]), cn_number(m["d"])), ctx.tz)


_DAY_WORDS = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "今天": 0, "今日": 0,
              "明天": 1, "明日": 1, "后天": 2, "大后天": 3, "今早": 0, "今晚": 0,
              "昨晚": -1, "明早": 1}


@rule("大前天|大后天|前天|昨天|昨日|今天|今日|明天|明日|后天|今早|今晚|昨晚|明早", relative=True)
def named_day(m: re.Match[str], ctx: Context) -> Result:
    return cal.day(ctx.today + timedelta(days=_DAY_WORDS[m.group(0)]), ctx.tz)


_UNITS = {"天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week",
          "月": "month", "年": "year", "季度": "quarter"}
_UNIT = r"(?:个)?(?P<u>天|日|周|星期|礼拜|月|年|季度)"


@rule(rf"(?P<n>{N}|半)\s*{_UNIT}\s*(?P<dir>以前|之前|前|以后|之后|后)(?![天年])", relative=True)
def units_ago(m: re.Match[str], ctx: Context) -> Result:
    n = 0 if m["n"] == "半" else cn_number(m["n"])
    if n == 0 or n >= 1000:
        return None
    sign = -1 if "前" in m["dir"] else 1
    return cal.day(cal.shift(ctx.today, _UNITS[m["u"]], sign * n), ctx.tz)


@rule(rf"(?P<w>最近|近|过去|过去的|前|未来|接下来的?)\s*(?P<n>{N})\s*{_UNIT}(?:内|里|以来|来)?",
      relative=True)
def unit_window(m: re.Match[str], ctx: Context) -> Result:
    n, unit = cn_number(m["n"]), _UNITS[m["u"]]
    if n == 0:
        return None
    if m["w"].startswith(("未来", "接下来")):
        start = ctx.today + timedelta(days=1)
        return cal.span(start, cal.shift(start, unit, n), ctx.tz, Granularity.DAY)
    return cal.trailing(ctx.today, unit, n, ctx.tz)


@rule(r"(?<!每)(?P<p>上上|上|这|本|下下|下)?个?(?:周|星期|礼拜)(?P<d>[一二三四五六日天1-7]|末)"
      r"|(?P<p2>上上|上|这|本|下下|下)个?(?:周|星期|礼拜)(?![一二三四五六日天1-7末年])",
      relative=True)
def week(m: re.Match[str], ctx: Context) -> Result:
    offset = _WEEK_OFFSET[m["p"] or m["p2"] or "这"]
    monday = cal.week_start(ctx.today) + timedelta(weeks=offset)
    if m["d"] == "末":
        return cal.days(monday + timedelta(days=5), 2, ctx.tz)
    if m["d"]:
        return cal.day(monday + timedelta(days=_WEEKDAY[m["d"]]), ctx.tz)
    return cal.days(monday, 7, ctx.tz, Granularity.WEEK)


@rule(r"(?P<p>上上个|上个|上|本|这个|这|当|下个|下|下下个)月(?!份?[\d一二三四五六七八九十])",
      relative=True)
def month(m: re.Match[str], ctx: Context) -> Result:
    offset = {"上上个": -2, "上个": -1, "上": -1, "下个": 1, "下": 1, "下下个": 2}.get(m["p"], 0)
    return cal.unit_interval(cal.add_months(ctx.today, offset), "month", ctx.tz)


_YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "本年": 0, "明年": 1,
               "后年": 2, "上一年": -1, "下一年": 1}


@rule("大前年|前年|去年|今年|本年|明年|后年|上一年|下一年", relative=True)
def named_year(m: re.Match[str], ctx: Context) -> Result:
    y = ctx.today.year + _YEAR_WORDS[m.group(0)]
    return cal.years(y, y, ctx.tz)


@rule(r"(?P<p>上个|上一|上|本|这个|这一|这|下个|下一|下)季度", relative=True)
def quarter(m: re.Match[str], ctx: Context) -> Result:
    offset = -1 if m["p"].startswith("上") else 1 if m["p"].startswith("下") else 0
    return cal.unit_interval(cal.shift(ctx.today, "quarter", offset), "quarter", ctx.tz)


@rule(r"(?<![年\d])(?P<h>上|下)半年", relative=True)
def half(m: re.Match[str], ctx: Context) -> Result:
    return cal.half_year(ctx.today.year, m["h"] == "下", ctx.tz)


# ---------------------------------------------------------------- times of day
_AM_PM = r"(?P<ap>上午|下午|晚上|早上|早晨|中午|凌晨|傍晚|夜里|晚)"


@rule(rf"(?:{_AM_PM}|(?<=[天日号早晚]))\s*(?P<h>{N})\s*[点點时](?:(?P<half>半)|(?P<m>{N})\s*分?)?",
      kind="time")
def clock(m: re.Match[str], ctx: Context) -> Result:
    hour = cn_number(m["h"])
    if hour > 24:
        return None
    if m["ap"] in ("下午", "晚上", "傍晚", "夜里", "晚") and hour < 12:
        hour += 12
    minute = 30 if m["half"] else cn_number(m["m"]) if m["m"] else None
    if minute is not None and minute > 59:
        return None
    return Clock(hour % 24, minute)
