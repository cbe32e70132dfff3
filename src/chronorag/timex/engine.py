"""The scanner: one compiled alternation of every rule, then merging passes.

Scanning is leftmost-first: at each position the first rule (in registry order) that
matches wins; if its handler says the rule does not apply here (a too-wide year range), the
following rules are tried at the same position. If the handler finds an impossible date or
one the calendar cannot hold (31 Feb, 500 BC, 9999-12; see ``rules``), the whole match is
*skipped*: kept as a ``Found`` without an interval, with the reason logged, and scanning
resumes after it, so no substring is re-read as a wrong date ("9999年" is not the year 999).
This module is the one place that guard lives; rules never catch calendar errors.

Afterwards, adjacent expressions are merged: a time of day joins its day ("yesterday at
3pm", "昨天下午3点") and two expressions joined by "to", "–", "and" (after "between"), 到,
至 become one range. A skipped expression takes its time of day or range down with it
("31 Feb 2023 at 10:00", "221 BC to 206 BC").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from chronorag.model import Granularity, Interval
from chronorag.timex import calendar as cal
from chronorag.timex.calendar import Context
from chronorag.timex.rules import AD, BC, FLAGS, Clock, Rule

log = logging.getLogger(__name__)

# A word matched only through Unicode case folding (ſ for s, ı for i) is missing from the
# rule's lookup table: a LookupError then means the same as an impossible date.
_CALENDAR_ERRORS = (ValueError, OverflowError, LookupError)
# An era marker after a time. BC marks a time before the calendar ("Dec 500 BC", "the 5th
# century BC"); AD / CE only confirm the era and join the span ("the 1st century AD").
_ERA_AFTER = re.compile(rf"\s*(?:(?P<bc>{BC})|{AD})")
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")
_PLAIN_GROUP = re.compile(r"(?<!\\)\((?!\?)")


@dataclass(frozen=True)
class Found:
    """An expression found by the scanner.

    ``interval`` is None for a lone time of day (``clock`` is set) and for a skipped
    expression (``reason`` is set): a time the calendar cannot hold, kept so that its span
    blocks re-reading and merging but never read as a time.
    """

    start: int
    end: int
    interval: Interval | None
    relative: bool
    kind: str
    clock: Clock | None = None
    reason: str | None = None
    rule: Rule | None = field(default=None, compare=False, repr=False)
    # Read in the year (month) of the time before it in its sentence, not in now's.
    anchored: bool = False

    @property
    def skipped(self) -> bool:
        return self.reason is not None


def skipped(text: str, start: int, end: int, reason: str, relative: bool = False) -> Found:
    """``text[start:end]`` recognised as a time but skipped, with the reason logged."""
    log.debug("skipped time expression %r: %s", text[start:end], reason)
    return Found(start, end, None, relative, "skipped", reason=reason)


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
                 digits: re.Pattern[str] | None = None, reach: int = 45,
                 eras: bool = True) -> None:
        self.rules = tuple(rules)
        combined = "|".join(f"({_anonymous(r.pattern)})" for r in self.rules)
        self.regex = re.compile(combined, FLAGS)
        self.starters, self.digits, self.reach = starters, digits, reach
        # Without ``eras`` the caller vouches the text has no era marker (rules.ERA_MARK).
        self.eras = eras

    def scan(self, text: str, ctx: Context) -> list[Found]:
        """Raw expressions of ``text`` in order, before merging."""
        if self.starters is not None and self.digits is not None:
            return self._scan_anchored(text, ctx, self.starters, self.digits)
        if self.starters is not None:
            return self._scan_at(text, ctx, self.starters)
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

    def _scan_at(self, text: str, ctx: Context, starters: re.Pattern[str]) -> list[Found]:
        # The combined regex tried only where ``starters`` says an expression may begin: the
        # same leftmost-first result as searching every position when every expression
        # begins at such a place, at a fraction of the cost on long English text.
        found: list[Found] = []
        pos = 0
        for candidate in starters.finditer(text):
            if candidate.start() < pos:
                continue
            hit = self._at(text, candidate.start(), ctx)
            if hit is not None:
                found.append(hit)
                pos = hit.end
        return found

    def _at(self, text: str, start: int, ctx: Context) -> Found | None:
        """The expression beginning exactly at ``start``, if a rule reads one there."""
        m = self.regex.match(text, start)
        return None if m is None else self._resolve(text, start, (m.lastindex or 1) - 1, ctx)

    def _scan_anchored(self, text: str, ctx: Context, starters: re.Pattern[str],
                       digits: re.Pattern[str]) -> list[Found]:
        # Walk the numbers; for each, try the starters in the ``reach`` characters before it
        # (and the number itself) that no earlier number has already tried.
        found: list[Found] = []
        pos = tried = 0
        reach = self.reach
        for number in digits.finditer(text):
            at = number.start()
            if at < pos:
                continue
            for candidate in starters.finditer(text, max(pos, tried, at - reach), at + 1):
                hit = self._at(text, candidate.start(), ctx)
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
            try:
                result = rule.handler(m, ctx)
                if result is None:
                    continue  # the rule does not apply here: try the next one
                return _found(text, m, rule, result, self.eras)
            except _CALENDAR_ERRORS as exc:
                era = _ERA_AFTER.match(text, m.end()) if self.eras else None
                end = m.end() if era is None else era.end()  # "31 Feb 500 BC" as a whole
                return replace(skipped(text, pos, end, f"{rule.name}: {exc}", rule.relative),
                               rule=rule)
        return None


def _found(text: str, m: re.Match[str], rule: Rule, result: Interval | Clock,
           eras: bool) -> Found:
    """The reading of a match; raises ``Unheld`` for a BC time or one outside the calendar."""
    if isinstance(result, Clock):
        return Found(m.start(), m.end(), None, rule.relative, "time", result, rule=rule)
    era = _ERA_AFTER.match(text, m.end()) if eras else None
    if era is not None and era["bc"]:
        raise cal.Unheld(f"{era['bc']}: the calendar starts at AD 1")
    end = m.end() if era is None else era.end()
    return Found(m.start(), end, cal.held(result), rule.relative, rule.kind, rule=rule)


# ---------------------------------------------------------------- merging passes
_TIME_AFTER_DAY = re.compile(r"\s*(?:,|at|,\s*at|的)?\s*", FLAGS)
_DAY_AFTER_TIME = re.compile(r"\s*(?:on|,)?\s*", FLAGS)
_CONNECTOR = re.compile(
    r"\s*(?:-|–|—|~|～|to|until|till|through|thru|and|至|到|和|与|或)\s*", FLAGS)
_PREFIX_BETWEEN = re.compile(r"(?:\b(?:from|between)\s+|[从自在]\s*)$", FLAGS)
_SUFFIX_BETWEEN = re.compile(r"\s*(?:之间|期间|间)")
_BETWEEN_AFTER = re.compile(r"\s*(?:之间|之間|间|間)")
_AND_WORDS = ("and", "和", "与", "或")


def attach_times(text: str, found: list[Found], ctx: Context) -> list[Found]:
    """Join each time of day to an adjacent day; a lone time means today (if ``now``)."""
    if all(f.clock is None for f in found):
        return found  # the common case at ingest: nothing to join
    out: list[Found] = []
    i = 0
    while i < len(found):
        cur = found[i]
        joined = _join(text, cur, found[i + 1], ctx) if i + 1 < len(found) else None
        if joined is not None:
            out.append(joined)
            i += 2
            continue
        if cur.clock is None:
            out.append(cur)
        elif ctx.now is not None:
            out.append(_today_at(text, cur, cur.clock, ctx))
        i += 1
    return out


def _join(text: str, a: Found, b: Found, ctx: Context) -> Found | None:
    """``a`` and ``b`` as one time when one is a day and the other its time of day."""
    if a.clock is None and b.clock is not None and _TIME_AFTER_DAY.fullmatch(
            text, a.end, b.start):
        day, clock = a, b.clock
    elif a.clock is not None and b.clock is None and _DAY_AFTER_TIME.fullmatch(
            text, a.end, b.start):
        day, clock = b, a.clock
    else:
        return None
    if day.skipped:  # "31 Feb 2023 at 10:00": not 10:00 today
        return skipped(text, a.start, b.end, f"time of day on a skipped day: {day.reason}")
    interval = day.interval
    if interval is None or interval.granularity != Granularity.DAY or interval.start is None:
        return None
    try:
        joined = cal.held(cal.time_of_day(interval.start.date(), clock.hour, clock.minute,
                                          ctx.tz))
    except _CALENDAR_ERRORS as exc:
        return skipped(text, a.start, b.end, f"time of day: {exc}", day.relative)
    return Found(a.start, b.end, joined, day.relative, "point")


def _today_at(text: str, f: Found, clock: Clock, ctx: Context) -> Found:
    """A lone time of day, read on the day of ``now`` (its hour may end past 9999-12-31)."""
    try:
        interval = cal.held(cal.time_of_day(ctx.today, clock.hour, clock.minute, ctx.tz))
    except _CALENDAR_ERRORS as exc:
        return skipped(text, f.start, f.end, f"time of day today: {exc}", True)
    return Found(f.start, f.end, interval, True, "point")


def _range(text: str, a: Found, b: Found) -> Found | None:
    gap = _CONNECTOR.fullmatch(text, a.end, b.start)
    if gap is None or a.kind == "range":
        return None
    prefix = _PREFIX_BETWEEN.search(text, max(0, a.start - 10), a.start)
    # X和Y之间 is "between X and Y" with the word after: a span without a prefix.
    between_after = _BETWEEN_AFTER.match(text, b.end) is not None
    if gap.group(0).strip().lower() in _AND_WORDS and not between_after and (
            prefix is None or "from" in prefix.group(0).lower()):
        return None  # "in 1990 and 1995" names two times, not a span
    start = prefix.start() if prefix is not None else a.start
    suffix = _SUFFIX_BETWEEN.match(text, b.end)
    end = suffix.end() if suffix is not None else b.end
    if a.skipped or b.skipped:  # "500 BC to 2000" is no range the calendar can hold
        return skipped(text, start, end, f"range with a skipped end: {a.reason or b.reason}")
    if a.interval is None or b.interval is None:
        return None
    if a.interval.start is None or b.interval.end is None:
        return None
    if not a.interval.start < b.interval.end:
        return None
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


# A sentence ends here: an earlier time no longer anchors a later one.
_SENTENCE_END = re.compile(r"[。！？!?；;\n]|\.\s")
_ANCHORS = (Granularity.YEAR, Granularity.QUARTER, Granularity.SEASON, Granularity.MONTH,
            Granularity.WEEK, Granularity.DAY)
# What a time must be to lend what a rule borrows: a month needs a month or a day.
_LENDS = {"year": _ANCHORS, "month": (Granularity.MONTH, Granularity.DAY)}


# "2024年3月CPI比上月上涨": a relative time compared with the time before it (比上月, 较去年,
# 与上周相比) counts from that time, not from now.
_COMPARED_BEFORE = re.compile(r"(?:比|较|較|环比|環比|相比|相较|相較|对比|對比|比起)\s*$")
_WITH_BEFORE = re.compile(r"(?:与|與|和|同|跟)\s*$")
_COMPARED_AFTER = re.compile(r"\s*(?:相比|相较|相較|比较|比較|持平)")
_COARSEST_FIRST = list(Granularity)


def _compared(text: str, f: Found) -> bool:
    head = text[max(0, f.start - 3):f.start]
    if _COMPARED_BEFORE.search(head):
        return True
    return bool(_WITH_BEFORE.search(head) and _COMPARED_AFTER.match(text, f.end))


def anchor_yearless(text: str, found: list[Found], ctx: Context) -> list[Found]:
    """Read a yearless time (6月, 31日) in the year, or month, of the time before it in
    the same sentence instead of now's: "2017年8月至11月" is August to November 2017,
    "2021年3月5日……31日" the 31st of March 2021. A bare day needs a month before it. A
    relative time compared with that time counts from it: in "2024年3月CPI比上月上涨",
    上月 is February 2024 (if it is no finer than the time it counts from)."""
    out: list[Found] = []
    anchor: Interval | None = None
    anchor_end = 0
    for f in found:
        if anchor is not None and _SENTENCE_END.search(text, anchor_end, f.start):
            anchor = None
        rule = f.rule
        # A yearless time impossible at now (31日 in November) may be right at its anchor.
        if (rule is not None and rule.borrows and anchor is not None and anchor.start
                and anchor.granularity in _LENDS[rule.borrows]):
            f = _read_at(text, f, rule, anchor, ctx)
        elif (rule is not None and f.relative and anchor is not None and anchor.start
              and anchor.granularity in _ANCHORS and _compared(text, f)):
            moved = _read_at(text, f, rule, anchor, ctx)
            unit = moved.interval.granularity if moved.interval is not None else None
            if (unit is not None and _COARSEST_FIRST.index(unit)
                    <= _COARSEST_FIRST.index(anchor.granularity)):
                f = moved
        if f.interval is not None and f.interval.granularity in _ANCHORS:
            anchor, anchor_end = f.interval, f.end
        out.append(f)
    return out


def _read_at(text: str, f: Found, rule: Rule, anchor: Interval, ctx: Context) -> Found:
    assert anchor.start is not None
    m = rule.regex.match(text, f.start)
    if m is None:
        return f
    try:
        reading = rule.handler(m, Context(anchor.start.astimezone(ctx.tz), ctx.tz))
        if not isinstance(reading, Interval):
            return f
        # 31日 after a February, a quarter of year 1 east of Greenwich: the reading at now
        # stands.
        held = cal.held(reading)
    except _CALENDAR_ERRORS:  # Unheld is a ValueError
        return f
    return replace(f, interval=held, kind=rule.kind, reason=None, anchored=True)
