"""How long a duration span says, in days: "10-14 business days" is 14 at most and 10 at
least, "三个月" 90; what ``answer.shape`` compares when a question asks for the longest or
the shortest of several."""

from __future__ import annotations

import re

from chronorag.timex.numerals import CN_NUM_CHARS, cn_number, en_number

DAYS = {"second": 1 / 86400, "minute": 1 / 1440, "hour": 1 / 24, "day": 1, "night": 1,
        "week": 7, "month": 30, "year": 365, "秒": 1 / 86400, "分钟": 1 / 1440, "小时": 1 / 24,
        "天": 1, "日": 1, "工作日": 1, "周": 7, "星期": 7, "月": 30, "年": 365}
"""Days in each unit a duration is counted in (a month is 30, a year 365)."""


def length_in_days(span: str, *, most: bool) -> float | None:
    """The length of a duration span in days (a range's upper bound for the most, its
    lower bound for the least), or None when its number or unit is not known."""
    unit = next((days for name, days in sorted(DAYS.items(), key=lambda kv: -len(kv[0]))
                 if re.search(rf"{name}s?\b" if name.isascii() else name, span,
                              re.IGNORECASE)), None)
    values = [amount(token) for token in re.findall(
        rf"\d+(?:\.\d+)?|[{CN_NUM_CHARS}]+|[a-z]+", span.lower())]
    known = [v for v in values if v is not None]
    if unit is None or not known:
        return None
    return (max(known) if most else min(known)) * unit


def amount(token: str) -> float | None:
    """The value of a number written in digits, in Chinese numerals or in English words
    ("14", "三", "fourteen"); None for a word that is no number."""
    if token[0].isdigit():
        return float(token)
    if token[0] in CN_NUM_CHARS:
        try:
            return float(cn_number(token))
        except (KeyError, ValueError, IndexError):
            return None
    try:
        return float(en_number(token))
    except (KeyError, ValueError):
        return None
