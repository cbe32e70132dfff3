"""A question's time constraint (relation + order + interval) and the time it is about."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from chronorag.model import Anchor, Constraint, Doubt, Order, Relation, Understanding
from chronorag.timex.engine import Found
from chronorag.timex.relations import Related, relate

_ORDER_EN = re.compile(
    r"(?<!\bat )(?<!\bday of the )(?<!\bdate of the )"
    r"\b(?P<w>first|earliest|initial|last|latest|most\s+recent(?:ly)?|final|newest)\b"
    r"(?!\s*[?.!]|\s*$)\s*",
    re.IGNORECASE)
# "福建舰首次航行试验当天" names an event by its order ("the day of the first sea trial"): the
# question is about that day, not about the first of what it asks for.
_ORDER_ZH = re.compile(r"(?P<w>第一次|第一个|第一位|第一任|首次|首位|首任|最早|最近一次|最后一次"
                       r"|最后一个|最后一位|最后一任|最后|上一次|上一任|最新)"
                       r"(?![^，,。；;？?]{0,12}(?:当天|那天|当日|之日|同一天|同日))")
_FIRST = {"first", "earliest", "initial", "第一次", "第一个", "第一位", "第一任", "首次", "首位",
          "首任", "最早"}


def time_constraint(question: str, found: Sequence[Found]) -> tuple[Relation, Related | None]:
    """The relation of the question's main time and its related span.

    A question may carry background times ("A school, established in 1960, was located
    where after Aug 2008?"). The first time with a relation word (before, between, 以来...)
    wins; otherwise the last plain time, since background clauses tend to come first.
    """
    if not found:
        return Relation.NONE, None
    related = [relate(question, f) for f in found]
    for r in related:
        if r.relation != Relation.IN:
            return r.relation, r
    return related[-1].relation, related[-1]


def order_of(text: str) -> tuple[Order | None, list[tuple[int, int]]]:
    """The order word of ``text`` (time expressions already blanked) and its spans."""
    for regex in (_ORDER_ZH, _ORDER_EN):
        m = regex.search(text)
        if m is not None:
            word = re.sub(r"\s+", " ", m["w"].lower())
            order = Order.FIRST if word in _FIRST else Order.LAST
            return order, [(m.start(), m.end())]
    return None, []


def build(relation: Relation, related: Related | None, order: Order | None,
          anchor: Anchor | None = None, doubts: tuple[Doubt, ...] = ()) -> Constraint:
    if related is None:
        return Constraint(Relation.NONE, order, None)
    return Constraint(relation, order, related.interval, anchor, doubts)


def resolve_as_of(understanding: Understanding, now: datetime) -> datetime:
    """The time a question is about: its own explicit time, else ``now``.

    "before 2022" / "until 2022" are about the last moment of their span, any other relation
    about the start of its interval.
    """
    constraint = understanding.constraint
    interval = constraint.interval
    if interval is None or constraint.relation is Relation.NONE:
        return now
    if constraint.relation in (Relation.BEFORE, Relation.UNTIL) and interval.end is not None:
        return interval.end - timedelta(microseconds=1)
    if interval.start is not None:
        return interval.start
    return now
