"""Scanners for questions (all rules) and for ingest (absolute rules only)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo

from chronorag.timex import en, zh
from chronorag.timex.calendar import Context
from chronorag.timex.engine import Found, Scanner, attach_times, extend_range_words, merge_ranges
from chronorag.timex.numerals import CN_NUM_CHARS
from chronorag.timex.rules import FLAGS

_ALL = [*en.REGISTRY.rules, *zh.REGISTRY.rules]
_NUMERALS = rf"[0-9{CN_NUM_CHARS}]"
# Every place an absolute expression can begin (see Scanner): a number, or a word that
# some absolute rule starts with ("the 1990s", "May 6, 2021", "from 1990 to 1995", ...).
_STARTERS = (
    _NUMERALS + r"+|(?:\b|(?<=\d))(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|the"
    r"|from|between|early|mid|middle|late|beginning|start|end|q[1-4]|h[12]|mon|tue|wed|thu|fri|sat|sun"
    r"|spring|summer|autumn|fall|winter|first|second|third|fourth|1st|2nd|3rd|4th|at"
    r"|noon|midday|midnight)|[从自在上下]"
)
_scanners: dict[bool, Scanner] = {}


def scanner(*, absolute_only: bool) -> Scanner:
    """The (lazily compiled, then cached) scanner; compiling at import would be a side effect."""
    cached = _scanners.get(absolute_only)
    if cached is None:
        rules = [r for r in _ALL if not (absolute_only and r.relative)]
        if absolute_only:
            cached = Scanner(rules, starters=re.compile(_STARTERS, FLAGS),
                             digits=re.compile(_NUMERALS + "+"))
        else:
            cached = Scanner(rules)
        _scanners[absolute_only] = cached
    return cached


def context(now: datetime | None, tz: tzinfo = UTC) -> Context:
    """A resolution context; a naive ``now`` is read in ``tz``, an aware one converted."""
    if now is not None:
        now = now.replace(tzinfo=tz) if now.tzinfo is None else now.astimezone(tz)
    return Context(now, tz)


def find(text: str, ctx: Context) -> list[Found]:
    """Every expression in ``text``: scan, attach times of day, merge ranges."""
    found = scanner(absolute_only=ctx.now is None).scan(text, ctx)
    if not found:
        return found
    found = attach_times(text, found, ctx)
    return extend_range_words(text, merge_ranges(text, found))
