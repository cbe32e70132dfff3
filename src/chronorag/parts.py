"""Questions that compare times, answered per part.

"How did the return window change between 2024 and 2026?", "Compare the return window in
2024 and 2026", "2024年和2026年的退货期限有什么不同？" ask the same thing at two times. One
ranking cannot answer both: its time constraint keeps one of them. Such a question is split
into one part per time — each named time, or both ends of a "between X and Y" range — and
each part is retrieved and answered on its own, as the question asked about the state at
the end of that time (or now, while it runs). The
answer lists each part's short answer under its time ("2024: 45 days; 2026: 30 days"),
each a span of that part's evidence; ``parts`` beside the evidence keeps every part's
status, flags and deciding evidence.

Only a question that says it compares (compare, versus, differ, change, 对比, 比较, 不同,
区别, 变化) and names two times, or a range, is split; "Who held the office between 1998 and
2010?" names a range and compares nothing, and "compared with 2022, how much did it grow in
2023?" (与2022年相比…) asks one value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from chronorag.model import (
    Answer,
    AnswerStatus,
    Constraint,
    Intent,
    Interval,
    Query,
    Relation,
    TimeExpression,
)
from chronorag.timex import calendar as cal

_COMPARES = re.compile(
    r"\bcompar(?:e|es|ing|ison)\b|\bversus\b|\bvs\.?(?=\s)|\bdiffer(?:s|ed|ence|ences|ent)?\b"
    r"|\bchang(?:e|ed|es)\b|对比|比较|不同|区别|变化",
    re.IGNORECASE)
# Units a range's ends are read in: its own granularity when it has one of these.
_UNITS = ("year", "quarter", "month", "week", "day")


@dataclass(frozen=True)
class Part:
    """One time a comparison asks about, and the answer at that time."""

    label: str
    interval: Interval
    answer: Answer

    def to_json(self) -> dict[str, Any]:
        first = self.answer.evidence[0].to_json() if self.answer.evidence else None
        return {"time": self.label, **self.interval.to_json(),
                "status": self.answer.status.value, "answer": self.answer.answer,
                "flags": self.answer.flag_labels(), "evidence": first}


def comparison_times(query: Query) -> list[tuple[str, Interval]]:
    """The times a comparing question asks about, earliest first (empty: no comparison)."""
    understanding = query.understanding
    if understanding.intent in (Intent.TIME, Intent.COUNT) \
            or not _COMPARES.search(query.text):
        return []
    named = _distinct(understanding.time_expressions)
    if len(named) >= 2:
        return sorted(((e.text, e.interval) for e in named),
                      key=lambda t: t[1].start or query.now)
    if len(named) == 1 and query.constraint.relation is Relation.BETWEEN:
        return _ends(named[0], query)
    return []


def part_query(query: Query, interval: Interval) -> Query:
    """``query`` asked at one of its times: constrained to it, and about the state at its
    end ("the window in 2024" is the one in force when 2024 closed), or now while it
    runs."""
    constraint = Constraint(relation=Relation.IN, interval=interval)
    understanding = replace(query.understanding, constraint=constraint)
    if interval.contains(query.now) or interval.end is None:
        as_of = query.now
    else:
        as_of = interval.end - timedelta(microseconds=1)
    return replace(query, understanding=understanding, as_of=as_of)


def compose(answer: Answer, parts: Sequence[Part]) -> Answer:
    """``answer`` with each part's short answer under its time (see the module)."""
    statuses = {p.answer.status for p in parts}
    if statuses == {AnswerStatus.ANSWERED}:
        status = AnswerStatus.ANSWERED
    elif statuses == {AnswerStatus.NOT_FOUND}:
        status = AnswerStatus.NOT_FOUND
    else:
        status = AnswerStatus.UNCERTAIN
    said = [f"{p.label}: {p.answer.answer}" for p in parts if p.answer.answer]
    return replace(answer, status=status, answer="; ".join(said) or None, flags=(),
                   owners=(), extras={**answer.extras, "parts": [p.to_json() for p in parts]})


def _distinct(expressions: Sequence[TimeExpression]) -> list[TimeExpression]:
    seen: list[TimeExpression] = []
    for e in expressions:
        if e.interval.start is not None and e.interval.end is not None \
                and all(e.interval != s.interval for s in seen):
            seen.append(e)
    return seen


def _ends(expression: TimeExpression, query: Query) -> list[tuple[str, Interval]]:
    """The first and last unit of a "between X and Y" range, each labelled."""
    interval = expression.interval
    unit = interval.granularity.value if interval.granularity else ""
    if unit not in _UNITS or interval.start is None or interval.end is None:
        return []
    tz = query.tz
    first = cal.unit_interval(interval.start.astimezone(tz).date(), unit, tz)
    last_day = (interval.end - timedelta(microseconds=1)).astimezone(tz).date()
    last = cal.unit_interval(last_day, unit, tz)
    if first == last:
        return []
    return [(_label(first, unit), first), (_label(last, unit), last)]


def _label(interval: Interval, unit: str) -> str:
    assert interval.start is not None
    start = interval.start
    return {"year": f"{start.year}", "quarter": f"{start.year} Q{(start.month - 1) // 3 + 1}",
            "month": f"{start.year}-{start.month:02d}"}.get(unit, start.date().isoformat())
