"""Loading questions.jsonl: TimeQA spans, LoCoMo-style document ids, categories, now, user."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from chronorag.errors import ValidationError
from chronorag.evaluate.metrics import GoldEvidence, Span
from chronorag.evaluate.questions import DEFAULT_LEVEL, Question, load_questions


def _write(tmp_path: Path, *rows: dict[str, Any] | str) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n"
                            for r in rows), encoding="utf-8")
    return path


def test_a_timeqa_line_loads_as_before(tmp_path: Path) -> None:
    path = _write(tmp_path, {"id": "q1", "question": "Who?", "level": "hard",
                             "answers": ["Vologda Governorate"],
                             "evidence": [{"doc_id": "/wiki/Vologda", "start": 11177,
                                           "end": 11196}]})
    [q] = load_questions(path)
    assert q == Question("q1", "Who?", "hard", ("Vologda Governorate",),
                         (Span("/wiki/Vologda", 11177, 11196),))
    assert q.now is None and q.user is None and q.gold_docs == ()
    assert q.gold == GoldEvidence(spans=(Span("/wiki/Vologda", 11177, 11196),))


def test_a_dated_line_with_document_ids(tmp_path: Path) -> None:
    path = _write(tmp_path, {
        "id": "conv-26:q3", "question": "When did Caroline go to the support group?",
        "answers": ["7 May 2023"], "evidence": ["D1:3", "D1:3", "D2:8"], "category": 2,
        "category_name": "temporal", "now": "2023-05-08T13:56:00+02:00", "user": "caroline"})
    [q] = load_questions(path)
    assert q.level == "temporal"  # the name wins over the number
    assert q.evidence == () and q.gold_docs == ("D1:3", "D2:8")  # distinct, in order
    assert q.gold == GoldEvidence(docs=("D1:3", "D2:8"))
    assert q.now == datetime(2023, 5, 8, 13, 56, tzinfo=timezone(timedelta(hours=2)))
    assert q.user == "caroline"


def test_levels_fall_back_from_level_to_category_name_to_category(tmp_path: Path) -> None:
    base = {"question": "?"}
    path = _write(tmp_path, {**base, "id": "a", "level": "easy", "category_name": "x"},
                  {**base, "id": "b", "category_name": "multi-hop", "category": 1},
                  {**base, "id": "c", "category": 5},
                  {**base, "id": "d"})
    assert [q.level for q in load_questions(path)] == ["easy", "multi-hop", "5", DEFAULT_LEVEL]


def test_naive_now_stays_naive_for_the_engine_to_read_in_its_zone(tmp_path: Path) -> None:
    path = _write(tmp_path, {"id": "a", "question": "?", "now": "2023-05-08T13:56:00"},
                  {"id": "b", "question": "?", "now": "2023-05-08"},
                  {"id": "c", "question": "?", "now": "2023-05-08T13:56:00Z"})
    nows = [q.now for q in load_questions(path)]
    assert nows[0] == datetime(2023, 5, 8, 13, 56) and nows[0].tzinfo is None
    assert nows[1] == datetime(2023, 5, 8)
    assert nows[2] == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_answers_and_evidence_are_optional(tmp_path: Path) -> None:
    path = _write(tmp_path, {"id": "adv", "question": "What did Caroline paint?",
                             "answers": [], "evidence": ["D3:1"]},
                  {"id": "bare", "question": "Anything?"})
    adversarial, bare = load_questions(path)
    assert adversarial.answers == () and adversarial.gold_docs == ("D3:1",)
    assert bare.answers == () and not bare.gold


def test_every_malformed_line_is_reported_with_file_line_and_field(tmp_path: Path) -> None:
    path = _write(tmp_path,
                  {"id": "ok", "question": "?"},
                  {"question": "no id"},
                  {"id": "mix", "question": "?", "evidence": ["D1:1", {"doc_id": "D1", "start":
                                                                        0, "end": 4}]},
                  {"id": "when", "question": "?", "now": "8 May 2023"},
                  {"id": "span", "question": "?", "evidence": [{"doc_id": "D1"}]},
                  "not json",
                  {"id": "who", "question": "?", "user": 7, "answers": "Max"})
    with pytest.raises(ValidationError) as caught:
        load_questions(path)
    where = [(e.line, e.field) for e in caught.value.errors]
    assert where == [(2, "id"), (3, "evidence"), (4, "now"), (5, "evidence"), (6, "line"),
                     (7, "answers"), (7, "user")]
    assert all(e.path == str(path) for e in caught.value.errors)
    assert "ISO 8601" in str(caught.value)


def test_limit_samples_evenly(tmp_path: Path) -> None:
    path = _write(tmp_path, *({"id": str(i), "question": "?"} for i in range(10)))
    assert [q.id for q in load_questions(path, limit=5)] == ["0", "2", "4", "6", "8"]
    assert len(load_questions(path, limit=50)) == 10
