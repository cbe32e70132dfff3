"""Chinese quarters without a year: 第三季度, 三季度, 首季度, Q3, 前三季度.

A bare quarter is one of this year, or of the year before it in its sentence (the rule
borrows the year, see ``engine.anchor_yearless``). 前三季度 is the first three quarters of
the year (news and reports say it so), not the three quarters before today.
"""

from __future__ import annotations

import re

from chronorag.model import Granularity
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.numerals import CN_NUM_CHARS, cn_number
from chronorag.timex.rules import Registry, Result

REGISTRY = Registry()
rule = REGISTRY.rule

FIRST_QUARTERS = r"前(?P<fq>[1-3一二两三])[个個]?季度"
# A quarter after its year (2023年三季度, 今年首季度, 去年Q1季度, 2023年前三季度); read by
# ``quarters_of``.
OF_YEAR = rf"第?(?P<q>[1-4一二三四首])季度|Q(?P<q2>[1-4])(?:季度)?|{FIRST_QUARTERS}"


def quarters_of(year: int, m: re.Match[str], ctx: Context) -> Result:
    """The quarter of ``year`` that ``m`` names (groups ``q``, ``q2``, ``q3``), or its first
    ``fq`` quarters: 前三季度 is January to September; 首季度 is the first."""
    groups = m.groupdict()
    if groups.get("fq"):
        return cal.months(year, 1, 3 * cn_number(groups["fq"]), ctx.tz, Granularity.QUARTER)
    number = groups.get("q") or groups.get("q2") or groups.get("q3")
    if number is None:
        return None
    return cal.quarter(year, 1 if number == "首" else cn_number(number), ctx.tz)


# Not the tail of a word (统一季度 is "unified quarterly") nor of a count (三个季度).
@rule(rf"(?<![年\d])第(?P<q>[1-4一二三四])季度|(?<![\w])Q(?P<q2>[1-4])(?:季度)?(?![\w]|\s*\d)"
      rf"|(?<![年\d前第个個统統唯万萬之{CN_NUM_CHARS}])(?P<q3>[1-4一二三四首])季度"
      rf"|(?<![年\d]){FIRST_QUARTERS}",
      relative=True, borrows="year")
def bare_quarter(m: re.Match[str], ctx: Context) -> Result:
    return quarters_of(ctx.today.year, m, ctx)
