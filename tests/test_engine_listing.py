"""Questions for everything in a period answered as a list in time order (``answer.listing``),
golden cases in English and Chinese through the real Engine (slow: real models)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from chronorag.engine import Engine

pytestmark = pytest.mark.slow

CASES = Path(__file__).parent / "cases" / "listing"
NOW = datetime(2026, 6, 1, tzinfo=UTC)
QUESTIONS = [json.loads(line) for line in
             (CASES / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    with Engine(tmp_path_factory.mktemp("listing") / "kb.db") as opened:
        opened.ingest([CASES / "corpus.jsonl"], now=NOW)
        yield opened


@pytest.mark.parametrize("case", QUESTIONS, ids=[q["why"] for q in QUESTIONS])
def test_list_answers(engine: Engine, case: dict[str, Any]) -> None:
    answer = engine.ask(case["question"], now=NOW)
    assert [f.value for f in answer.flags] == case["flags"]
    if "answer" in case:
        assert answer.answer == case["answer"]
    for part in case.get("answer_has", ()):
        assert part in (answer.answer or "")
    if case["flags"] == ["listed"]:
        assert answer.status.value == "answered"
        # Every entry is a span of a cited evidence item's text.
        cited = " ".join(e.text for e in answer.evidence)
        for entry in (answer.answer or "").replace("；", "; ").split("; "):
            name = entry.split(" (")[0].split("（")[0]
            assert name in cited
