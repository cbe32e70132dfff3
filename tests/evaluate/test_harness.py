"""The eval harness over configurations of the caller's, without models (test embedder)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from chronorag.engine import Engine
from chronorag.evaluate.harness import (
    EVAL_NOW,
    evaluate,
    evaluate_configs,
    load_questions,
    method_config,
)

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
    with Engine(tmp_path / "kb.db", embedder="test-hash") as engine:
        engine.ingest([folder / "corpus.jsonl"], now=EVAL_NOW)
        bm25 = method_config("bm25")
        results = evaluate_configs(engine, questions, {
            "keyword": bm25, "keyword, one candidate": replace(bm25, candidates=1)})
        by_method = evaluate(engine, questions, ["bm25"])
    assert list(results) == ["keyword", "keyword, one candidate"]
    assert results["keyword"].answer_ranks == by_method["bm25"].answer_ranks
    assert all(len(r.latencies_ms) == len(questions) for r in results.values())
