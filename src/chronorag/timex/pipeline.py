"""Scanners for questions (all rules) and for ingest (absolute rules only)."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime, tzinfo

from chronorag.lang import HAN, KANA
from chronorag.timex import en, en_ago, en_noyear, zh
from chronorag.timex.calendar import Context
from chronorag.timex.engine import (
    Found,
    Scanner,
    anchor_yearless,
    attach_times,
    extend_range_words,
    merge_ranges,
)
from chronorag.timex.numerals import CN_NUM_CHARS
from chronorag.timex.rules import ERA_MARK, FLAGS

log = logging.getLogger(__name__)
_ALL = [*en_ago.REGISTRY.rules, *en.REGISTRY.rules, *en_noyear.REGISTRY.rules, *zh.REGISTRY.rules]
_NUMERALS = rf"[0-9{CN_NUM_CHARS}]"
# Every place an absolute expression can begin (see Scanner): a number, or a word that
# some absolute rule starts with ("the 1990s", "May 6, 2021", "from 1990 to 1995", ...).
_STARTERS = (
    _NUMERALS + r"+|(?:\b|(?<=\d))(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|the"
    r"|from|between|early|mid|middle|late|beginning|start|end|q[1-4]|h[12]|mon|tue|wed|thu|fri|sat|sun"
    r"|spring|summer|autumn|fall|winter|first|second|third|fourth|1st|2nd|3rd|4th|at"
    r"|noon|midday|midnight)|[从自在上下]|" + zh.STARTERS
)
# Era rules begin with these too ("AD 800", "公元前221年", "前221年").
_ERA_STARTERS = r"|(?:\b|(?<=\d))(?:ad\b|a\.d\.)|公元|前(?=\d)"
# Every place any expression can begin, relative ones included: the start of a run of
# letters, every digit, every Han character and every other mark. Rules begin at a word
# or a number, never inside a Latin word, so this skips most positions of English text.
_WORD_STARTS = rf"[{HAN}{KANA}]|(?<![^\W\d_])[^\W\d_]|\d|[^\w\s]"
_scanners: dict[tuple[bool, bool, bool], Scanner] = {}


def scanner(*, absolute_only: bool, eras: bool, word_starts: bool = False) -> Scanner:
    """The (lazily compiled, then cached) scanner; compiling at import would be a side effect.

    Without ``eras`` the era rules are left out: most texts name no era, and those rules
    would otherwise be tried at every number. ``word_starts`` has a scanner of every rule
    try them only where a word, a number or a Han character begins (``_WORD_STARTS``):
    ingest reads long texts with every rule, where trying every position is the cost.
    """
    key = (absolute_only, eras, word_starts and not absolute_only)
    cached = _scanners.get(key)
    if cached is None:
        rules = [r for r in _ALL if not (absolute_only and r.relative) and (eras or not r.era)]
        if absolute_only:
            starters = _STARTERS + (_ERA_STARTERS if eras else "")
            cached = Scanner(rules, starters=re.compile(starters, FLAGS),
                             digits=re.compile(_NUMERALS + "+"), eras=eras)
        elif key[2]:
            cached = Scanner(rules, starters=re.compile(_WORD_STARTS), eras=eras)
        else:
            cached = Scanner(rules, eras=eras)
        _scanners[key] = cached
    return cached


def context(now: datetime | None, tz: tzinfo = UTC) -> Context:
    """A resolution context; a naive ``now`` is read in ``tz``, an aware one converted."""
    if now is None:
        return Context(None, tz)
    if now.tzinfo is None:
        return Context(now.replace(tzinfo=tz), tz)
    try:
        return Context(now.astimezone(tz), tz)
    except OverflowError:
        # On the calendar's first or last day the local date in ``tz`` may not exist
        # (0001-01-01 UTC is year 0 west of Greenwich): keep ``now`` in its own zone.
        log.debug("now %s has no date in %s; reading it in its own zone", now, tz)
        return Context(now, tz)


def find(text: str, ctx: Context, *, word_starts: bool = False) -> list[Found]:
    """Every expression in ``text``: scan, attach times of day, merge ranges
    (``word_starts``: see ``scanner``)."""
    eras = ERA_MARK.search(text) is not None
    found = scanner(absolute_only=ctx.now is None, eras=eras,
                    word_starts=word_starts).scan(text, ctx)
    if not found:
        return found
    found = attach_times(text, found, ctx)
    if ctx.now is not None:
        found = anchor_yearless(text, found, ctx)
    return extend_range_words(text, merge_ranges(text, found))
