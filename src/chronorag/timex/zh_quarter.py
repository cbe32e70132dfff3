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


def quarter_number(number: str) -> int:
    """A quarter's number: 首季度 is the first."""
    return 1 if number == "首" else cn_number(number)


def first_quarters_of(year: int, n: str, ctx: Context) -> Result:
    """The first ``n`` quarters of ``year``: 前三季度 is January to September."""
    return cal.months(year, 1, 3 * cn_number(n), ctx.tz, Granularity.QUARTER)


# Not the tail of a word (统一季度 is "unified quarterly") nor of a count (三个季度).
@rule(rf"(?<![年\d])第(?P<q>[1-4一二三四])季度|(?<![\w])Q(?P<q2>[1-4])(?:季度)?(?![\w]|\s*\d)"
      rf"|(?<![年\d前第个個统統唯万萬之{CN_NUM_CHARS}])(?P<q3>[1-4一二三四首])季度"
      rf"|(?<![年\d]){FIRST_QUARTERS}",
      relative=True, borrows="year")
def bare_quarter(m: re.Match[str], ctx: Context) -> Result:
    if m["fq"]:
        return first_quarters_of(ctx.today.year, m["fq"], ctx)
    return cal.quarter(ctx.today.year, quarter_number(m["q"] or m["q2"] or m["q3"]), ctx.tz)
