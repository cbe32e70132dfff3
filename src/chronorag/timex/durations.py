"""Durations and sets (recurring times) in English and Chinese, with TIMEX3-style values.

"three years" is ``P3Y``, "for two weeks" ``P2W``, "a decade" ``P10Y``, "several months"
``PXM`` (an unknown count), "一年半" ``P1.5Y``; "every Monday" / 每周一 is the set
``XXXX-WXX-1``, "weekly" / 每周 ``P1W``. Neither names a place on the time line, so they
are kept out of ``parse`` (question constraints) and of ingest mentions on purpose: only
``extract`` reports them. A duration that is part of a date ("three years ago", "三天前")
is left to the date rules, which ``extract`` runs first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chronorag.timex.numerals import CN_NUM_CHARS, EN_NUMBER, cn_number, en_number


@dataclass(frozen=True)
class Span:
    """A duration or set found in text: offsets, kind ("duration" or "set") and value."""

    start: int
    end: int
    kind: str
    value: str


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_EN_UNIT = {"year": "Y", "month": "M", "week": "W", "day": "D", "decade": "DE",
            "century": "CE", "quarter": "Q", "hour": "H", "minute": "MIN", "second": "S"}
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# A modifier ("about", "more than") is part of the expression, as in TimeML.
_EN_MOD = (r"(?:(?:about|around|at least|at most|more than|less than|nearly|almost|roughly"
           r"|approximately|over|under|up to|only|just)\s+)?")
_EN_DURATION = re.compile(
    rf"\b(?<![\d.,]){_EN_MOD}(?P<n>half an?|\d+\.\d+|{EN_NUMBER}|several|a few|few|many"
    r"|some)"
    r"(?:[- ](?P<half>and a half)|\s+(?P<frac>1/2))?"
    r"(?P<sep>[- ])(?:more[- ]|full[- ]|straight[- ])?"
    r"(?P<u>years?|months?|weeks?|days?|decades?|centur(?:y|ies)|quarters?|hours?|minutes?"
    r"|seconds?)\b(?P<half2>\s+and\s+a\s+half\b)?"
    r"(?!\s+(?:ago|earlier|from now|hence|old)\b)(?!-(?:old|earlier|ago)\b)",
    re.IGNORECASE)
# A bare plural after "for" or "within" is an unknown count: "for years" is PXY, "within
# weeks" PXW.
_EN_BARE = re.compile(r"(?:(?<=\bfor )|(?<=\bwithin ))"
                      r"(?P<u>years|months|weeks|days|decades|hours|minutes)\b"
                      r"(?!\s+(?:ago|later|earlier|of|to come)\b)", re.IGNORECASE)
_EN_SET = re.compile(
    r"\b(?:(?P<q>every|each)\s+(?:(?P<other>other)\s+)?(?P<u>year|month|week|day|morning"
    r"|evening|night|hour|quarter|" + "|".join(_DAYS) + r"|" + "|".join(_MONTHS) + r")"
    r"|(?P<adv>annually|daily|weekly|monthly|yearly|hourly|nightly|quarterly(?!\s+[a-z])))\b",
    re.IGNORECASE)
# "quarterly" before a lower-case word is the financial adjective ("quarterly dividend",
# "quarterly loss"), which TimeML leaves untagged; "daily" and "weekly" are tagged either way.
_ADVERB = {"daily": "P1D", "weekly": "P1W", "monthly": "P1M", "yearly": "P1Y",
           "annually": "P1Y", "quarterly": "P1Q", "hourly": "PT1H", "nightly": "P1D"}
_CN = rf"[0-9{CN_NUM_CHARS}]+"
_ZH_UNIT = {"年": "Y", "个月": "M", "月": "M", "周": "W", "星期": "W", "礼拜": "W", "禮拜": "W",
            "週": "W", "天": "D", "日": "D", "小时": "H", "小時": "H", "钟头": "H", "分钟": "MIN",
            "秒钟": "S", "秒": "S", "季度": "Q", "世纪": "CE"}
# 年 after four digits or a leading zero is a year ("2013年", "08年"), and 月 / 日 right after
# a number name a month or a day ("3月", "29日"): only 个月 and 天 are counted.
_ZH_DURATION = re.compile(
    rf"(?<![0-9.{CN_NUM_CHARS}第每])(?P<n>(?!0)[0-9]{{1,3}}(?:\.[0-9]+)?(?![0-9])"
    rf"|[{CN_NUM_CHARS}]+|半)"
    r"(?P<more>多)?\s?(?P<u>年|[个個](?P<mid>半)?(?:月|星期|礼拜|禮拜|小时|小時|钟头|季度|世纪)"
    r"|(?:星期|礼拜|禮拜|周|週)"
    r"(?![一二三四五六日天末])|天|小时|小時|钟头|分钟|秒钟|季度)(?P<half>半)?多?"
    r"(?![前后後以来間间级級底初中末])")
_ZH_SET = re.compile(
    r"每(?:(?P<wk>周|週|星期|礼拜|禮拜)(?P<d>[一二三四五六日天])?|(?P<u>天|日|年|月|小时|季度|个月"
    r"|早|晚))")
_ZH_WEEKDAY = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7}
_ZH_SET_UNIT = {"天": "P1D", "日": "P1D", "早": "P1D", "晚": "P1D", "年": "P1Y", "月": "P1M",
                "个月": "P1M", "小时": "PT1H", "季度": "P1Q"}


_SMALLER = {"Y": ("M", 6), "H": ("M", 30), "MIN": ("S", 30), "D": ("H", 12)}


def _period(count: str, unit: str) -> str:
    """ISO 8601 period text: a time unit goes after "T" ("PT3H"); a half goes down one unit
    as TIMEX3 writes it ("P2Y6M", "PT5H30M", "P1DT12H")."""
    if unit == "DE":
        count, unit = _times(count, 10), "Y"
    elif unit == "CE":
        count, unit = _times(count, 100), "Y"
    whole, dot, rest = count.partition(".")
    if dot == "." and rest == "5" and unit in _SMALLER:
        small, amount = _SMALLER[unit]
        head = "" if whole == "0" else whole + ("M" if unit == "MIN" else unit)
        if unit == "Y":
            return f"P{head}{amount}{small}"
        if unit == "D":
            return f"P{head}T{amount}{small}" if head else f"PT{amount}{small}"
        return f"PT{head}{amount}{small}"
    if unit in ("H", "MIN", "S"):
        return f"PT{count}{'M' if unit == 'MIN' else unit}"
    return f"P{count}{unit}"


def _times(count: str, factor: int) -> str:
    if count == "X":
        return "X"
    value = float(count) * factor
    return str(int(value)) if float(value).is_integer() else str(value)


def _en_count(word: str, half: bool) -> str:
    low = word.lower()
    if low in ("several", "a few", "few", "many", "some"):
        return "X"
    if low.startswith("half"):
        return "0.5"
    if "." in low:
        return _number(float(low) + (0.5 if half else 0))
    number = en_number(low) + (0.5 if half else 0)
    return str(number)


def _zh_count(word: str, half: bool, more: bool) -> str:
    if more:
        return "X"
    if word == "半":
        return "0.5"
    number = float(word) if "." in word else cn_number(word)
    return _number(number + (0.5 if half else 0))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _en(text: str) -> list[Span]:
    out = []
    for m in _EN_DURATION.finditer(text):
        word = m["u"].lower()
        if ((word.startswith("quarter") and m["sep"] == "-")  # "three-quarters": a fraction
                or (word == "second" and m["n"].lower() in ("a", "an"))):  # "a second term"
            continue
        unit = _EN_UNIT[word.rstrip("s").replace("centurie", "century")]
        half = m["half"] is not None or m["frac"] is not None or m["half2"] is not None
        try:
            count = _en_count(m["n"], half)
        except ValueError:
            continue
        out.append(Span(m.start(), m.end(), "duration", _period(count, unit)))
    for m in _EN_BARE.finditer(text):
        unit = _EN_UNIT[m["u"].lower().rstrip("s")]
        out.append(Span(m.start(), m.end(), "duration", _period("X", unit)))
    for m in _EN_SET.finditer(text):
        out.append(Span(m.start(), m.end(), "set", _en_set_value(m)))
    return out


def _en_set_value(m: re.Match[str]) -> str:
    if m["adv"]:
        return _ADVERB[m["adv"].lower()]
    unit = m["u"].lower()
    step = "2" if m["other"] else "1"
    if unit in _DAYS:
        return f"XXXX-WXX-{_DAYS.index(unit) + 1}"
    if unit in _MONTHS:  # "each July" is every year's July
        return f"XXXX-{_MONTHS.index(unit) + 1:02d}"
    if unit in ("morning", "evening", "night"):
        return f"P{step}D"
    return _period(step, _EN_UNIT[unit])


def _zh_parts(text: str) -> list[tuple[int, int, list[tuple[str, str]]]]:
    """Chinese durations as (start, end, [(count, unit)]); "8天又二十个小时", "两天又一个月"
    and "8天20时" are one duration of several parts."""
    out: list[tuple[int, int, list[tuple[str, str]]]] = []
    for m in _ZH_DURATION.finditer(text):
        unit = m["u"].lstrip("个個半").strip()
        half = m["half"] is not None or m["mid"] is not None
        part = (_zh_count(m["n"], half, m["more"] is not None), _ZH_UNIT.get(unit, "M"))
        if out and _ZH_JOIN.fullmatch(text, out[-1][1], m.start()):
            start, _, parts = out.pop()
            out.append((start, m.end(), [*parts, part]))
        else:
            out.append((m.start(), m.end(), [part]))
    for i, (start, end, parts) in enumerate(out):
        tail = _ZH_TAIL.match(text, end)
        if tail is not None:  # "20时" alone is a clock time; after a duration, hours
            code = {"时": "H", "分": "MIN", "秒": "S"}[tail["u"]]
            out[i] = (start, tail.end(), [*parts, (_zh_count(tail["n"], False, False), code)])
    return out


_ZH_JOIN = re.compile(r"[又零]?")
_ZH_TAIL = re.compile(rf"[又零]?(?P<n>[0-9]{{1,2}}|[{CN_NUM_CHARS}]+)(?P<u>[时分秒])(?![间候期])")
_ZH_ORDER = ("Y", "Q", "M", "W", "D", "H", "MIN", "S")


def _zh_value(parts: list[tuple[str, str]]) -> str:
    """The spec's value: decimals kept ("P1.5Y"), largest unit first ("P1M2D", "P8DT20H")."""
    total: dict[str, str] = {}
    for count, unit in parts:
        if unit == "CE":
            count, unit = _times(count, 100), "Y"
        total[unit] = count if unit not in total else _add(total[unit], count)
    date = "".join(f"{total[u]}{u}" for u in _ZH_ORDER[:5] if u in total)
    clock = "".join(f"{total[u]}{'M' if u == 'MIN' else u}" for u in _ZH_ORDER[5:] if u in total)
    return "P" + date + ("T" + clock if clock else "")


def _add(a: str, b: str) -> str:
    return "X" if "X" in (a, b) else _number(float(a) + float(b))


def _zh(text: str) -> list[Span]:
    out = [Span(start, end, "duration", _zh_value(parts))
           for start, end, parts in _zh_parts(text)]
    for m in _ZH_SET.finditer(text):
        if m["wk"]:
            value = f"XXXX-WXX-{_ZH_WEEKDAY[m['d']]}" if m["d"] else "P1W"
        else:
            value = _ZH_SET_UNIT[m["u"]]
        out.append(Span(m.start(), m.end(), "set", value))
    return out


def durations_and_sets(text: str) -> list[Span]:
    """Every duration and set of ``text``, in order and non-overlapping (earliest, then longest,
    wins)."""
    spans = sorted(_en(text) + _zh(text), key=lambda s: (s.start, -s.end))
    out: list[Span] = []
    for span in spans:
        if not out or span.start >= out[-1].end:
            out.append(span)
    return out
