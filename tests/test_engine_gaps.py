"""An unanswered question in a period no declared version covers says which period
(``time_not_covered``), in the JSON, the text output and both languages (no model)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag import render
from chronorag.engine import Engine
from chronorag.flags import Flag
from chronorag.model import AnswerStatus

from .conftest import NO_MODEL_RULES

NOW = datetime(2026, 6, 1, tzinfo=UTC)
CORPUS = Path(__file__).parent / "cases" / "gaps" / "corpus.jsonl"


@pytest.fixture
def engine(tmp_path: Path, test_embedders: tuple[str, ...]) -> Iterator[Engine]:
    with Engine(tmp_path / "kb.db", config=NO_MODEL_RULES, embedder="test-hash",
                judges=()) as opened:
        opened.ingest([CORPUS], now=NOW)
        yield opened


def test_a_question_between_two_versions_names_the_hole(engine: Engine) -> None:
    answer = engine.ask("How much is the late payment fee?", now=NOW,
                        as_of=datetime(2023, 6, 1, tzinfo=UTC))
    assert answer.status is AnswerStatus.NOT_FOUND
    assert Flag.TIME_NOT_COVERED in answer.flags
    assert answer.to_json()["uncovered"] == {
        "doc_id": "fees-2020", "title": "Late fees",
        "start": "2023-01-01T00:00:00+00:00", "end": "2024-03-01T00:00:00+00:00"}
    out = io.StringIO()
    render.print_answer(answer, file=out)
    assert "no version of fees-2020 covers [2023-01-01T00:00:00+00:00, " \
        "2024-03-01T00:00:00+00:00)" in out.getvalue()


def test_a_covered_time_is_answered_without_the_flag(engine: Engine) -> None:
    answer = engine.ask("How much is the late payment fee?", now=NOW,
                        as_of=datetime(2021, 6, 1, tzinfo=UTC))
    assert answer.status is not AnswerStatus.NOT_FOUND
    assert Flag.TIME_NOT_COVERED not in answer.flags and "uncovered" not in answer.to_json()


def test_after_the_last_version_ended(engine: Engine) -> None:
    answer = engine.ask("2023年逾期付款的滞纳金是多少？", now=NOW)
    assert answer.status is AnswerStatus.NOT_FOUND
    assert answer.to_json()["uncovered"]["start"] == "2022-07-01T00:00:00+00:00"
    assert answer.uncovered is not None and answer.uncovered.end is None
