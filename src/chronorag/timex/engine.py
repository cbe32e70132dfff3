"""The scanner: one compiled alternation of every rule, then merging passes.

Scanning is leftmost-first: at each position the first rule (in registry order) that
matches wins; if its handler rejects the match (an impossible date, a too-wide year range),
the following rules are tried at the same position. Afterwards, adjacent expressions are
merged: a time of day joins its day ("yesterday at 3pm", "昨天下午3点") and two expressions
joined by "to", "–", "and" (after "between"), 到, 至 become one range.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from chronorag.model import Granularity, Interval
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.rules import FLAGS, Clock, Rule

_NAMED_GROUP = re.compile(r"\(\?P<\w+>")
_PLAIN_GROUP = re.compile(r"(?<!\\)\((?!\?)")


@dataclass(frozen=True)
class Found:
    """An expression found by the scanner; ``interval`` is None for a lone time of day."""

    start: int
    end: int
    interval: Interval | None
    relative: bool
    kind: str
    clock: Clock | None = None


def _anonymous(pattern: str) -> str:
    """The pattern with every group made non-capturing, so only the outer wrappers count."""
    return _PLAIN_GROUP.sub("(?:", _NAMED_GROUP.sub("(?:", pattern))


class Scanner:
    """Finds non-overlapping expressions of a fixed rule list in one regex pass.

    With ``starters`` (a regex of every place an expression may begin) the scanner only
    tries the combined regex at those places, and only when a digit follows within
    ``reach`` characters: much faster on long texts where most positions cannot start a
    time. This needs every rule to contain a digit or numeral, as absolute rules do.
    """

    def __init__(self, rules: Sequence[Rule], *, starters: re.Pattern[str] | None = None,
                 digits: re.Pattern[str] | None = None, reach: int = 45) -> None:
        self.rules = tuple(rules)
        combined = "|".join(f"({_anonymous(r.pattern)})" for r in self.rules)
        self.regex = re.compile(combined, FLAGS)
        self.starters, self.digits, self.reach = starters, digits, reach

    def scan(self, text: str, ctx: Context) -> list[Found]:
        """Raw expressions of ``text`` in order, before merging."""
        if self.starters is not None and self.digits is not None:
            return self._scan_anchored(text, ctx, self.starters, self.digits)
        found: list[Found] = []
        pos = 0
        search = self.regex.search
        while pos < len(text):
            m = search(text, pos)
            if m is None:
                break
            hit = self._resolve(text, m.start(), (m.lastindex or 1) - 1, ctx)
            if hit is None:
                pos = m.start() + 1
            else:
                found.append(hit)
                pos = hit.end
        return found

    def _scan_anchored(self, text: str, ctx: Context, starters: re.Pattern[str],
                       digits: re.Pattern[str]) -> list[Found]:
        # Walk the numbers; for each, try the starters in the ``reach`` characters before it
        # (and the number itself) that no earlier number has already tried.
        found: list[Found] = []
        pos = tried = 0
        match, reach = self.regex.match, self.reach
        for number in digits.finditer(text):
            at = number.start()
            if at < pos:
                continue
            for candidate in starters.finditer(text, max(pos, tried, at - reach), at + 1):
                start = candidate.start()
                m = match(text, start)
                if m is None:
                    continue
                hit = self._resolve(text, start, (m.lastindex or 1) - 1, ctx)
                if hit is not None:
                    found.append(hit)
                    pos = hit.end
                    break
            tried = at + 1
        return found

    def _resolve(self, text: str, pos: int, first: int, ctx: Context) -> Found | None:
        for rule in self.rules[first:]:
            m = rule.regex.match(text, pos)
            if m is None or m.end() == pos:
                continue
            result = rule.handler(m, ctx)
            if result is None:
                continue
            if isinstance(result, Clock):
                return Found(pos, m.end(), None, rule.relative, "time", result)
            return Found(pos, m.end(), result, rule.relative, rule.kind)
        return None


# ---------------------------------------------------------------- merging passes
_TIME_AFTER_DAY = re.compile(r"\s*(?:,|at|,\s*at|的)?\s*", FLAGS)
_DAY_AFTER_TIME = re.compile(r"\s*(?:on|,)?\s*", FLAGS)
_CONNECTOR = re.compile(
    r"\s*(?:-|–|—|~|～|to|until|till|through|thru|and|至|到|和|与|或)\s*", FLAGS)
_PREFIX_BETWEEN = re.compile(r"(?:\b(?:from|between)\s+|[从自在]\s*)$", FLAGS)
_SUFFIX_BETWEEN = re.compile(r"\s*(?:之间|期间|间)")
_AND_WORDS = ("and", "和", "与", "或")


def _on_day(day: Found, clock: Clock, ctx: Context) -> Interval | None:
    interval = day.interval
    if interval is None or interval.granularity != Granularity.DAY or interval.start is None:
        return None
    return cal.time_of_day(interval.start.date(), clock.hour, clock.minute, ctx.tz)


def attach_times(text: str, found: list[Found], ctx: Context) -> list[Found]:
    """Join each time of day to an adjacent day; a lone time means today (if ``now``)."""
    out: list[Found] = []
    i = 0
    while i < len(found):
        cur = found[i]
        if cur.clock is None:
            nxt = found[i + 1] if i + 1 < len(found) else None
            if nxt is not None and nxt.clock is not None and _TIME_AFTER_DAY.fullmatch(
                    text, cur.end, nxt.start):
                joined = _on_day(cur, nxt.clock, ctx)
                if joined is not None:
                    out.append(Found(cur.start, nxt.end, joined, cur.relative, "point"))
                    i += 2
                    continue
            out.append(cur)
            i += 1
            continue
        nxt = found[i + 1] if i + 1 < len(found) else None
        if nxt is not None and _DAY_AFTER_TIME.fullmatch(text, cur.end, nxt.start):
            joined = _on_day(nxt, cur.clock, ctx)
            if joined is not None:
                out.append(Found(cur.start, nxt.end, joined, nxt.relative, "point"))
                i += 2
                continue
        if ctx.now is not None:
            interval = cal.time_of_day(ctx.today, cur.clock.hour, cur.clock.minute, ctx.tz)
            out.append(Found(cur.start, cur.end, interval, True, "point"))
        i += 1
    return out


def _range(text: str, a: Found, b: Found) -> Found | None:
    gap = _CONNECTOR.fullmatch(text, a.end, b.start)
    if gap is None or a.interval is None or b.interval is None or a.kind == "range":
        return None
    if a.interval.start is None or b.interval.end is None:
        return None
    if not a.interval.start < b.interval.end:
        return None
    prefix = _PREFIX_BETWEEN.search(text, max(0, a.start - 10), a.start)
    if gap.group(0).strip().lower() in _AND_WORDS and (prefix is None or "from" in
                                                       prefix.group(0).lower()):
        return None  # "in 1990 and 1995" names two times, not a span
    start = prefix.start() if prefix is not None else a.start
    suffix = _SUFFIX_BETWEEN.match(text, b.end)
    end = suffix.end() if suffix is not None else b.end
    interval = Interval(a.interval.start, b.interval.end, a.interval.granularity)
    return Found(start, end, interval, a.relative or b.relative, "range")


def merge_ranges(text: str, found: list[Found]) -> list[Found]:
    """Join "X to Y", "between X and Y", "X–Y", "X到Y(之间)" into one range."""
    out: list[Found] = []
    i = 0
    while i < len(found):
        if i + 1 < len(found):
            merged = _range(text, found[i], found[i + 1])
            if merged is not None and (not out or out[-1].end <= merged.start):
                out.append(merged)
                i += 2
                continue
        out.append(found[i])
        i += 1
    return out


def extend_range_words(text: str, found: list[Found]) -> list[Found]:
    """Give a range rule's match its "之间" suffix so the span covers the whole phrase."""
    out = []
    for f in found:
        if f.kind == "range":
            suffix = _SUFFIX_BETWEEN.match(text, f.end)
            if suffix is not None and suffix.end() > f.end:
                f = replace(f, end=suffix.end())
        out.append(f)
    return out

