"""A question that names the present asks what the same question without a time asks.

"today" names the present in a question about a state ("Who is the CEO today?") and the
day in a question about its events ("What did I eat today?"); see
``chronorag.understand.present``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.engine import Engine
from chronorag.model import Relation
from chronorag.understand import resolve_as_of, understand

NOW = datetime(2026, 11, 29, 10, 30, tzinfo=UTC)
PAIRS = [
    ("Who is currently the CEO of Norvex?", "Who is the CEO of Norvex?"),
    ("Who is the CEO of Norvex now?", "Who is the CEO of Norvex?"),
    ("How many days do I have to return an item at present?",
     "How many days do I have to return an item?"),
    ("现在谁是集团董事长？", "谁是集团董事长？"),
    ("目前的退货期限是多少天？", "退货期限是多少天？"),
    ("如今员工每月可报销多少通讯费？", "员工每月可报销多少通讯费？"),
    ("How long is the return window today?", "How long is the return window?"),
    ("Who is the CEO today?", "Who is the CEO?"),
    ("What is the refund policy as of today?", "What is the refund policy?"),
    ("What is the refund policy as of now?", "What is the refund policy?"),
    ("How many days do I have to return an item today?",
     "How many days do I have to return an item?"),
    ("Am I allowed to return an item today?", "Am I allowed to return an item?"),
    ("How many business days until refunds are issued today?",
     "How many business days until refunds are issued?"),
    ("What is the return window these days?", "What is the return window?"),
    ("今天的退货期限是多久？", "退货期限是多久？"),
    ("今日的退货期限是多久？", "退货期限是多久？"),
    ("截至今天的退货期限是多久？", "退货期限是多久？"),
    ("今天谁是董事长？", "谁是董事长？"),
    ("今天我能退货吗？", "我能退货吗？"),
    ("现行的退货政策是什么？", "退货政策是什么？"),
    ("当前的退货政策是什么？", "退货政策是什么？"),
]
# Questions about what happened (or will happen) within the day: "today" keeps the day.
DAY_QUESTIONS = [
    "What did I eat today?", "What did I do today?", "What have I eaten today?",
    "What was discussed in the meeting today?", "Who called me today?",
    "What's happened today?", "What will happen today?", "What is due today?",
    "How many times did I run today?", "What time is the standup today?",
    "What meetings do I have today?", "What's on my calendar today?",
    "What is on the agenda today?", "What do I have to do today?",
    "Are there any outages today?", "What is the weather today?",
    "What is my return window today?",
    "今天我吃了什么？", "我今天几点吃的午饭？", "今天的会议讨论了什么？", "今天谁打的电话？",
    "我今天要做什么？", "今天要交什么报告？", "今天有什么会？", "今天有哪些告警？",
    "今天去过医院吗？", "我今天的日程是什么？",
]
# Times that never name the present: another day, a part of the day, a relation.
NOT_PRESENT = [
    ("Who is the CEO on 25 November 2026?", Relation.IN),
    ("Who is the CEO yesterday?", Relation.IN),
    ("昨天的退货期限是多久？", Relation.IN),
    ("Who is the CEO tonight?", Relation.IN),
    ("How long was the return window before today?", Relation.BEFORE),
    ("Since today, who is the CEO?", Relation.SINCE),
]


@pytest.mark.parametrize(("present", "plain"), PAIRS)
def test_present_sets_no_constraint(present: str, plain: str) -> None:
    asked, bare = understand(present, now=NOW), understand(plain, now=NOW)
    assert asked.constraint == bare.constraint
    assert asked.content == bare.content


def test_present_is_as_of_now() -> None:
    for present, _ in PAIRS:
        assert resolve_as_of(understand(present, now=NOW), NOW) == NOW, present


@pytest.mark.parametrize("question", DAY_QUESTIONS)
def test_today_keeps_the_day_of_events(question: str) -> None:
    asked = understand(question, now=NOW)
    midnight = NOW.replace(hour=0, minute=0)
    interval = asked.constraint.interval
    assert asked.constraint.relation is Relation.IN
    assert interval is not None and (interval.start, interval.end) == (
        midnight, midnight.replace(day=NOW.day + 1))
    assert resolve_as_of(asked, NOW) == midnight


@pytest.mark.parametrize(("question", "relation"), NOT_PRESENT)
def test_other_days_are_never_the_present(question: str, relation: Relation) -> None:
    assert understand(question, now=NOW).constraint.relation is relation


def test_a_real_time_still_constrains_beside_the_present() -> None:
    constraint = understand("Who is currently the CEO of Norvex in 2020?", now=NOW).constraint
    assert constraint.interval is not None and constraint.interval.start is not None
    assert constraint.interval.start.year == 2020


@settings(max_examples=30, deadline=None)
@given(now=st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2100, 1, 1),
                        timezones=st.just(UTC)))
def test_present_at_any_now(now: datetime) -> None:
    asked = understand("Who is currently the CEO of Norvex?", now=now)
    assert asked.constraint == understand("Who is the CEO of Norvex?", now=now).constraint
    today = understand("Who is the CEO of Norvex today?", now=now)
    assert today.constraint == asked.constraint
    day = understand("What did I eat today?", now=now).constraint.interval
    assert day is not None and day.start is not None and day.end is not None
    assert day.start <= now < day.end


def test_engine_answers_the_present_as_no_time(tmp_path: Path,
                                               test_embedders: tuple[str, ...]) -> None:
    docs = tmp_path / "policies.jsonl"
    rows = [
        {"id": "refund-2024", "text": "Items may be returned within 14 days of delivery.",
         "source_type": "policy", "status": "approved", "valid_from": "2024-01-01"},
        {"id": "refund-2026", "text": "Items may be returned within 30 days of delivery.",
         "source_type": "policy", "status": "approved", "valid_from": "2026-06-01",
         "supersedes": ["refund-2024"]},
        {"id": "refund-2027", "text": "Items may be returned within 45 days of delivery.",
         "source_type": "policy", "status": "approved", "valid_from": "2027-01-01",
         "supersedes": ["refund-2026"]},
    ]
    docs.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with Engine(tmp_path / "kb.db", config="bm25", embedder=test_embedders[0]) as engine:
        engine.ingest([docs], now=NOW)
        for present, plain in [("How many days do I currently have to return an item?",
                                "How many days do I have to return an item?"),
                               ("现在退货期限是多少天？", "退货期限是多少天？")]:
            asked = engine.ask(present, now=NOW).to_json()
            bare = engine.ask(plain, now=NOW).to_json()
            for key in ("status", "answer", "as_of"):
                assert asked[key] == bare[key], key
            for key in ("evidence", "upcoming"):
                assert [(e["doc_id"], e["applicable"], e["flags"]) for e in asked[key]] == \
                    [(e["doc_id"], e["applicable"], e["flags"]) for e in bare[key]], key
