"""The eval harness over configurations of the caller's, without models (test embedder)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from chronorag.engine import Engine
from chronorag.errors import ConfigError
from chronorag.evaluate.harness import (
    EVAL_NOW,
    KS,
    Question,
    evaluate,
    evaluate_configs,
    load_questions,
    method_config,
)
from chronorag.retrieve.embedders import QueryMemo

PAGE = ("Port Elden is a fishing port. Henrik Dahl was mayor of Port Elden from 1985 to 1994. "
        "Ingrid Holm served until 2006. Pavel Novak was mayor from 2006 to 2018.")


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "corpus.jsonl").write_text(json.dumps(
        {"id": "/wiki/Port_Elden", "title": "Port Elden", "text": PAGE}) + "\n")
    questions = [("q1", "Who was mayor of Port Elden from 1985 to 1994?", "Henrik Dahl"),
                 ("q2", "Who was mayor of Port Elden from 2006 to 2018?", "Pavel Novak")]
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps({
        "id": qid, "question": text, "level": "easy", "answers": [answer],
        "evidence": [{"doc_id": "/wiki/Port_Elden", "start": PAGE.index(answer),
                      "end": PAGE.index(answer) + len(answer)}]}) + "\n"
        for qid, text, answer in questions))
    return tmp_path


def test_evaluate_configs_reports_each_configuration_under_its_name(
        tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    folder = _folder(tmp_path)
    questions = load_questions(folder / "questions.jsonl")
    with Engine(tmp_path / "kb.db", embedder="test-hash", judges=()) as engine:
        engine.ingest([folder / "corpus.jsonl"], now=EVAL_NOW)
        bm25 = method_config("bm25")
        results = evaluate_configs(engine, questions, {
            "keyword": bm25, "keyword, one candidate": replace(bm25, candidates=1)})
        by_method = evaluate(engine, questions, ["bm25"])
    assert list(results) == ["keyword", "keyword, one candidate"]
    assert results["keyword"].answer_ranks == by_method["bm25"].answer_ranks
    assert all(len(r.latencies_ms) == len(questions) for r in results.values())


def test_a_method_may_change_fields_of_its_preset_by_name() -> None:
    variant = method_config("chronorag@rerank_top=6@rerank_enough=none@late=@validity=false")
    assert variant == replace(method_config("chronorag"), name=variant.name, rerank_top=6,
                              rerank_enough=None, late="", validity=False)
    assert variant.name == "chronorag@rerank_top=6@rerank_enough=none@late=@validity=false"
    assert method_config("hybrid@retrievers=keyword@min_semantic=0.2").retrievers == (
        "keyword",)
    assert method_config("hybrid@index=store").index == "store"


@pytest.mark.parametrize("name, message", [
    ("chronorag@colour=red", "FIELD one of candidates, "),
    ("chronorag@rerank_top", "expected FIELD=VALUE"),
    ("chronorag@rerank_top=six", "rerank_top takes int, not 'six'"),
    ("chronorag@validity=maybe", "validity takes bool"),
    ("chronorag@weights=1", "weights takes tuple"),
    ("chronorag@index=cloud", "unknown index 'cloud'"),
    ("nope@rerank_top=6", "unknown search preset 'nope'"),
])
def test_a_change_no_field_can_take_is_refused_by_name(name: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        method_config(name)


# --- dated questions (LoCoMo-style): now, user, document-id evidence, categories ----------

DATED = [
    {"id": "D1:3", "text": "Caroline: I went to a LGBTQ support group yesterday and it was "
     "so powerful.", "occurred_at": "2023-05-08T13:56:00", "source_type": "record",
     "subject": "caroline"},
    {"id": "D1:5", "text": "Melanie: I painted a lake sunrise last year.",
     "occurred_at": "2023-05-08T14:02:00", "source_type": "record"},
    {"id": "D2:4", "text": "Melanie: We went camping with the kids at the beach last weekend.",
     "occurred_at": "2023-05-25T13:20:00", "source_type": "record"},
]


def _dated_engine(tmp_path: Path) -> Engine:
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in DATED))
    engine = Engine(tmp_path / "kb.db", embedder="test-hash", judges=())
    engine.ingest([tmp_path / "corpus.jsonl"], now=EVAL_NOW)
    return engine


def _ask(text: str, **fields: object) -> Question:
    return Question(str(fields.get("id", text)), text, str(fields.get("level", "temporal")),
                    tuple(fields.get("answers", ())),  # type: ignore[arg-type]
                    (), gold_docs=tuple(fields.get("docs", ())),  # type: ignore[arg-type]
                    now=fields.get("now"), user=fields.get("user"))  # type: ignore[arg-type]


def test_dated_questions_are_asked_at_their_own_now_by_their_user(
        tmp_path: Path, test_embedders: tuple[str, ...],
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[datetime, str | None]] = []
    with _dated_engine(tmp_path) as engine:
        real = engine.query

        def spy(question: str, **kwargs: Any) -> Any:
            query = real(question, **kwargs)
            asked.append((query.now, query.user))
            return query

        monkeypatch.setattr(engine, "query", spy)
        evaluate(engine, [_ask("When did Caroline go to the support group?",
                               now=datetime(2023, 6, 10, 9, 0), user="caroline"),
                          _ask("When did Melanie paint a sunrise?")], ["bm25"])
    # A naive now is read in the engine's zone (UTC); no now: the fixed EVAL_NOW.
    assert asked == [(datetime(2023, 6, 10, 9, 0, tzinfo=UTC), "caroline"), (EVAL_NOW, None)]


def test_dated_questions_score_document_evidence_and_short_answers_by_category(
        tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    june = datetime(2023, 6, 10, 9, 0)
    questions = [
        _ask("When did Caroline go to the LGBTQ support group?", answers=["7 May 2023"],
             docs=["D1:3"], now=june, user="caroline"),
        # The same question without its user: Caroline's record is not visible.
        _ask("When did Caroline go to the LGBTQ support group?", id="no user",
             answers=["7 May 2023"], docs=["D1:3"], now=june),
        _ask("When did Melanie paint a sunrise?", answers=["2022"], docs=["D1:5"], now=june),
        _ask("Where did Melanie and Caroline go?", level="multi-hop", answers=["beach"],
             docs=["D2:4", "D1:3"], now=june, user="caroline"),
        _ask("Which sunrise did Caroline paint?", level="adversarial", docs=["D1:5"],
             now=june),
    ]
    with _dated_engine(tmp_path) as engine:
        summary = evaluate(engine, questions, ["bm25"])["bm25"].summary()
    temporal = summary["temporal"]
    assert temporal["questions"] == temporal["evidence_questions"] == 3
    assert temporal["ER@1"] == pytest.approx(2 / 3) and temporal["ER@50"] == pytest.approx(2 / 3)
    # "7 May 2023 ("yesterday", said on 8 May 2023)" and "2022 ("last year", ...)" are
    # right by time; the question without its user finds no answer.
    assert temporal["SA"] == pytest.approx(2 / 3) and temporal["time_golds"] == 3
    assert summary["multi-hop"]["ER@50"] == 1.0 and summary["multi-hop"]["time_golds"] == 0
    # Evidence but no answer: scored for evidence, no AR or SA.
    adversarial = summary["adversarial"]
    assert adversarial["questions"] == 0 and adversarial["evidence_questions"] == 1
    assert adversarial["AR@1"] is None and adversarial["SA"] is None
    assert adversarial["ER@1"] == 1.0
    assert {f"AR@{k}" for k in KS} <= set(temporal) and KS[-1] == 50


def test_each_method_embeds_the_question_itself(
        tmp_path: Path, test_embedders: tuple[str, ...],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _folder(tmp_path)
    questions = load_questions(folder / "questions.jsonl")
    with Engine(tmp_path / "kb.db", embedder="test-hash", judges=()) as engine:
        engine.ingest([folder / "corpus.jsonl"], now=EVAL_NOW)
        memo = engine.components.embedder("test-hash")
        assert isinstance(memo, QueryMemo)
        embedded: list[str] = []
        inner = memo.inner.embed

        def count(texts: Sequence[str], *, kind: str = "passage") -> Any:
            if kind == "query":
                embedded.extend(texts)
            return inner(texts, kind=kind)

        monkeypatch.setattr(memo.inner, "embed", count)
        evaluate(engine, questions, ["dense", "bm25", "hybrid"])
    # Two methods with a dense retriever, two questions: four embeddings. Remembered, the
    # vector of the first would serve all (both questions' content is the same text).
    assert len(embedded) == 2 * len(questions)
