"""Short answers on Markdown-like policies through the real Engine (slow: real models).

tests/cases/policy_answers holds the policies and, per question, the exact short answer,
its status and the upcoming documents: ranges, money, durations, dates, a name, yes/no,
headings that must not answer, a sentence that must not be cut at an abbreviation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from chronorag.engine import Engine

pytestmark = pytest.mark.slow

CASES = Path(__file__).parent / "cases" / "policy_answers"
NOW = datetime.fromisoformat("2026-06-15T12:00:00+00:00")
QUESTIONS = [json.loads(line) for line in
             (CASES / "questions.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    with Engine(tmp_path_factory.mktemp("policies") / "kb.db") as opened:
        opened.ingest([CASES / "corpus.jsonl"], now=NOW)
        yield opened


@pytest.mark.parametrize("case", QUESTIONS, ids=[q["why"] for q in QUESTIONS])
def test_policy_short_answers(engine: Engine, case: dict[str, Any]) -> None:
    as_of = datetime.fromisoformat(case["as_of"]) if "as_of" in case else None
    answer = engine.ask(case["question"], now=NOW, as_of=as_of)
    assert answer.answer == case["answer"]
    assert answer.status.value == case["status"]
    if "upcoming" in case:
        assert [e.doc_id for e in answer.upcoming] == case["upcoming"]
