"""Chinese times of day: clock times with their part of the day, clock ranges, parts of a
named day, the clock hour before, of or after now, and references to now (现在, 过去, 将来).

Conventions: a part of the day before a clock time sets its half (下午5点 and 今晚6点 are
17:00 and 18:00; 中午1点 is 13:00; 夜里 is evening only from 6 on, so 夜里2点 is 2 a.m.); a
clock range ends where its second time begins (从下午五点一刻到六点 is [17:15, 18:00)); a part
of a named day is a span of hours (明天上午 is 08:00-12:00 tomorrow).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from chronorag.model import Granularity, Interval
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import BOUNDED_NUMBER as N
from chronorag.timex.numerals import CN_NUM_CHARS, cn_number
from chronorag.timex.rules import Clock, Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

#: Named days and their offset from today (longest first, so 大前天 beats 前天).
DAY_WORDS = {"大前天": -3, "大后天": 3, "前天": -2, "昨天": -1, "昨日": -1, "今天": 0,
             "今日": 0, "明天": 1, "明日": 1, "后天": 2, "今早": 0, "今晚": 0, "昨晚": -1,
             "明早": 1}

_AM_PM = (r"(?P<ap{i}>上午|下午|晚上|早上|早晨|中午|凌晨|傍晚|夜里|夜间|晚间|早间|今晨|晚|早|晨)")
_PM = ("下午", "晚上", "傍晚", "晚间", "晚")
_CLOCK = (r"(?P<h{i}>" + N + r")\s*(?:[点點时時](?:(?P<half{i}>半)|(?P<q{i}>[一三])刻"
          r"|(?P<m{i}>" + N + r")\s*分?)?|[:：](?P<mm{i}>[0-5]\d)(?!\d))")


def _clock_pattern(i: int, *, lead: bool) -> str:
    ap = _AM_PM.replace("{i}", str(i))
    # Without a part of the day a clock needs a day word before it (明天3点) or a 点.
    prefix = rf"(?:{ap}|(?<=[天日号早晚晨]))\s*" if lead else rf"(?:{ap}\s*)?"
    return prefix + _CLOCK.replace("{i}", str(i))


def _clock(m: re.Match[str], i: int, period: str | None) -> Clock | None:
    hour = cn_number(m[f"h{i}"])
    if hour > 24:
        return None
    if (period in _PM or (period in ("夜里", "夜间") and hour >= 6)
            or (period == "中午" and hour < 6)) and hour < 12:
        hour += 12
    minute = (30 if m[f"half{i}"] else 15 * cn_number(m[f"q{i}"]) if m[f"q{i}"]
              else cn_number(m[f"m{i}"]) if m[f"m{i}"] else int(m[f"mm{i}"]) if m[f"mm{i}"]
              else None)
    if minute is not None and minute > 59:
        return None
    return Clock(hour % 24, minute)


# 下午五点一刻到六点: the range ends where the second time begins (18:00), and the second
# time keeps the first one's half of the day unless it names its own. A named day or a
# date before the range is its day (2016年12月15日晚上7:00到8:00).
_DATE = (rf"(?:(?P<y>(?<!\d)\d{{4}})\s*年\s*)?(?<![\d{CN_NUM_CHARS}])(?P<mo>{N})\s*月\s*"
         rf"(?P<dd>{N})\s*[日号號]")


@rule(rf"(?:[从自]\s*)?(?:(?:(?P<day>{'|'.join(DAY_WORDS)})|{_DATE})\s*)?"
      rf"{_clock_pattern(1, lead=False)}"
      rf"\s*(?:到|至|-|–|—|~|～)\s*{_clock_pattern(2, lead=False)}", relative=True,
      kind="range")
def clock_range(m: re.Match[str], ctx: Context) -> Result:
    if re.search(r"[日号天]\s*$", m.string[:m.start()]) and not (m["day"] or m["mo"]):
        return None  # after a date: the day pass joins each time to it
    if not (m["ap1"] or m["day"] or m["mo"] or m["half1"] or m["q1"] or m["m1"]
            or "点" in m.group(0) or "點" in m.group(0)):
        return None  # "3:00-4:00" alone is read by the plain clock rules
    first = _clock(m, 1, m["ap1"])
    second = _clock(m, 2, m["ap2"] or (m["ap1"] if m["ap1"] in _PM else None))
    if first is None or second is None:
        return None
    today = (date(int(m["y"]) if m["y"] else ctx.today.year, cn_number(m["mo"]),
                  cn_number(m["dd"])) if m["mo"]
             else ctx.today + timedelta(days=DAY_WORDS.get(m["day"] or "", 0)))
    start = cal.time_of_day(today, first.hour, first.minute, ctx.tz).start
    end = cal.time_of_day(today, second.hour, second.minute, ctx.tz).start
    if start is None or end is None or not start < end:
        return None
    return Interval(start, end, Granularity.MINUTE)



# A part of a named day (明天上午, 昨天晚上) is its hours; a clock time after it is read by
# the clock rules instead (明天下午5点).
#: Parts of the day and their hours [from, to).
DAY_PARTS = {"凌晨": (0, 6), "早上": (6, 12), "早晨": (6, 12), "上午": (8, 12), "中午": (11, 13),
              "下午": (12, 18), "傍晚": (17, 19), "晚上": (18, 24), "晚间": (18, 24),
              "夜里": (20, 24), "夜间": (20, 24)}


@rule(rf"(?P<day>{'|'.join(DAY_WORDS)})\s*(?P<part>{'|'.join(DAY_PARTS)})"
      rf"(?!\s*[\d{CN_NUM_CHARS}])", relative=True)
def day_part(m: re.Match[str], ctx: Context) -> Result:
    d = ctx.today + timedelta(days=DAY_WORDS[m["day"]])
    lo, hi = DAY_PARTS[m["part"]]
    return cal.hours(d, lo, hi, ctx.tz)


# ---------------------------------------------------------------- times of day
# Without a part of the day a clock needs minutes or 钟 (15时20分, 9点钟): "三点" alone is as
# often "three points".
@rule(rf"(?<![\d{CN_NUM_CHARS}])(?P<h1>{N})\s*[点點时時](?:\s*(?P<m1>{N})\s*分|钟|鐘)", kind="time")
def clock_minutes(m: re.Match[str], ctx: Context) -> Result:
    hour, minute = cn_number(m["h1"]), cn_number(m["m1"]) if m["m1"] else None
    if hour > 24 or (minute is not None and minute > 59):
        return None
    return Clock(hour % 24, minute)


@rule(_clock_pattern(1, lead=True), kind="time")
def clock(m: re.Match[str], ctx: Context) -> Result:
    before = m.string[m.start() - 1] if m.start() else ""
    return _clock(m, 1, m["ap1"] or before)


# A bare N点 is as often "N points" (三点建议): it is a time of day only before a relation
# word, punctuation or the end, and a Chinese numeral also needs a word of place or time
# before it (在十二点之后, 零点); 一点 alone is "a little".
@rule(rf"(?:(?<![\d{CN_NUM_CHARS}.第有这這])(?P<d>\d{{1,2}})|(?:(?<=[在于於到至从從是约約])|^|(?=零))"
      rf"(?P<c>[{CN_NUM_CHARS}]{{1,3}}))\s*[点點]整?(?=\s*(?:$|[，,。!！?？;；、)）]|[之以]?[前后後]"
      r"|左右|到|至|和|与|與|之间|之間|间|間|开始|開始|起|的时候|的時候|时|時))", kind="time")
def bare_clock(m: re.Match[str], ctx: Context) -> Result:
    if m["c"] in ("一", "两", "兩"):
        return None
    hour = cn_number(m["d"] or m["c"])
    return Clock(hour % 24, None) if hour <= 24 else None


# 八点半 / 三点一刻 are times by their minutes, wherever they stand.
@rule(rf"(?<![\d{CN_NUM_CHARS}.第])(?P<h>{N})\s*[点點]\s*(?:(?P<half>半)|(?P<q>[一三])刻)",
      kind="time")
def clock_half(m: re.Match[str], ctx: Context) -> Result:
    hour = cn_number(m["h"])
    minute = 30 if m["half"] else 15 * cn_number(m["q"])
    return Clock(hour % 24, minute) if hour <= 24 else None


# A part of the day alone (上午, 晚上) is those hours of today; before a clock time it is
# read with the clock, after a named day or a date by the rules for those.
@rule(rf"(?<![天日号號早晚今昨明])(?P<part>{'|'.join(DAY_PARTS)})(?!\s*[\d{CN_NUM_CHARS}])",
      relative=True)
def bare_day_part(m: re.Match[str], ctx: Context) -> Result:
    lo, hi = DAY_PARTS[m["part"]]
    return cal.hours(ctx.today, lo, hi, ctx.tz)


# 上个小时 / 这个小时 / 下个小时: the clock hour before, of or after now.
@rule(r"(?P<p>上|这|這|本|下)[个個]?(?:小[时時](?!候)|钟头|鐘頭)", relative=True)
def clock_hour(m: re.Match[str], ctx: Context) -> Result:
    assert ctx.now is not None
    offset = {"上": -1, "下": 1}.get(m["p"], 0)
    at = ctx.now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=offset)
    return cal.time_of_day(at.date(), at.hour, None, ctx.tz)


# References, as English "now" / "the past" / "the future" (kind ``ref``): the present is
# the day of ``now``, the past ``[None, now)``, the future ``[now, None)``. 过去 and 未来
# before a number are windows (过去三天, 过去的三年), and 过去了 is the verb "passed".
_PRESENT_WORDS = "现在|現在|目前|如今|当前|當前|眼下|当下|當下|此刻|现时|現時|马上|馬上"
_PAST_WORDS = rf"近年来?|近年來|近来|近來|(?<![年月天日周週])过去(?![了的\d{CN_NUM_CHARS}个個])"
_FUTURE_WORDS = rf"将来|將來|今后|今後|(?<![年月天日周週])未来(?![的\d{CN_NUM_CHARS}个個])"


@rule(rf"(?P<now>{_PRESENT_WORDS})|(?P<past>{_PAST_WORDS})|{_FUTURE_WORDS}", relative=True,
      kind="ref")
def reference(m: re.Match[str], ctx: Context) -> Result:
    assert ctx.now is not None
    if m["now"]:
        return cal.day(ctx.today, ctx.tz)
    if m["past"]:
        return Interval(None, ctx.now, Granularity.DAY)
    return Interval(ctx.now, None, Granularity.DAY)
