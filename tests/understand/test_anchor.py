"""Questions about a beginning or an end anchor their time to that edge of the state."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import Anchor
from chronorag.understand import understand

NOW = datetime(2026, 11, 29, tzinfo=UTC)
CASES = [json.loads(line) for line in
         (Path(__file__).parents[1] / "cases" / "anchor_questions.jsonl")
         .read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c["question"][:50] for c in CASES])
def test_anchor_of_question(case: dict[str, Any]) -> None:
    constraint = understand(case["question"], now=NOW).constraint
    expected = None if case["anchor"] is None else Anchor(case["anchor"])
    assert constraint.anchor == expected


def test_anchor_is_in_the_constraint_json() -> None:
    constraint = understand("Who left the club in 2005?", now=NOW).constraint
    assert constraint.to_json()["anchor"] == "end"
    assert understand("Who won in 2005?", now=NOW).constraint.to_json()["anchor"] is None


def test_anchor_leaves_the_interval_alone() -> None:
    anchored = understand("Who was appointed chief executive after 2015?", now=NOW).constraint
    plain = understand("Who was chief executive after 2015?", now=NOW).constraint
    assert (anchored.relation, anchored.interval) == (plain.relation, plain.interval)


@given(st.text(max_size=80))
def test_any_text_gives_an_anchor_or_none(text: str) -> None:
    constraint = understand(text, now=NOW).constraint
    assert constraint.anchor is None or constraint.interval is not None
