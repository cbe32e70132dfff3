"""Chinese month ranges, parts of a dated day, weekdays of a month and offsets from now.

Conventions:

* A range of months without a year (三月到九月, 三月和九月之间) is of this year; when the
  second month comes before the first (8月至2月) the range runs into the next year, since a
  range never runs backwards. 和 / 与 joins a range only with 之间 / 间 after it or 从 / 在
  before it ("3月和9月" alone names two months).
* A part of the day after a date or a weekday (7月25日早间, 2019年3月1日晚上, 下周一上午) is
  those hours of that day, as 明天上午 is of tomorrow (hours in ``zh_clock.DAY_PARTS``); 今晚
  and 明早 alone are the evening and the morning.
* A weekday written after a date in apposition (10月12号，星期一) belongs to the date: the
  date alone is read.
* 四月的最后一个星期一 / 十月的第二个周五 are that weekday of that month (this year's month
  without a year).
* 上个半年 / 下个半年 are the half-year before / after the current one (上半年 alone is the
  first half of this year, in ``zh``).
* N分钟前 / 3小时后 are the moment that far from now; 之后5分钟 / 接下来两小时 the span from
  now, 过去5分钟 / 最近一小时 the span up to now.
* A clock time with seconds (17点55分23秒) is that second of today.
* yy-mm-dd next to Chinese text is year first (12-11-10 is 2012-11-10).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from chronorag.lang import HAN
from chronorag.model import Granularity, Interval
from chronorag.timex import calendar as cal
from chronorag.timex import zh_holiday
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import BOUNDED_NUMBER as N
from chronorag.timex.numerals import CN_NUM_CHARS, cn_number
from chronorag.timex.rules import Registry, Result
from chronorag.timex.zh_clock import DAY_PARTS

REGISTRY = Registry()
# Holidays and parts of named months (本月底) first: 本月 alone is read by ``zh``.
REGISTRY.rules.extend(zh_holiday.REGISTRY.rules)
#: Before or after now, after an amount: 3天前, 两小时之后.
DIRECTION = r"(?P<dir>以前|之前|前|以后|之后|后|以後|之後|後)"
rule = REGISTRY.rule

_MONTH = rf"(?<![年\d{CN_NUM_CHARS}第每])(?P<m1>{N})\s*月份?"
_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6,
             "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}
_WEEK_WORD = r"(?:星期|周|週|礼拜|禮拜)"
_DATE = (rf"(?:(?P<y>(?<!\d)\d{{4}})\s*年\s*)?(?<![\d{CN_NUM_CHARS}])(?P<m>{N})\s*月\s*"
         rf"(?P<d>{N})\s*[日号號]")


def _month_day(m: re.Match[str], ctx: Context) -> date:
    year = int(m["y"]) if m["y"] else ctx.today.year
    return date(year, cn_number(m["m"]), cn_number(m["d"]))


@rule(rf"(?P<pre>[从自在]\s*)?{_MONTH}\s*(?P<c>到|至|-|–|—|~|～|和|与|與)\s*"
      rf"(?P<m2>{N})\s*月份?(?![\d{CN_NUM_CHARS}个個])(?P<suf>\s*(?:之间|之間|间|間))?",
      relative=True, kind="range")
def month_range(m: re.Match[str], ctx: Context) -> Result:
    if m["c"] in "和与與" and not (m["pre"] or m["suf"]):
        return None
    first, last = cn_number(m["m1"]), cn_number(m["m2"])
    if not (1 <= first <= 12 and 1 <= last <= 12) or first == last:
        return None
    start = date(ctx.today.year, first, 1)
    end = cal.add_months(date(ctx.today.year + (last < first), last, 1), 1)
    return cal.span(start, end, ctx.tz, Granularity.MONTH)


# 早间 is the working morning, as 上午 (the spec reads both as TIMEX3 "MO").
_PARTS = {**DAY_PARTS, "早间": DAY_PARTS["上午"], "早間": DAY_PARTS["上午"]}


@rule(rf"{_DATE}\s*(?P<part>{'|'.join(sorted(_PARTS, key=len, reverse=True))})"
      rf"(?!\s*[\d{CN_NUM_CHARS}])", relative=True)
def date_part_of_day(m: re.Match[str], ctx: Context) -> Result:
    d = _month_day(m, ctx)
    lo, hi = _PARTS[m["part"]]
    return cal.hours(d, lo, hi, ctx.tz)


# 今晚 / 昨晚 / 明早 / 今晨 alone are the evening or morning of that day; with a clock time
# after them (今晚8点) the clock rules read them.
@rule(rf"(?P<d>今|昨|明)(?P<p>晚|早|晨)上?(?![\d{CN_NUM_CHARS}]|\s*\d)", relative=True)
def named_day_part(m: re.Match[str], ctx: Context) -> Result:
    d = ctx.today + timedelta(days={"今": 0, "昨": -1, "明": 1}[m["d"]])
    lo, hi = DAY_PARTS["晚上" if m["p"] == "晚" else "早上"]
    return cal.hours(d, lo, hi, ctx.tz)


_WEEK_OFFSET = {"上上": -2, "上": -1, "这": 0, "這": 0, "本": 0, "下": 1, "下下": 2}


@rule(rf"(?<!每)(?P<p>上上|上|这|這|本|下下|下)?[个個]?{_WEEK_WORD}(?P<wd>[一二三四五六日天1-7])"
      rf"\s*(?P<part>{'|'.join(sorted(_PARTS, key=len, reverse=True))})(?!\s*[\d{CN_NUM_CHARS}])",
      relative=True)
def weekday_part_of_day(m: re.Match[str], ctx: Context) -> Result:
    monday = cal.week_start(ctx.today) + timedelta(weeks=_WEEK_OFFSET[m["p"] or "这"])
    d = monday + timedelta(days=_WEEKDAYS[m["wd"]])
    lo, hi = _PARTS[m["part"]]
    return cal.hours(d, lo, hi, ctx.tz)


@rule(rf"{_DATE}\s*[，,、]?\s*[(（]?{_WEEK_WORD}[一二三四五六日天1-7][)）]?(?![\d{CN_NUM_CHARS}])",
      relative=True)
def date_with_weekday(m: re.Match[str], ctx: Context) -> Result:
    return cal.day(_month_day(m, ctx), ctx.tz)


@rule(rf"{_MONTH}\s*的?\s*(?:(?P<last>最后|最後)|第(?P<n>[1-5一二三四五]))\s*一?[个個]?\s*"
      rf"{_WEEK_WORD}(?P<wd>[一二三四五六日天1-7])", relative=True)
def month_weekday(m: re.Match[str], ctx: Context) -> Result:
    month_ = cn_number(m["m1"])
    if not 1 <= month_ <= 12:
        return None
    first = date(ctx.today.year, month_, 1)
    weekday = _WEEKDAYS[m["wd"]]
    if m["last"]:
        last = cal.add_months(first, 1) - timedelta(days=1)
        return cal.day(last - timedelta(days=(last.weekday() - weekday) % 7), ctx.tz)
    d = first + timedelta(days=(weekday - first.weekday()) % 7, weeks=cn_number(m["n"]) - 1)
    if d.month != month_:
        raise ValueError(f"{month_}月 has no such weekday")
    return cal.day(d, ctx.tz)


@rule(r"(?P<p>上|下)一?[个個]半年", relative=True)
def other_half_year(m: re.Match[str], ctx: Context) -> Result:
    second_now = ctx.today.month > 6
    year, second = ctx.today.year, not second_now
    if m["p"] == "上" and not second_now:
        year -= 1
    elif m["p"] == "下" and second_now:
        year += 1
    return cal.half_year(year, second, ctx.tz)


_CLOCK_UNITS = {"秒": "seconds", "秒钟": "seconds", "秒鐘": "seconds", "分钟": "minutes",
                "分鐘": "minutes", "小时": "hours", "小時": "hours", "钟头": "hours",
                "鐘頭": "hours"}
_CLOCK_UNIT = r"(?P<u>秒钟|秒鐘|秒|分钟|分鐘|[个個]?(?:小时|小時|钟头|鐘頭))"


# 一个半小时 is one and a half hours.
_AMOUNT = rf"(?P<n>{N}|半)(?P<half>\s*[个個]半)?"


def _delta(m: re.Match[str]) -> timedelta | None:
    n = 0.5 if m["n"] == "半" else cn_number(m["n"]) + (0.5 if m["half"] else 0)
    if n == 0 or n >= 10000:
        return None
    return timedelta(**{_CLOCK_UNITS[m["u"].lstrip("个個")]: n})


@rule(rf"{_AMOUNT}\s*{_CLOCK_UNIT}\s*{DIRECTION}"
      r"(?![天年])", relative=True)
def clock_offset(m: re.Match[str], ctx: Context) -> Result:
    assert ctx.now is not None
    delta = _delta(m)
    if delta is None:
        return None
    at = ctx.now + (-delta if "前" in m["dir"] else delta)
    return Interval(at, at + timedelta(minutes=1), Granularity.MINUTE)


# 半年前 / 一年半前 are the month that far away, as 三个月前 is; 一个半月后 is the day (half a
# month is 15 days: no calendar unit holds it).
@rule(rf"(?:(?P<ny>{N})\s*年半|(?P<n>{N})?\s*[个個]?半[个個]?(?P<u>年|月))\s*"
      rf"{DIRECTION}(?![天年])", relative=True)
def half_unit_ago(m: re.Match[str], ctx: Context) -> Result:
    sign = -1 if "前" in m["dir"] else 1
    if m["ny"] or m["u"] == "年":
        months = 12 * cn_number(m["ny"] or m["n"] or "0") + 6
        return cal.unit_interval(cal.add_months(ctx.today, sign * months), "month", ctx.tz)
    moved = cal.add_months(ctx.today, sign * cn_number(m["n"] or "0"))
    return cal.day(moved + timedelta(days=15 * sign), ctx.tz)


# 过去5分钟 / 最近一小时 end now, as 之后5分钟 / 今后两小时 / 还剩5分钟 (the time left) start
# now.
@rule(rf"(?:(?<![然此随隨])(?P<fw>之后|之後|以后|以後|接下来|接下來|未来|未來|今后|今後"
      r"|还剩|還剩|还有|還有|剩下|剩余|剩餘)"
      rf"|(?P<bw>过去|過去|最近|(?<![最接附])近))的?\s*{_AMOUNT}\s*{_CLOCK_UNIT}(?:内|內|里|裡)?",
      relative=True)
def clock_window(m: re.Match[str], ctx: Context) -> Result:
    assert ctx.now is not None
    delta = _delta(m)
    if delta is None:
        return None
    if m["bw"]:
        return Interval(ctx.now - delta, ctx.now, Granularity.MINUTE)
    return Interval(ctx.now, ctx.now + delta, Granularity.MINUTE)


@rule(rf"(?<![\d{CN_NUM_CHARS}])(?P<h>{N})\s*[点點时時]\s*(?P<mi>{N})\s*分\s*(?P<s>{N})\s*秒",
      relative=True)
def clock_seconds(m: re.Match[str], ctx: Context) -> Result:
    hour, minute, second = cn_number(m["h"]), cn_number(m["mi"]), cn_number(m["s"])
    if hour > 23 or minute > 59 or second > 59:
        return None
    start = cal.at(ctx.today, ctx.tz, hour, minute).replace(second=second)
    return Interval(start, start + timedelta(seconds=1), Granularity.SECOND)


# Chinese writes dates year first, so yy-mm-dd next to Chinese text (你12-11-10有时间吗) is
# 2012-11-10; the year is 20yy unless that is over ten years ahead, as for 08年.
@rule(rf"(?:(?<=[{HAN}])(?P<y>\d\d)-(?P<m>\d{{1,2}})-(?P<d>\d{{1,2}})(?![\d\-/.:])"
      rf"|(?<![\d\-/.:])(?P<y2>\d\d)-(?P<m2>\d{{1,2}})-(?P<d2>\d{{1,2}})(?=[{HAN}]))",
      relative=True)
def short_numeric_date(m: re.Match[str], ctx: Context) -> Result:
    yy = int(m["y"] or m["y2"])
    year = 2000 + yy if 2000 + yy <= ctx.today.year + 10 else 1900 + yy
    month_, day_ = int(m["m"] or m["m2"]), int(m["d"] or m["d2"])
    if not (1 <= month_ <= 12 and 1 <= day_ <= 31):
        return None
    return cal.day(date(year, month_, day_), ctx.tz)
