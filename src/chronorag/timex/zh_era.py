"""Chinese era years, centuries and decades: 民国三年, 康熙三年, 20世纪90年代, 90年代, 19世纪末.

Conventions: 民国N年 and Qing reign years count from the era's first year (民国三年 = 1914);
"90年代" is the 1990s and two-digit decades up to 20 are of this century; 初 / 中 / 末 are a
period's first / middle / last third, as for years.
"""

from __future__ import annotations

import re
from datetime import date

from chronorag.model import Granularity
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import BOUNDED_NUMBER as N
from chronorag.timex.numerals import CN_NUM_CHARS, cn_number
from chronorag.timex.rules import Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule
_PARTS = {"初": "early", "中": "mid", "底": "late", "末": "late"}


# Era years: 民国N年 counts from 1912 (民国元年), a Qing reign from its first year (康熙三年 is
# 1664); a month and day may follow. The table holds each era's first year.
_ERA_FIRST_YEAR = {"民国": 1912, "民國": 1912, "康熙": 1662, "雍正": 1723, "乾隆": 1736,
                   "嘉庆": 1796, "嘉慶": 1796, "道光": 1821, "咸丰": 1851, "咸豐": 1851,
                   "同治": 1862, "光绪": 1875, "光緒": 1875, "宣统": 1909, "宣統": 1909}
_ERAS = "|".join(_ERA_FIRST_YEAR)
#: Where an era year can begin, for the ingest scanner's starting points.
STARTERS = _ERAS


@rule(rf"(?P<e>{_ERAS})\s*(?P<y>元|{N})\s*年"
      rf"(?:\s*(?P<m>{N})\s*月(?:\s*(?P<d>{N})\s*[日号])?)?")
def era_year(m: re.Match[str], ctx: Context) -> Result:
    year = _ERA_FIRST_YEAR[m["e"]] - 1 + (1 if m["y"] == "元" else cn_number(m["y"]))
    if m["d"]:
        return cal.day(date(year, cn_number(m["m"]), cn_number(m["d"])), ctx.tz)
    if m["m"]:
        return cal.month(year, cn_number(m["m"]), ctx.tz)
    return cal.years(year, year, ctx.tz)


_CENTURY = (rf"(?:公元\s*)?(?<![\d{CN_NUM_CHARS}])(?P<c>\d{{1,2}}|[一二]?十[一二三四五六七八九]?"
            r"|[一二三四五六七八九])")
_DECADE = r"(?P<d>[1-9]0|[一二三四五六七八九]十|00|零零)"


@rule(_CENTURY + r"\s*世纪\s*" + _DECADE + r"\s*年代(?P<p>初|中|末)?期?")
def century_decade(m: re.Match[str], ctx: Context) -> Result:
    first = (cn_number(m["c"]) - 1) * 100 + (0 if m["d"] in ("00", "零零") else cn_number(m["d"]))
    return cal.decade(first, ctx.tz, _PARTS[m["p"]] if m["p"] else None)


@rule(rf"(?:(?<!\d)(?P<y>1\d{{2}}0|20\d0|[1-9]0)|(?<![{CN_NUM_CHARS}纪])(?P<cy>[一二三四五六七八九]?十))"
      r"\s*年代(?P<p>初|中|末)?期?")
def decade(m: re.Match[str], ctx: Context) -> Result:
    value = int(m["y"]) if m["y"] else cn_number(m["cy"])
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
