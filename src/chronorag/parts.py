"""Questions that compare times or entities, answered per part.

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

A comparing question that names no two times but two or more entities of one kind is split
per entity (``comparison_entities``): values of one declared condition ("Compare the
return window for EU and US customers": each part asks with that ``region``), or terms the
semantic layer binds to one column ("对比华东和华北的 GMV 趋势"). Each part is the question
without the other names, so its retrieval and its semantic bindings are its own; the
answer reads "region: EU: 30 days; region: US: 14 days".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from chronorag.lang import has_han
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
    """One time or one entity a comparison asks about, and the answer for it."""

    label: str
    interval: Interval | None
    answer: Answer

    def to_json(self) -> dict[str, Any]:
        first = self.answer.evidence[0].to_json() if self.answer.evidence else None
        named = ({"time": self.label, **self.interval.to_json()} if self.interval is not None
                 else {"entity": self.label})
        semantic = ({"semantic": self.answer.extras["semantic"]}
                    if "semantic" in self.answer.extras else {})
        return {**named, "status": self.answer.status.value, "answer": self.answer.answer,
                "flags": self.answer.flag_labels(), "evidence": first, **semantic}


@dataclass(frozen=True)
class EntityPart:
    """One entity a comparing question names: its label and the question about it alone
    (with the asker's attribute it stands for, for a declared condition's value)."""

    label: str
    query: Query


def comparison_entities(query: Query, *, conditions: Callable[[], Mapping[str, Sequence[str]]],
                        bindings: Sequence[Mapping[str, Any]]) -> list[EntityPart]:
    """The entities a comparing question names, one part each (empty: none).

    Entities are two or more values of one declared condition ("Compare the return window
    for EU and US customers": each part is asked with that ``region``), or two or more
    terms the semantic layer binds to one column ("对比华东和华北的 GMV 趋势": each part is
    asked without the other terms, so its bindings are its own).
    """
    if query.understanding.intent in (Intent.TIME, Intent.COUNT) \
            or not _COMPARES.search(query.text):
        return []
    for key, values in conditions().items():
        named = [v for v in values if _names(query.text, v)]
        if len(named) >= 2:
            return [EntityPart(f"{key}: {value}", _about(query, value, [
                v for v in named if v != value], context={**query.context, key: value}))
                for value in named]
    columns: dict[str, list[str]] = {}
    for binding in bindings:
        if binding.get("asset_type") == "column":
            terms = columns.setdefault(str(binding["asset_id"]), [])
            if binding["matched"] not in terms:
                terms.append(str(binding["matched"]))
    for terms in columns.values():
        if len(terms) >= 2:
            return [EntityPart(term, _about(query, term, [t for t in terms if t != term],
                                            context=query.context)) for term in terms]
    return []


def _names(text: str, value: str) -> bool:
    """Does ``text`` name ``value`` (a whole word in Latin script, anywhere in CJK)?"""
    left, right = _bounds(value)
    return re.search(rf"{left}{re.escape(value)}{right}", text, re.IGNORECASE) is not None


def _bounds(name: str) -> tuple[str, str]:
    """The lookarounds that make ``name`` a whole word: a Latin name is one; a CJK one has
    no word boundary ("华北的")."""
    return ("", "") if has_han(name) else (r"(?<!\w)", r"(?!\w)")


# A conjunction joining compared names: removed with the name it joins.
_JOINED = r"(?:和|与|及|跟|以及|、|,|，|\band\b|\bor\b|\bvs\.?|\bversus\b)"


def _without(text: str, names: Sequence[str]) -> str:
    """``text`` without ``names``, each with the conjunction before it (else after it)."""
    for name in names:
        left, right = _bounds(name)
        escaped = re.escape(name)
        before = re.compile(rf"\s*{_JOINED}\s*{escaped}{right}", re.IGNORECASE)
        after = re.compile(rf"{left}{escaped}\s*{_JOINED}\s*", re.IGNORECASE)
        text, found = before.subn("", text, count=1)
        if not found:
            text = after.sub("", text, count=1)
    return text


# "Compare"/对比 opening a question asks for the comparison, not for one side of it; a part
# asks for one side ("the return window for US customers").
_COMPARE_LEAD = re.compile(
    r"^\s*(?:please\s+)?(?:compare|contrast)\s+|^\s*(?:对比|比较)(?:一下)?\s*", re.IGNORECASE)


def _about(query: Query, name: str, others: Sequence[str], *,
           context: Mapping[str, str]) -> Query:
    """``query`` about ``name`` alone: the other names left out of its text and content,
    and without a leading "compare"."""
    def one(text: str) -> str:
        return _COMPARE_LEAD.sub("", _without(text, others))

    understanding = replace(query.understanding, content=one(query.understanding.content))
    return replace(query, text=one(query.text), understanding=understanding,
                   context=dict(context))


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
