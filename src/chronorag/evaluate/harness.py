"""Run TimeQA-format questions through several search configurations in one process."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from chronorag.answer.build import build_answer
from chronorag.config import SearchConfig, get_preset
from chronorag.engine import Engine
from chronorag.evaluate.metrics import (
    Span,
    answer_hit_ranks,
    evidence_hit_rank,
    percentile,
    recall_at,
)
from chronorag.model import AnswerStatus

log = logging.getLogger(__name__)

KS = (1, 5, 10, 20)
DEFAULT_METHODS = ("bm25", "dense", "hybrid", "hybrid+rerank", "mrag", "chronorag")
# Questions are asked at a fixed moment so relative expressions cannot drift between runs.
EVAL_NOW = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    level: str
    answers: tuple[str, ...]
    evidence: tuple[Span, ...]


@dataclass
class MethodResult:
    """Per-question ranks and outcomes of one method."""

    answer_ranks: dict[str, list[int | None]] = field(default_factory=dict)
    evidence_ranks: dict[str, list[int | None]] = field(default_factory=dict)
    abstained_unanswerable: list[bool] = field(default_factory=list)
    answered_answerable: list[bool] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    stage_ms: dict[str, list[float]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for level, ranks in sorted(self.answer_ranks.items()):
            row = {f"AR@{k}": recall_at(ranks, k) for k in KS}
            row.update({f"ER@{k}": recall_at(self.evidence_ranks[level], k) for k in KS})
            row["questions"] = len(ranks)
            out[level] = row
        out["hard_unanswerable_abstained"] = _mean(self.abstained_unanswerable)
        out["hard_answerable_answered"] = _mean(self.answered_answerable)
        out["latency_ms"] = {"p50": percentile(self.latencies_ms, 50),
                             "p95": percentile(self.latencies_ms, 95)}
        out["stage_ms_p50"] = {s: percentile(v, 50) for s, v in sorted(self.stage_ms.items())}
        return out


def _mean(values: Sequence[bool]) -> float:
    return sum(values) / len(values) if values else 0.0


def method_config(name: str) -> SearchConfig:
    """The search configuration a benchmark method name stands for."""
    return get_preset("default" if name == "chronorag" else name)


def load_questions(path: Path, *, limit: int | None = None) -> list[Question]:
    questions = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            raw = json.loads(line)
            spans = tuple(Span(e["doc_id"], e["start"], e["end"]) for e in raw["evidence"])
            questions.append(Question(raw["id"], raw["question"], raw["level"],
                                      tuple(raw["answers"]), spans))
    if not limit or limit >= len(questions):
        return questions
    # An evenly spaced sample: the file is grouped by page, so a prefix would see few pages.
    step = len(questions) / limit
    return [questions[int(i * step)] for i in range(limit)]


def evaluate(
    engine: Engine,
    questions: Sequence[Question],
    methods: Sequence[str],
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, MethodResult]:
    """Every question through every method; ranks of answers and evidence in the top 20."""
    return evaluate_configs(engine, questions, {m: method_config(m) for m in methods},
                            on_progress=on_progress)


def evaluate_configs(
    engine: Engine,
    questions: Sequence[Question],
    configs: Mapping[str, SearchConfig],
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, MethodResult]:
    """``evaluate`` with search configurations of the caller's (by the name to report)."""
    results = {m: MethodResult() for m in configs}
    for i, q in enumerate(questions, 1):
        for name, config in configs.items():
            _run_one(engine, q, config, results[name])
        if on_progress is not None:
            on_progress(i, len(questions))
    return results


def _run_one(engine: Engine, q: Question, config: SearchConfig, result: MethodResult) -> None:
    started = time.perf_counter()
    query = engine.query(q.text, now=EVAL_NOW, k=max(KS))
    ranked = engine.retrieve(query, config=config)
    answer = build_answer(query, ranked.hits, documents=ranked.documents,
                          min_semantic=config.min_semantic)
    result.latencies_ms.append((time.perf_counter() - started) * 1000.0)
    for stage, ms in ranked.timings_ms.items():
        result.stage_ms.setdefault(stage, []).append(ms)
    answered = answer.status is AnswerStatus.ANSWERED
    if not q.answers:
        if q.level == "hard":
            result.abstained_unanswerable.append(not answered)
        return
    if q.level == "hard":
        result.answered_answerable.append(answered)
    top = ranked.hits[: max(KS)]
    result.answer_ranks.setdefault(q.level, []).append(
        answer_hit_ranks([h.chunk.text for h in top], q.answers))
    result.evidence_ranks.setdefault(q.level, []).append(
        evidence_hit_rank([Span(h.chunk.doc_id, h.chunk.start, h.chunk.end) for h in top],
                          q.evidence))
