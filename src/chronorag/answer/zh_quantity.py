"""Chinese quantities: a number with the unit a question counts in ("多少公里" → "35公里",
"多少枚金牌" → "48枚金牌"), 不限数量 when the sentence says the counted noun has no
limit, or the first measured number of a sentence."""

from __future__ import annotations

import re

from chronorag.lang import HAN
from chronorag.retrieve.tokenize import word_ends

__all__ = ["ZH_NUMBER", "ZH_TIME_UNITS", "ZH_UNLIMITED", "first_zh_measure", "zh_number"]

# 数千 / 几百 / 上万: "several thousand" is a quantity too.
ZH_NUMBER = (r"(?:\d+(?:\.\d+)?|(?:[数几上](?=[十百千万]))?[零〇一二两三四五六七八九十百千万]+)"
             r"(?:\s*(?:-|–|—|~|～|至|到)\s*(?:\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+))?"
             r"\s*(?:万|亿)?")
_ZH_UNITS = ("兆字节|千字节|字节|[KMGT]i?B|个工作日|工作日|个小时|小时|分钟|个月|平方公里|公里|"
             "千米|厘米|毫米|米|美元|欧元|元|天|日|周|星期|年|岁|人|%|％")
ZH_TIME_UNITS = "个工作日|工作日|个小时|小时|分钟|个月|天|日|周|星期|年"
# Bounds said before a Chinese quantity ("不超过 10 兆字节"), kept with it as English's are.
_ZH_QUALIFIER = r"(?:不超过|不少于|不低于|不高于|至少|最多|超过|少于|多于|高于|低于|高达)?\s*"
_ZH_MEASURED = re.compile(rf"{_ZH_QUALIFIER}({ZH_NUMBER}\s*(?:{_ZH_UNITS})?)")
ZH_UNLIMITED = "不限数量|数量不限|无限数量|无限量|无限|不限"
# Words a question counts in that need the counted noun after them: "48枚" says nothing.
_ZH_CLASSIFIERS = frozenset("枚个名位件项本家座条次种所张辆台")


def zh_number(unit: str, sentence: str) -> str | None:
    """Number + the question's unit: the shortest unit that stands alone (天, 公里), the
    counted noun as well after a classifier (枚金牌)."""
    # A unit is whole words of the question, and so is what it matches in the sentence:
    # "多少公里" is not answered "35公", nor "多少个电子邮箱" by "一个电(话)".
    sizes = sorted(word_ends(unit) - {0}, reverse=unit[:1] in _ZH_CLASSIFIERS)
    unlimited = _unlimited(unit, sizes, sentence)
    if unlimited:
        return unlimited
    ends: set[int] | None = None
    for size in sizes:
        if not re.fullmatch(f"[{HAN}%％]+", unit[:size]):
            continue
        pattern = rf"(?P<count>{ZH_NUMBER}\s*{re.escape(unit[:size])})"
        noun = size == 1 and unit[:1] in _ZH_CLASSIFIERS and len(sizes) > 1
        if noun:
            # The classifier alone counts the question's noun only when that noun follows
            # it, a few words of description between ("50 个随机电子邮箱别名").
            pattern += rf"[{HAN}]{{0,4}}?{re.escape(unit[1:sizes[-2]])}"
        for found in re.finditer(pattern, sentence):
            if noun:  # the count, as the question asks it: "50 个"
                return found.group("count")
            ends = word_ends(sentence) if ends is None else ends
            if found.end() in ends:
                return found.group(0)
    return first_zh_measure(sentence)


def _unlimited(unit: str, sizes: list[int], sentence: str) -> str | None:
    """"不限数量" when the sentence says the asked noun has no limit ("不限数量的电子邮箱
    别名" for 多少个电子邮箱别名): a count without a number."""
    start = 1 if unit[:1] in _ZH_CLASSIFIERS else 0
    first = min((size for size in sizes if size > start), default=None)
    if first is None:
        return None
    # PDF text may break a line inside the noun: its characters may stand apart.
    noun = r"\s*".join(map(re.escape, unit[start:first]))
    found = re.search(rf"({ZH_UNLIMITED})的?\s*{noun}", sentence)
    return found.group(1) if found else None


def first_zh_measure(sentence: str) -> str | None:
    """The first number of ``sentence`` with a unit of measure (or 万 / 亿), its bound said
    before it included; None when it has none."""
    for found in _ZH_MEASURED.finditer(sentence):
        text = found.group(1).strip()
        if not any(c.isdigit() or c in "零〇一二两三四五六七八九十百千万" for c in text[:1]):
            continue
        following = sentence[found.end():found.end() + 1]
        # A year, month or day is a date, not a quantity.
        if re.fullmatch(r"\d{4}年?", text) or following in "月日号-/":
            continue
        if text[-1:] not in "万亿" and not re.search(f"(?:{_ZH_UNITS})$", text):
            continue
        return found.group(0).strip()  # the bound said before it included
    return None
