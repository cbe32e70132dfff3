"""Table-driven understanding cases (content, intent, constraint) EN + ZH."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import Relation
from chronorag.understand import understand
from chronorag.understand.constraint import order_of

CASES = [json.loads(line) for line in
         (Path(__file__).parents[1] / "cases" / "understand_questions.jsonl")
         .read_text("utf-8").splitlines() if line.strip()]


def _d(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


@pytest.mark.parametrize("case", CASES, ids=[c["question"] for c in CASES])
def test_understand_case(case: dict) -> None:
    now = datetime.fromisoformat(case["now"]).replace(tzinfo=UTC)
    u = understand(case["question"], now=now)
    c = u.constraint
    got = {
        "content": u.content, "intent": u.intent.value, "relation": c.relation.value,
        "order": c.order and c.order.value,
        "start": c.interval.start if c.interval else None,
        "end": c.interval.end if c.interval else None,
        "doubts": [d.value for d in c.doubts],
        "event": u.event and {"event": u.event.event, "unit": u.event.unit.value},
    }
    want = {k: case[k] for k in ("content", "intent", "relation", "order")}
    want |= {"start": _d(case["start"]), "end": _d(case["end"]),
             "doubts": case.get("doubts", []), "event": case.get("event")}
    assert got == want


def test_no_time_means_no_interval() -> None:
    u = understand("What is the refund policy?", now=datetime(2024, 5, 15, tzinfo=UTC))
    assert u.constraint.relation == Relation.NONE and u.constraint.interval is None
    assert u.time_expressions == () and u.entities == ()


def test_time_expressions_are_reported() -> None:
    u = understand("What changed between 2019 and 2021 and last week?",
                   now=datetime(2024, 5, 15, tzinfo=UTC))
    assert [e.text for e in u.time_expressions] == ["between 2019 and 2021", "last week"]
    assert u.constraint.relation == Relation.BETWEEN


def test_enough_cases() -> None:
    assert len(CASES) >= 40


@given(st.lists(st.one_of(st.text(max_size=8), st.sampled_from(
    ["首次", "第一次", "最后", "当天", "同一天", "，", "the day of the ", "first", " launch",
     "?", "2024年5月1日"])), max_size=10).map("".join))
def test_order_over_any_text_never_raises_and_a_named_day_orders_nothing(text: str) -> None:
    order, spans = order_of(text)
    assert (order is None) == (spans == [])
    understand(text, now=datetime(2024, 8, 30, tzinfo=UTC))
    assert order_of("福建舰" + text.replace("，", "") + "首次航行试验当天")[0] is None or \
        order_of("福建舰" + text.replace("，", ""))[0] is not None
