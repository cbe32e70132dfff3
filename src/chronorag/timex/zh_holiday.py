"""Chinese names of Gregorian holidays and of the parts of a named month.

Conventions: a holiday on a fixed Gregorian day (国庆节, 元旦, 圣诞节, 五一) is that day of the
year named before it (2019年国庆节, 明年元旦) or of this year, as a lunar festival without a
year is (``zh_lunar``). 十一 alone is the number eleven, so National Day needs 国庆. The
parts of a named month (本月底, 上个月初, 下月中旬) and 月初 / 月底 alone (of this month) are
days 1-10, 11-20 and 21 to the end, as 3月底 and 2019年3月底 are.
"""

from __future__ import annotations

import re
from datetime import date

from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import BOUNDED_NUMBER as N
from chronorag.timex.numerals import CN_NUM_CHARS, cn_number
from chronorag.timex.rules import Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

_HOLIDAYS = {
    "元旦": (1, 1), "情人节": (2, 14), "情人節": (2, 14), "妇女节": (3, 8), "婦女節": (3, 8),
    "三八妇女节": (3, 8), "植树节": (3, 12), "植樹節": (3, 12), "愚人节": (4, 1), "愚人節": (4, 1),
    "劳动节": (5, 1), "勞動節": (5, 1), "五一劳动节": (5, 1), "五一勞動節": (5, 1), "五一": (5, 1),
    "青年节": (5, 4), "青年節": (5, 4), "五四青年节": (5, 4), "儿童节": (6, 1), "兒童節": (6, 1),
    "六一儿童节": (6, 1), "六一": (6, 1), "建党节": (7, 1), "建黨節": (7, 1), "建军节": (8, 1),
    "建軍節": (8, 1), "八一建军节": (8, 1), "教师节": (9, 10), "教師節": (9, 10),
    "国庆节": (10, 1), "國慶節": (10, 1), "国庆": (10, 1), "國慶": (10, 1), "十一国庆节": (10, 1),
    "万圣节": (10, 31), "萬聖節": (10, 31), "平安夜": (12, 24), "圣诞节": (12, 25),
    "聖誕節": (12, 25), "圣诞": (12, 25), "聖誕": (12, 25),
}
_NAMED_YEAR = {"去年": -1, "今年": 0, "明年": 1, "前年": -2, "后年": 2, "後年": 2}
#: The holidays' names, longest first, for rules that read a holiday after a year.
NAMES = "|".join(sorted(_HOLIDAYS, key=len, reverse=True))


# 五一 / 六一 only stand alone, never inside a longer numeral (十五一, 五一二).
@rule(rf"(?:(?P<y>(?<!\d)\d{{4}})\s*年|(?P<ny>去年|今年|明年|前年|后年|後年))?\s*的?\s*"
      rf"(?<![{CN_NUM_CHARS}])(?P<h>{NAMES})(?![{CN_NUM_CHARS}])", relative=True)
def holiday(m: re.Match[str], ctx: Context) -> Result:
    year = int(m["y"]) if m["y"] else ctx.today.year + _NAMED_YEAR.get(m["ny"] or "", 0)
    month, day = _HOLIDAYS[m["h"]]
    return cal.day(date(year, month, day), ctx.tz)


_MONTH_OFFSET = {"上上个": -2, "上上個": -2, "上个": -1, "上個": -1, "上": -1, "本": 0,
                 "这个": 0, "這個": 0, "这": 0, "這": 0, "当": 0, "當": 0, "下个": 1, "下個": 1,
                 "下": 1, "下下个": 2, "下下個": 2}
_PARTS = {"初": "early", "上旬": "early", "中旬": "mid", "下旬": "late", "底": "late",
          "末": "late"}


@rule(rf"(?:(?P<p>{'|'.join(sorted(_MONTH_OFFSET, key=len, reverse=True))})|"
      rf"(?<![\d{CN_NUM_CHARS}年份个個每正腊臘冬]))月(?P<part>初|上旬|中旬|下旬|底|末)"
      rf"(?![\d{CN_NUM_CHARS}])", relative=True)
def named_month_part(m: re.Match[str], ctx: Context) -> Result:
    first = cal.add_months(ctx.today.replace(day=1), _MONTH_OFFSET.get(m["p"] or "", 0))
    return cal.month_part(first.year, first.month, _PARTS[m["part"]], ctx.tz)


@rule(rf"(?P<y>(?<!\d)\d{{4}})\s*年\s*(?P<m>{N})\s*月份?(?P<part>初|上旬|中旬|下旬|底|末)"
      rf"(?![\d{CN_NUM_CHARS}])")
def year_month_part(m: re.Match[str], ctx: Context) -> Result:
    month_ = cn_number(m["m"])
    if not 1 <= month_ <= 12:
        return None
    return cal.month_part(int(m["y"]), month_, _PARTS[m["part"]], ctx.tz)
