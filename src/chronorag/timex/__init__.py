"""Time expressions in English and Chinese -> half-open intervals.

``parse`` finds every expression of a text, ``parse_one`` reads a whole input as one
expression (relation words allowed: "before 1981" is ``[None, 1981-01-01)``), and
``sentence_mentions`` extracts absolute mentions at ingest, and ``extract`` reports every
expression of running text with its kind (date, time, duration, set, ref), relation and a
TIMEX3-style value. Nothing here reads the clock: relative expressions resolve against the
``now`` the caller passes. Conventions are documented in ``timex.en``, ``timex.zh``,
``timex.calendar``, ``timex.relations`` and ``timex.durations``.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from chronorag.errors import TimeParseError
from chronorag.model import TimeExpression
from chronorag.timex.extract import Extracted, extract
from chronorag.timex.mentions import relative_phrases, sentence_mentions
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import relate

__all__ = ["Extracted", "extract", "parse", "parse_one", "relative_phrases",
           "sentence_mentions"]

_EXAMPLES = ("'2021-05-06', '6 May 2021', 'Q3 2024', 'last week', '3 days ago', "
             "'since 2019', '上周二', '2003年底', '最近三天'")
_TRAILING_CHARS = " \t\n?？.。!！,，"


def parse(text: str, *, now: datetime, tz: tzinfo = UTC) -> list[TimeExpression]:
    """Every time expression in ``text``, in order, non-overlapping, with character spans.

    Ranges ("from 1990 to 1995", "2003年到2005年之间") come back as one expression; relation
    words such as "before" are not part of an expression (see ``parse_one``).
    """
    out = []
    for f in find(text, context(now, tz)):
        if f.interval is not None:
            out.append(TimeExpression(text[f.start:f.end], f.start, f.end, f.interval,
                                      f.relative))
    return out


def parse_one(expression: str, *, now: datetime, tz: tzinfo = UTC) -> TimeExpression:
    """Read all of ``expression`` as one time, e.g. "last Tuesday", "before 1981", "上周二".

    Raises ``TimeParseError`` when the input is not exactly one time expression, or names a
    time the calendar cannot hold ("500 BC", "9999-12", "31 Feb 2023").
    """
    lo = len(expression) - len(expression.lstrip())
    text = expression.strip().rstrip(_TRAILING_CHARS)
    hi = lo + len(text)
    every = find(text, context(now, tz))
    unheld = [f for f in every if f.skipped]
    if unheld:
        raise TimeParseError(f"{text[unheld[0].start:unheld[0].end]!r} is an impossible date "
                             f"or outside the calendar (AD 1 to 9999): {unheld[0].reason}")
    found = [f for f in every if f.interval is not None]
    if not found:
        raise TimeParseError(f"could not read {expression.strip()!r} as a time; "
                             f"try forms like {_EXAMPLES}")
    if len(found) > 1:
        parts = ", ".join(repr(text[f.start:f.end]) for f in found)
        raise TimeParseError(f"{expression.strip()!r} holds several times ({parts}); "
                             "give one expression, or a range like 'from 2019 to 2021'")
    related = relate(text, found[0])
    if related.start != 0 or related.end != len(text):
        leftover = (text[:related.start] + " … " + text[related.end:]).strip(" …")
        raise TimeParseError(f"could not read {leftover!r} in {expression.strip()!r}; "
                             f"try forms like {_EXAMPLES}")
    return TimeExpression(text, lo, hi, related.interval, found[0].relative)
