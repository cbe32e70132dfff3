"""Harder variants of a question: its time replaced the way TimeQA's hard level does.

From a question asked with its fact's exact period S ("from 2004 to 2009") come

- *inside* variants, which the same fact still answers: a year, a month, an early/mid/late
  part of a year, a (part of a) decade, a shorter "between", or "before"/"after" a moment
  strictly inside S (the fact held right before/after it);
- *shifted* variants, which it does not: a year, month or "between" disjoint from S,
  "before" a moment at or before S starts, "after" one at or after S ends.

Every intended interval is computed here with calendar arithmetic, independently of the
parser, and kept only when the product reads both the phrase (``timex.parse_one``) and the
whole new question (``understand``) as exactly that relation and interval; the rest are
dropped and counted, never guessed. The parser's conventions mirrored here: early/mid/late
of a year are months 1-4, 5-8, 9-12; of a decade years 0-3, 4-6, 7-9; "before X" is
``[None, start of X)``, "after X" is ``[end of X, None)``.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from training.data_facts import NOW, Fact

from chronorag.errors import TimeParseError
from chronorag.model import Interval, Relation
from chronorag.timex import parse_one
from chronorag.understand import understand

__all__ = ["INSIDE_KINDS", "KINDS", "SHIFTED_KINDS", "Fit", "Variant", "fit", "make_variants",
           "reads_as"]

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_YEAR_PARTS = (("early", 1, 5), ("mid", 5, 9), ("late", 9, 13))
_DECADE_PARTS = (("early", 0, 4), ("mid", 4, 7), ("late", 7, 10))
# How far outside the period a shifted time may lie: near misses are the hard ones.
_SHIFT_YEARS = 6
_SHIFT_MONTHS = 12
# Candidates tried per variant wanted: a question whose other times confuse the reading of
# any new phrase ("... and held it until 1917") fails them all, and each try parses twice.
_ATTEMPTS = 6


class Fit(enum.Enum):
    """Whether a fact over ``span`` answers a question with this relation and interval."""

    FIT = "fit"
    MISS = "miss"
    UNSURE = "unsure"


@dataclass(frozen=True)
class Variant:
    """A perturbed question and the time it asks, as the product reads it."""

    qid: str
    kind: str
    question: str
    phrase: str
    relation: Relation
    interval: Interval
    inside: bool


@dataclass(frozen=True)
class _Candidate:
    phrase: str
    relation: Relation
    interval: Interval


def fit(span: Interval, relation: Relation, interval: Interval) -> Fit:
    """Does a fact held over ``span`` answer "relation interval"?

    "in"/"between": the fact held the whole asked time (a fact that covers only part of it
    is ``UNSURE``). "before X": the fact held right before X; one that ended earlier held
    *some* time before X, which is ``UNSURE``. "after X" mirrors it.
    """
    if relation in (Relation.IN, Relation.BETWEEN):
        if span.covers(interval):
            return Fit.FIT
        return Fit.UNSURE if span.overlaps(interval) else Fit.MISS
    if span.start is None or span.end is None:
        return Fit.UNSURE
    if relation is Relation.BEFORE and interval.end is not None:
        moment = interval.end
        if span.start >= moment:
            return Fit.MISS
        return Fit.FIT if moment <= span.end else Fit.UNSURE
    if relation is Relation.AFTER and interval.start is not None:
        moment = interval.start
        if span.end <= moment:
            return Fit.MISS
        return Fit.FIT if span.start <= moment else Fit.UNSURE
    return Fit.UNSURE


def _month(year: int, month: int) -> datetime:
    """Start of a month; month 13 is January of the next year."""
    return datetime(year + (month - 1) // 12, (month - 1) % 12 + 1, 1, tzinfo=UTC)


def _bounds(span: Interval) -> tuple[datetime, datetime]:
    assert span.start is not None and span.end is not None
    return span.start, span.end


def _years(span: Interval, *, pad: int = 0) -> range:
    """Years the span touches, ``pad`` more on each side, inside the calendar."""
    start, end = _bounds(span)
    return range(max(start.year - pad, 1), min(end.year + pad, 9998) + 1)


def _months(span: Interval, *, pad: int = 0) -> list[tuple[int, int]]:
    """(year, month) of the months the span touches, ``pad`` more on each side."""
    start, end = _bounds(span)
    first = start.year * 12 + start.month - 1 - pad
    final = end.year * 12 + end.month - 1 + pad
    if end == _month(end.year, end.month):
        final -= 1  # the span ends where this month begins
    return [(i // 12, i % 12 + 1) for i in range(max(first, 12), min(final, 9998 * 12 + 11) + 1)]


def _name(rng: random.Random, month: int) -> str:
    full = _MONTHS[month - 1]
    return full if rng.random() < 0.3 else full[:3]


def _in_year(span: Interval, rng: random.Random) -> list[_Candidate]:
    spans = [(y, Interval(_month(y, 1), _month(y, 13))) for y in _years(span)]
    return [_Candidate(f"in {y}", Relation.IN, iv) for y, iv in spans if span.covers(iv)]


def _in_month(span: Interval, rng: random.Random) -> list[_Candidate]:
    spans = [(y, m, Interval(_month(y, m), _month(y, m + 1))) for y, m in _months(span)]
    return [_Candidate(f"in {_name(rng, m)} {y}", Relation.IN, iv)
            for y, m, iv in spans if span.covers(iv)]


def _in_part(span: Interval, rng: random.Random) -> list[_Candidate]:
    out = []
    for y in _years(span):
        for word, lo, hi in _YEAR_PARTS:
            iv = Interval(_month(y, lo), _month(y, hi))
            if span.covers(iv):
                out.append(_Candidate(f"in {word} {y}", Relation.IN, iv))
    return out


def _in_decade(span: Interval, rng: random.Random) -> list[_Candidate]:
    out = []
    for d in range(_years(span)[0] // 10 * 10, _years(span)[-1] + 1, 10):
        the = "the " if rng.random() < 0.5 else ""
        parts = [(f"in {the}{d}s", 0, 10)]
        parts += [(f"in {the}{w} {d}s", lo, hi) for w, lo, hi in _DECADE_PARTS]
        for phrase, lo, hi in parts:
            if d + lo < 1:
                continue
            iv = Interval(_month(d + lo, 1), _month(d + hi, 1))
            if span.covers(iv):
                out.append(_Candidate(phrase, Relation.IN, iv))
    return out


def _between(span: Interval, rng: random.Random, *, outside: bool = False) -> list[_Candidate]:
    """Month ranges inside ``span`` and shorter than it, or (``outside``) ranges of the
    months just before or just after it."""
    months = _months(span, pad=_SHIFT_MONTHS if outside else 0)
    if outside:  # both ends on one side: a range around the span would overlap it
        start, end = _bounds(span)
        sides = [[ym for ym in months if _month(ym[0], ym[1] + 1) <= start],
                 [ym for ym in months if _month(*ym) >= end]]
    else:
        sides = [months]
    sides = [side for side in sides if len(side) >= 2]
    out = []
    for _ in range(8 if sides else 0):
        (y1, m1), (y2, m2) = sorted(rng.sample(rng.choice(sides), 2))
        iv = Interval(_month(y1, m1), _month(y2, m2 + 1))
        keep = not span.overlaps(iv) if outside else span.covers(iv) and iv != span
        if keep:
            phrase = f"between {_name(rng, m1)} {y1} and {_name(rng, m2)} {y2}"
            out.append(_Candidate(phrase, Relation.BETWEEN, iv))
    return out


def _keeps(moment: datetime, start: datetime, end: datetime, *, inside: bool,
           before: bool) -> bool:
    """Inside: strictly within the span, so the fact held on both sides of the moment.
    Shifted: "before" a moment the fact had not begun by, "after" one it had ended by."""
    if inside:
        return start < moment < end
    return moment <= start if before else moment >= end


def _moments(span: Interval, rng: random.Random, *, inside: bool, before: bool
             ) -> list[_Candidate]:
    """"before X" / "after X" for X a year or a month, inside ``span`` or missing it."""
    start, end = _bounds(span)
    pad = 0 if inside else _SHIFT_YEARS
    years = [(str(y), _month(y, 1), _month(y, 13)) for y in _years(span, pad=pad)]
    months = [(f"{_name(rng, m)} {y}", _month(y, m), _month(y, m + 1))
              for y, m in _months(span, pad=pad * 12)]
    word, relation = ("before", Relation.BEFORE) if before else ("after", Relation.AFTER)
    out: list[_Candidate] = []
    for group in (years, months):
        kept = []
        for name, lo, hi in group:
            moment = lo if before else hi
            if _keeps(moment, start, end, inside=inside, before=before):
                iv = Interval(None, moment) if before else Interval(moment, None)
                kept.append(_Candidate(f"{word} {name}", relation, iv))
        # As many month forms as year forms, so neither swamps the other.
        out += kept if group is years else rng.sample(kept, min(len(kept), max(len(out), 1)))
    return out


def _shift_in(span: Interval, rng: random.Random) -> list[_Candidate]:
    years = [_Candidate(f"in {y}", Relation.IN, iv)
             for y in _years(span, pad=_SHIFT_YEARS)
             if not span.overlaps(iv := Interval(_month(y, 1), _month(y, 13)))]
    months = [_Candidate(f"in {_name(rng, m)} {y}", Relation.IN, iv)
              for y, m in _months(span, pad=_SHIFT_MONTHS)
              if not span.overlaps(iv := Interval(_month(y, m), _month(y, m + 1)))]
    return years + rng.sample(months, min(len(months), max(len(years), 1)))


Generator = Callable[[Interval, random.Random], list[_Candidate]]
INSIDE_KINDS: dict[str, Generator] = {
    "in_year": _in_year,
    "in_month": _in_month,
    "in_part": _in_part,
    "in_decade": _in_decade,
    "in_between": _between,
    "before": lambda s, r: _moments(s, r, inside=True, before=True),
    "after": lambda s, r: _moments(s, r, inside=True, before=False),
}
SHIFTED_KINDS: dict[str, Generator] = {
    "shift_in": _shift_in,
    "shift_between": lambda s, r: _between(s, r, outside=True),
    "shift_before": lambda s, r: _moments(s, r, inside=False, before=True),
    "shift_after": lambda s, r: _moments(s, r, inside=False, before=False),
}
KINDS = (*INSIDE_KINDS, *SHIFTED_KINDS)


def reads_as(question: str, phrase: str, relation: Relation, interval: Interval, *,
             now: datetime = NOW) -> str | None:
    """``None`` when the product reads ``phrase`` and ``question`` as ``relation interval``,
    else why not ("phrase" or "question")."""
    try:
        parsed = parse_one(phrase, now=now).interval
    except TimeParseError:
        return "phrase"
    if (parsed.start, parsed.end) != (interval.start, interval.end):
        return "phrase"
    constraint = understand(question, now=now).constraint
    read = constraint.interval
    if (constraint.relation is not relation or read is None
            or (read.start, read.end) != (interval.start, interval.end)):
        return "question"
    return None


def make_variants(fact: Fact, *, rng: random.Random, per_kind: int,
                  dropped: Counter[str], now: datetime = NOW) -> list[Variant]:
    """Up to ``per_kind`` checked variants of each kind; ``dropped`` counts
    ``kind:reason`` for those the parser does not read as intended."""
    if fact.time is None or not fact.answerable:
        return []
    span, q = fact.time.interval, fact.question
    out = []
    for kind in KINDS:
        inside = kind in INSIDE_KINDS
        candidates = (INSIDE_KINDS if inside else SHIFTED_KINDS)[kind](span, rng)
        rng.shuffle(candidates)
        kept = 0
        for c in candidates[: _ATTEMPTS * per_kind]:
            if kept >= per_kind:
                break
            if (c.interval.start, c.interval.end) == (span.start, span.end):
                continue  # the original question again ("in 1976" asked "in 1976")
            phrase = c.phrase[0].upper() + c.phrase[1:] if fact.time.start == 0 else c.phrase
            question = q[:fact.time.start] + phrase + q[fact.time.end:]
            reason = reads_as(question, phrase, c.relation, c.interval, now=now)
            if reason is None and fit(span, c.relation, c.interval) is not (
                    Fit.FIT if inside else Fit.MISS):
                reason = "fit"  # a bug here, never expected: counted, not hidden
            if reason is not None:
                dropped[f"{kind}:{reason}"] += 1
                continue
            out.append(Variant(fact.qid, kind, question, phrase, c.relation, c.interval,
                               inside))
            kept += 1
    return out
