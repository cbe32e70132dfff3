"""A question that names the present asks what the same question without a time asks."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.engine import Engine
from chronorag.understand import understand

NOW = datetime(2026, 11, 29, 10, 30, tzinfo=UTC)
PAIRS = [
    ("Who is currently the CEO of Norvex?", "Who is the CEO of Norvex?"),
    ("Who is the CEO of Norvex now?", "Who is the CEO of Norvex?"),
    ("How many days do I have to return an item at present?",
     "How many days do I have to return an item?"),
    ("现在谁是集团董事长？", "谁是集团董事长？"),
    ("目前的退货期限是多少天？", "退货期限是多少天？"),
    ("如今员工每月可报销多少通讯费？", "员工每月可报销多少通讯费？"),
]


@pytest.mark.parametrize(("present", "plain"), PAIRS)
def test_present_sets_no_constraint(present: str, plain: str) -> None:
    asked, bare = understand(present, now=NOW), understand(plain, now=NOW)
    assert asked.constraint == bare.constraint
    assert asked.content == bare.content


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
