"""Chinese time expressions.

Conventions:

* Weeks start on Monday. 上周 is the whole previous calendar week; 上周二 is the Tuesday of
  that week; 这周三 / 本周三 is the Wednesday of the current week even if it is past;
  下周三 is the Wednesday of next week. A bare 周二 / 星期二 means this week's Tuesday.
* N天前 / N周前 / N个月前 / N年前 is the calendar unit that far back, at its granularity
  (三年前 is that year, 两个月前 that month, 3天前 that day; month ends clamp), as English
  "N years ago" is; 半年前 / 一年半前 are the month that far back (``zh_range``).
* A time of the year after N年前 / N年后 is read in that year: 三年前3月, 五年前的5月底,
  两年前的上半年, 四年前夏天, 三年前的元旦. After N年前 or a named year (去年, 前年),
  今天 / 当天 is the same day that many years back (五年前的今天), 这个月 the same month,
  本周 / 这个星期 the same week, 本周末 that weekend.
* 最近N天 / 近三个月 / 过去N年 is the window of N units ending today, inclusive; 前N周 the N
  units before today, as 后N周 is the N after it.
* 年初 / 年中 / 年底(年末) are the first / middle / last third of the year (Jan-Apr,
  May-Aug, Sep-Dec), as for English early / mid / late.
* 公元 before a year makes it a year of any length ("公元800年", "公元1949年"); a bare year
  needs four digits. 公元前 (and a bare 前 before a three- or four-digit year: "前221年",
  "前221—前206年") marks a BC time, recognised and skipped: the calendar starts at AD 1.
  "前3年" / "前100年里" stay the previous / first N years.
* A month or day without a year is of this year / this month (3月, 29日), as a bare 周二 is
  of this week. A two-digit year is 20yy unless that is over ten years ahead (98年 = 1998);
  only 0x年 stands alone, other two-digit years need a month after them.
* Era years (民国三年 = 1914), centuries and decades are in ``timex.zh_era``; quarters
  without a year (三季度, 前三季度) in ``timex.zh_quarter``.
* 去年的前10天 / 2003年的最后两个月 are the first / last N units of that year (N weeks are whole
  Monday-start weeks, numbered as ISO 8601 weeks are); 十月的第一周 is
  the N-th Monday-start week whose Thursday falls in the period (as ISO 8601 weeks).
* Times of day are in ``timex.zh_clock``.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from chronorag.model import Granularity, Interval
from chronorag.timex import calendar as cal
from chronorag.timex import zh_clock, zh_era, zh_holiday, zh_lunar, zh_quarter, zh_range
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import BOUNDED_NUMBER, CN_NUM_CHARS, cn_digits, cn_number
from chronorag.timex.rules import Registry, Result
from chronorag.timex.zh_clock import DAY_WORDS
from chronorag.timex.zh_range import DIRECTION

REGISTRY = Registry()
# Month ranges, dates with a part of the day and offsets from now before the rules that
# read their pieces; then times of day: 明天下午两点到四点 is one range, not 明天 and a clock.
REGISTRY.rules.extend(zh_range.REGISTRY.rules)
REGISTRY.rules.extend(zh_clock.REGISTRY.rules)
REGISTRY.rules.extend(zh_lunar.REGISTRY.rules)
rule = REGISTRY.rule

# Never the tail of a longer number: "12345天前" is not "2345天前" or "5天前".
N = BOUNDED_NUMBER
Y4 = (rf"(?:公元\s*(?:\d+|[{CN_NUM_CHARS}]{{1,6}})|(?<!\d)\d{{4}}"
      r"|[〇零○一二三四五六七八九]{4})")
_SEASONS = {"春": "spring", "夏": "summer", "秋": "autumn", "冬": "winter"}
_PARTS = {"初": "early", "中": "mid", "底": "late", "末": "late"}
_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6,
            "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}
_WEEK_OFFSET = {"上上": -2, "上": -1, "这": 0, "這": 0, "本": 0, "下": 1, "下下": 2}


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
_NAMED_YEAR = "大前年|前年|去年|今年|本年|明年|后年|(?<!马)上一年|下一年"
_YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "本年": 0, "明年": 1,
               "后年": 2, "上一年": -1, "下一年": 1}

# The first or last N days / weeks / months of a year: 去年的前10天, 2003年的最后两个月.
@rule(rf"(?:(?P<ny>{_NAMED_YEAR})|(?P<y>{Y4})\s*年)\s*的?\s*(?P<w>前|头|最后|最後)\s*(?P<n>{N})"
      r"\s*[个個]?(?P<u>天|日|周|週|星期|月)", relative=True)
def year_edge(m: re.Match[str], ctx: Context) -> Result:
    y = ctx.today.year + _YEAR_WORDS[m["ny"]] if m["ny"] else _year(m["y"])
    n, unit = cn_number(m["n"]), _UNITS[m["u"]]
    if n == 0:
        return None
    first, end = date(y, 1, 1), date(y + 1, 1, 1)
    if unit == "week":
        # Whole Monday-start weeks, numbered as 十月的第一周 is: the year's first week holds
        # 4 January and its last one 28 December (ISO 8601).
        first, end = cal.week_start(first + timedelta(days=3)), cal.week_start(
            date(y, 12, 28)) + timedelta(weeks=1)
    if m["w"] in ("前", "头"):
        return cal.span(first, cal.shift(first, unit, n), ctx.tz, Granularity.DAY)
    return cal.span(cal.shift(end, unit, -n), end, ctx.tz, Granularity.DAY)


# The N-th week of a month or year (十月的第一周, 2021年的第二周): weeks start on Monday and
# the first week is the one whose Thursday falls inside the period (as ISO 8601 weeks).
@rule(rf"(?:(?P<ny>{_NAMED_YEAR})|(?P<y>{Y4})\s*年)?\s*的?\s*(?:(?P<m>{N})\s*月份?)?\s*的?\s*"
      r"第(?P<n>[1-6一二三四五六])[个個]?(?:周|週|星期|礼拜|禮拜)", relative=True)
def nth_week(m: re.Match[str], ctx: Context) -> Result:
    if not (m["ny"] or m["y"] or m["m"]):
        return None
    y = (ctx.today.year + _YEAR_WORDS[m["ny"]] if m["ny"] else _year(m["y"]) if m["y"]
         else ctx.today.year)
    first = date(y, cn_number(m["m"]) if m["m"] else 1, 1)
    monday = cal.week_start(first + timedelta(days=3))
    return cal.days(monday + timedelta(weeks=cn_number(m["n"]) - 1), 7, ctx.tz,
                    Granularity.WEEK)


# 2019年6月1日-6月30日, 从2016年一月十日到十二日: the second day takes the first one's year
# (and month); the range runs to the end of the second day.
@rule(rf"(?:[从自]\s*)?(?P<y>{Y4})\s*年\s*(?P<m>{N})\s*月\s*(?P<d>{N})\s*[日号]\s*"
      rf"(?:到|至|-|–|—|~|～)\s*(?:(?P<m2>{N})\s*月\s*)?(?P<d2>{N})\s*[日号](?:之间|期间|间)?",
      kind="range")
def day_range(m: re.Match[str], ctx: Context) -> Result:
    year = _year(m["y"])
    first = date(year, cn_number(m["m"]), cn_number(m["d"]))
    last = date(year, cn_number(m["m2"] or m["m"]), cn_number(m["d2"]))
    if last < first:
        return None
    return cal.span(first, last + timedelta(days=1), ctx.tz, Granularity.DAY)


@rule(rf"(?P<y>{Y4})\s*年\s*(?P<m>{N})\s*月\s*(?P<d>{N})\s*[日号]")
def full_date(m: re.Match[str], ctx: Context) -> Result:
    return cal.day(date(_year(m["y"]), cn_number(m["m"]), cn_number(m["d"])), ctx.tz)


@rule(rf"(?P<y>{Y4})\s*年\s*(?P<m>{N})\s*月份?(?![{CN_NUM_CHARS}\d])")
def year_month(m: re.Match[str], ctx: Context) -> Result:
    return cal.month(_year(m["y"]), cn_number(m["m"]), ctx.tz)


@rule(rf"(?P<y>{Y4})\s*年\s*(?:{zh_quarter.OF_YEAR})")
def year_quarter(m: re.Match[str], ctx: Context) -> Result:
    return zh_quarter.quarters_of(_year(m["y"]), m, ctx)


@rule(rf"(?P<y>{Y4})\s*年\s*(?P<h>上|下)半年")
def year_half(m: re.Match[str], ctx: Context) -> Result:
    return cal.half_year(_year(m["y"]), m["h"] == "下", ctx.tz)


_NOT_AFTER_ZAI = "".join(f"(?<!在{a}\\d{{4}}{b}年)" for a in ("", " ") for b in ("", " "))


@rule(rf"(?P<y>{Y4})\s*年\s*的?(?P<s>[春夏秋冬])(?:天|季)")
def year_season(m: re.Match[str], ctx: Context) -> Result:
    return cal.season(_year(m["y"]), _SEASONS[m["s"]], ctx.tz)


# 年中 only before punctuation or a relation word: "2003年中国" is "2003 / 中国". After 在
# it is the frame 在…中, "in": "在2019年中，A和B哪个更早" asks within 2019, and the year
# holds its middle too.
@rule(rf"(?P<y>{Y4})\s*年(?P<p>初(?!次)|底|末|{_NOT_AFTER_ZAI}中(?=[，,。.\s的以之前后]|$))"
      r"(?:期)?")
def year_part(m: re.Match[str], ctx: Context) -> Result:
    return cal.year_part(_year(m["y"]), _PARTS[m["p"]], ctx.tz)


REGISTRY.rules.extend(zh_era.REGISTRY.rules)
#: Where an era year or a lunar date can begin, for the ingest scanner's starting points.
STARTERS = zh_era.STARTERS + "|" + zh_lunar.STARTERS


@rule(rf"(?:[从自在]\s*)?(?P<y1>{Y4})\s*年?\s*(?:到|至|-|–|—|~|～)\s*(?P<y2>{Y4})\s*年"
      r"(?:之间|期间|间)?", kind="range")
def year_range(m: re.Match[str], ctx: Context) -> Result:
    first, last = _year(m["y1"]), _year(m["y2"])
    return cal.years(first, last, ctx.tz) if first <= last else None


@rule(rf"(?P<y>{Y4})\s*年(?!代|度?[{CN_NUM_CHARS}\d])")
def year(m: re.Match[str], ctx: Context) -> Result:
    return cal.years(_year(m["y"]), _year(m["y"]), ctx.tz)


# ---------------------------------------------------------------- relative (need now)
_MONTH_PARTS = {"初": "early", "上旬": "early", "中旬": "mid", "下旬": "late", "底": "late",
                "末": "late"}
_NOT_AFTER_NUMBER = r"(?![内里以来前后後之间間])"


def _two_digit_year(text: str, ctx: Context) -> int:
    """"08年" is 2008 unless that is more than ten years ahead of now ("98年" is 1998)."""
    yy = cn_digits(text)
    return 2000 + yy if 2000 + yy <= ctx.today.year + 10 else 1900 + yy


# Two-digit years: with a leading zero (08年, 〇八年), or before a month (98年5月); a bare
# "10年" is more often ten years than 2010.
@rule(rf"(?<![\d{CN_NUM_CHARS}])(?:(?P<y>0\d|[〇零○][一二三四五六七八九〇零○])\s*年(?!代|度)"
      rf"|(?P<y2>\d\d)\s*年(?=\s*{N}\s*月))(?:\s*(?P<m>{N})\s*月份?(?:\s*(?P<d>{N})\s*[日号])?)?",
      relative=True)
def short_year(m: re.Match[str], ctx: Context) -> Result:
    year = _two_digit_year(m["y"] or m["y2"], ctx)
    if m["d"]:
        return cal.day(date(year, cn_number(m["m"]), cn_number(m["d"])), ctx.tz)
    if m["m"]:
        return cal.month(year, cn_number(m["m"]), ctx.tz)
    return cal.years(year, year, ctx.tz)


REGISTRY.rules.extend(zh_quarter.REGISTRY.rules)  # 第三季度, 三季度, Q3, 前三季度


# A part of a named year: 今年第三季度, 去年上半年, 明年夏天, 去年3月, 去年底.
@rule(rf"(?P<ny>{_NAMED_YEAR})\s*的?\s*(?:{zh_quarter.OF_YEAR}"
      rf"|(?P<h>[上下前后])半年|(?P<s>[春夏秋冬])(?:天|季)|年?(?P<p>初(?!次)|底|末)"
      rf"|第(?P<nm>{N})[个個]月|(?P<m>{N})\s*月份?(?:\s*(?P<d>{N})\s*[日号])?)", relative=True)
def named_year_part(m: re.Match[str], ctx: Context) -> Result:
    y = ctx.today.year + _YEAR_WORDS[m["ny"]]
    if m["fq"] or m["q"] or m["q2"]:
        return zh_quarter.quarters_of(y, m, ctx)
    if m["h"]:
        return cal.half_year(y, m["h"] in "下后", ctx.tz)
    if m["s"]:
        return cal.season(y, _SEASONS[m["s"]], ctx.tz)
    if m["p"]:
        return cal.year_part(y, _PARTS[m["p"]], ctx.tz)
    if m["d"]:
        return cal.day(date(y, cn_number(m["m"]), cn_number(m["d"])), ctx.tz)
    return cal.month(y, cn_number(m["nm"] or m["m"]), ctx.tz)


# 本月十日 / 上个月3号: a day of a named month.
@rule(rf"(?P<p>上上个|上个|上個|上|本|这个|這個|这|這|当|下个|下個|下)月\s*(?P<d>{N})\s*[日号]",
      relative=True)
def named_month_day(m: re.Match[str], ctx: Context) -> Result:
    first = cal.add_months(ctx.today.replace(day=1), _MONTH_OFFSET.get(m["p"], 0))
    return cal.day(first.replace(day=cn_number(m["d"])), ctx.tz)


@rule(rf"(?<![年\d{CN_NUM_CHARS}])(?P<m>{N})\s*月\s*(?P<d>{N})\s*[日号]", relative=True,
      borrows="year")
def month_day(m: re.Match[str], ctx: Context) -> Result:
    return cal.day(date(ctx.today.year, cn_number(m["m"]), cn_number(m["d"])), ctx.tz)


@rule("|".join(DAY_WORDS), relative=True)
def named_day(m: re.Match[str], ctx: Context) -> Result:
    return cal.day(ctx.today + timedelta(days=DAY_WORDS[m.group(0)]), ctx.tz)


_UNITS = {"天": "day", "日": "day", "周": "week", "週": "week", "星期": "week", "礼拜": "week",
          "禮拜": "week", "月": "month", "年": "year", "季度": "quarter"}
_UNIT = r"(?:[个個])?(?P<u>天|日|周|週|星期|礼拜|禮拜|月|年|季度)"


# What can follow N年前 and still be a time of that year: a month (3月, 5月底, 3月20日), a
# part of the year, a holiday or festival, or the same day / month / week (今天, 这个月).
_OF_YEAR = (rf"{N}\s*月份?(?:\s*{N}\s*[日号])?(?:初|上旬|中旬|下旬|底|末)?"
            rf"(?![\d{CN_NUM_CHARS}个個])|"
            r"第?[1-4一二三四]季度|Q[1-4]|[上下]半年|[春夏秋冬](?:天|季)|年(?:初(?!次)|底|末)"
            rf"|{zh_holiday.NAMES}|{zh_lunar.FESTIVAL_NAMES}")
_SAME_DAY = ("当天", "當天", "这一天", "這一天", "这天", "這天", "同一天")
_SAME = ("今天|今日|" + "|".join(_SAME_DAY) + "|这个月|這個月|本月|当月|當月"
         r"|本周末|这个?周末|這個?週末|这个?(?:星期|礼拜|禮拜)|這個?(?:星期|禮拜)|这周|這週"
         r"|本周|本週")


@rule(rf"(?:(?P<n>{N})\s*年\s*{DIRECTION}\s*的?\s*(?P<rest>{_OF_YEAR}|{_SAME})"
      rf"|(?P<ny>{_NAMED_YEAR})\s*的?\s*(?P<same>{_SAME}))", relative=True)
def of_year_back(m: re.Match[str], ctx: Context) -> Result:
    """The time after N年前 / 去年 read with ``now`` moved that many years: 五年前的今天."""
    if m["ny"]:
        years, rest = _YEAR_WORDS[m["ny"]], m["same"]
    else:
        n = cn_number(m["n"])
        if n == 0 or n >= 1000:
            return None
        years, rest = (-n if "前" in m["dir"] else n), m["rest"]
    assert ctx.now is not None  # relative rules run with a ``now``
    moved = cal.shift(ctx.today, "year", years)
    shifted = Context(datetime.combine(moved, ctx.now.timetz()), ctx.tz)
    rest = "今天" if rest in _SAME_DAY else rest
    # The same rules read the rest, first alone (5月底, 今天), then as of "this" year (夏天).
    for text in (rest, "今年" + rest):
        for other in REGISTRY.rules:
            found = other.regex.fullmatch(text) if other.handler is not of_year_back else None
            reading = other.handler(found, shifted) if found else None
            if isinstance(reading, Interval):
                return reading
    return None


# "3月后天" is March and the day after tomorrow, but "四年前天猫" is four years ago: only a
# bare month before 前天 / 后天 / 前年 / 后年 is not an offset.
@rule(rf"(?P<n>{N})\s*{_UNIT}\s*{DIRECTION}(?!(?<=[^个個]月[前后後])[天年])", relative=True)
def units_ago(m: re.Match[str], ctx: Context) -> Result:
    n = cn_number(m["n"])
    if n == 0 or n >= 1000:
        return None
    sign = -1 if "前" in m["dir"] else 1
    unit = _UNITS[m["u"]]
    return cal.unit_interval(cal.shift(ctx.today, unit, sign * n), unit, ctx.tz)


# 后3天 / 后1年 (not after a word: 然后3天) are the next N units, as 未来.
@rule(rf"(?P<w>最近|近|过去|过去的|前|未来|接下来的?|(?<![^\W\d_])[后後])\s*(?P<n>{N})\s*{_UNIT}"
      r"(?:内|里|以来|来)?", relative=True)
def unit_window(m: re.Match[str], ctx: Context) -> Result:
    n, unit = cn_number(m["n"]), _UNITS[m["u"]]
    if n == 0:
        return None
    if m["w"].startswith(("未来", "接下来", "后", "後")):
        start = ctx.today + timedelta(days=1)
        return cal.span(start, cal.shift(start, unit, n), ctx.tz, Granularity.DAY)
    if m["w"] == "前":
        # 前N周 is the N weeks before today, as 后N周 is the N after it.
        return cal.span(cal.shift(ctx.today, unit, -n), ctx.today, ctx.tz, Granularity.DAY)
    return cal.trailing(ctx.today, unit, n, ctx.tz)


@rule(r"(?<!每)(?P<p>上上|上|这|這|本|下下|下)?[个個]?(?:周|週|星期|礼拜|禮拜)(?P<d>[一二三四五六日天1-7]|末)"
      r"|(?P<p2>上上|上|这|這|本|下下|下)[个個]?(?:周|週|星期|礼拜|禮拜)(?![一二三四五六日天1-7末年])",
      relative=True)
def week(m: re.Match[str], ctx: Context) -> Result:
    offset = _WEEK_OFFSET[m["p"] or m["p2"] or "这"]
    monday = cal.week_start(ctx.today) + timedelta(weeks=offset)
    if m["d"] == "末":
        return cal.days(monday + timedelta(days=5), 2, ctx.tz)
    if m["d"]:
        return cal.day(monday + timedelta(days=_WEEKDAY[m["d"]]), ctx.tz)
    return cal.days(monday, 7, ctx.tz, Granularity.WEEK)


_MONTH_OFFSET = {"上上个": -2, "上个": -1, "上個": -1, "上": -1, "下个": 1, "下個": 1, "下": 1,
                 "下下个": 2}


@rule(r"(?P<p>上上个|上个|上個|上|本|这个|這個|这|這|当|下个|下個|下|下下个)月"
      r"(?!份?[\d一二三四五六七八九十])", relative=True)
def month(m: re.Match[str], ctx: Context) -> Result:
    offset = _MONTH_OFFSET.get(m["p"], 0)
    return cal.unit_interval(cal.add_months(ctx.today, offset), "month", ctx.tz)


@rule(_NAMED_YEAR, relative=True)
def named_year(m: re.Match[str], ctx: Context) -> Result:
    y = ctx.today.year + _YEAR_WORDS[m.group(0)]
    return cal.years(y, y, ctx.tz)


@rule(r"(?P<p>上个|上一|上|本|这个|这一|这|下个|下一|下)季度", relative=True)
def quarter(m: re.Match[str], ctx: Context) -> Result:
    offset = -1 if m["p"].startswith("上") else 1 if m["p"].startswith("下") else 0
    return cal.unit_interval(cal.shift(ctx.today, "quarter", offset), "quarter", ctx.tz)


@rule(r"(?<![年\d])(?P<h>上|下|前|后)半(?P<u>年|月)", relative=True)
def half(m: re.Match[str], ctx: Context) -> Result:
    second = m["h"] in "下后"
    if m["u"] == "年":
        return cal.half_year(ctx.today.year, second, ctx.tz)
    # 上半月 is days 1-15, 下半月 the 16th to the month's end.
    first = ctx.today.replace(day=1)
    if second:
        return cal.span(first.replace(day=16), cal.add_months(first, 1), ctx.tz, Granularity.DAY)
    return cal.span(first, first.replace(day=16), ctx.tz, Granularity.DAY)


# A month or day without a year is one of this year (this month): 3月 is March of the
# current year, 29日 the 29th of the current month, as 周二 is this week's Tuesday. A bare
# day needs Arabic digits before 日 or 号 ("十日" is as often "ten days"). 初 / 上旬,
# 中旬, 下旬 / 底 are days 1-10, 11-20 and 21 to the end.
@rule(rf"(?<![年\d{CN_NUM_CHARS}第每同])(?P<m>{N})\s*月份?(?P<p>初|上旬|中旬|下旬|底|末)?"
      rf"(?![\d{CN_NUM_CHARS}个個]|\s*\d)" + _NOT_AFTER_NUMBER, relative=True, borrows="year")
def bare_month(m: re.Match[str], ctx: Context) -> Result:
    month_ = cn_number(m["m"])
    if not 1 <= month_ <= 12:
        return None
    return cal.month_part(ctx.today.year, month_, _MONTH_PARTS.get(m["p"] or ""), ctx.tz)


# 号 also numbers things (嫦娥六号, 3号线): a bare N号 must not follow a word.
@rule(rf"(?<![月\d{CN_NUM_CHARS}第每])(?:(?P<d>\d{{1,2}})\s*日"
      r"|(?:(?<![^\W\d_])|(?<=[在于到至从是的和及或]))"
      rf"(?P<d2>\d{{1,2}}|[{CN_NUM_CHARS}]{{1,3}})号(?![线線楼樓院房机機门門床位]))"
      + _NOT_AFTER_NUMBER, relative=True, borrows="month")
def bare_day(m: re.Match[str], ctx: Context) -> Result:
    day_ = cn_number(m["d"] or m["d2"])
    if not 1 <= day_ <= 31:
        return None
    return cal.day(ctx.today.replace(day=day_), ctx.tz)
