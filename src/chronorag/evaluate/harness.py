"""Run benchmark questions (TimeQA, XQuAD, dated LoCoMo-style) through several search
configurations in one process."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any

from chronorag.answer.build import build_answer
from chronorag.config import SearchConfig, get_preset
from chronorag.engine import Engine
from chronorag.errors import ConfigError
from chronorag.evaluate.metrics import (
    Span,
    answer_hit_ranks,
    evidence_rank,
    evidence_recall,
    judge_short_answer,
    mean,
    percentile,
    recall_at,
)
from chronorag.evaluate.questions import Question, load_questions
from chronorag.model import AnswerStatus, Granularity, Interval
from chronorag.retrieve.embedders import QueryMemo

__all__ = ["DEFAULT_METHODS", "EVAL_NOW", "KS", "MethodResult", "Question", "evaluate",
           "evaluate_configs", "load_questions", "method_config"]

log = logging.getLogger(__name__)

KS = (1, 5, 10, 20, 50)
DEFAULT_METHODS = ("bm25", "dense", "hybrid", "hybrid+rerank", "mrag", "chronorag")
# Questions are asked at a fixed moment so relative expressions cannot drift between runs;
# a question's own ``now`` (dated benchmarks) replaces it.
EVAL_NOW = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class MethodResult:
    """Per-question ranks and outcomes of one method, grouped by level.

    ``answer_ranks`` and ``short_answers`` hold the answerable questions (gold answers);
    ``evidence_ranks`` and ``evidence_recalls`` (recall at each of ``KS``) also hold
    questions with gold evidence but no answer (LoCoMo's adversarial ones). In TimeQA and
    XQuAD both sets are the same.
    """

    answer_ranks: dict[str, list[int | None]] = field(default_factory=dict)
    evidence_ranks: dict[str, list[int | None]] = field(default_factory=dict)
    evidence_recalls: dict[str, list[dict[int, float]]] = field(default_factory=dict)
    short_answers: dict[str, list[bool]] = field(default_factory=dict)
    time_golds: dict[str, int] = field(default_factory=dict)
    abstained_unanswerable: list[bool] = field(default_factory=list)
    answered_answerable: list[bool] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    stage_ms: dict[str, list[float]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {level: self._level_row(level) for level in
                               sorted({*self.answer_ranks, *self.evidence_recalls})}
        out["hard_unanswerable_abstained"] = _mean(self.abstained_unanswerable)
        out["hard_answerable_answered"] = _mean(self.answered_answerable)
        out["latency_ms"] = {"p50": percentile(self.latencies_ms, 50),
                             "p95": percentile(self.latencies_ms, 95)}
        out["stage_ms_p50"] = {s: percentile(v, 50) for s, v in sorted(self.stage_ms.items())}
        return out

    def _level_row(self, level: str) -> dict[str, Any]:
        """AR@k and SA over the level's answerable questions (None when it has none),
        ER@k over those with gold evidence or answers."""
        ranks = self.answer_ranks.get(level, [])
        recalls = self.evidence_recalls.get(level, [])
        row: dict[str, Any] = {f"AR@{k}": recall_at(ranks, k) if ranks else None for k in KS}
        row.update({f"ER@{k}": mean([r[k] for r in recalls]) for k in KS})
        row["questions"] = len(ranks)
        row["evidence_questions"] = len(recalls)
        row["SA"] = mean([float(right) for right in self.short_answers.get(level, [])])
        row["time_golds"] = self.time_golds.get(level, 0)
        return row


def _mean(values: Sequence[bool]) -> float:
    return sum(values) / len(values) if values else 0.0


def method_config(name: str) -> SearchConfig:
    """The search configuration a benchmark method name stands for: a preset
    ("chronorag" is the default), or a preset with fields changed, each as ``@field=value``
    ("chronorag@rerank_top=6@rerank_enough=none"), so a variant is measured beside its
    preset in one run by a command anyone can repeat."""
    preset, *changes = name.split("@")
    config = get_preset("default" if preset == "chronorag" else preset)
    if not changes:
        return config
    values = dict(_field_value(config, change) for change in changes)
    return replace(config, name=name, **values)


_SETTABLE = {"int": int, "float": float, "str": str, "float | None": float, "IndexPlace": str}


def _field_value(config: SearchConfig, change: str) -> tuple[str, Any]:
    """``field=value`` read by the field's type (``none`` for no value, ``a/b`` for a
    tuple of names); a field that cannot be set this way is refused by name."""
    key, sep, text = change.partition("=")
    kinds = {f.name: str(f.type) for f in fields(config) if f.name != "name"}
    kind = kinds.get(key)
    if not sep or kind is None:
        raise ConfigError(f"method change {change!r}: expected FIELD=VALUE with FIELD one of "
                          f"{', '.join(sorted(kinds))}")
    try:
        if text == "none" and kind.endswith("| None"):
            return key, None
        if kind == "bool" and text in ("true", "false"):
            return key, text == "true"
        if kind == "tuple[str, ...]":
            return key, tuple(t for t in text.split("/") if t)
        return key, _SETTABLE[kind](text)
    except (KeyError, ValueError):
        raise ConfigError(f"method change {change!r}: {key} takes {kind}, "
                          f"not {text!r}") from None


def evaluate(
    engine: Engine,
    questions: Sequence[Question],
    methods: Sequence[str],
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, MethodResult]:
    """Every question through every method; ranks of answers and evidence in the top 50.

    Each method searches with the store's embedder and judges (a store built with another
    embedder than the presets' is searched as it was built, not refused).
    """
    configs = {m: replace(method_config(m), embedder=engine.config.embedder,
                          judges=engine.config.judges) for m in methods}
    return evaluate_configs(engine, questions, configs, on_progress=on_progress)


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


def forget_question_vectors(engine: Engine, config: SearchConfig) -> None:
    """Drop the question vectors the engine's embedders remember (``QueryMemo``), so the
    next method embeds the question itself: otherwise every method after the first reuses
    the first one's vector, and its latency looks smaller than it is."""
    for name in dict.fromkeys((config.embedder, *config.judges)):
        embedder = engine.components.embedder(name)  # built lazily: no model loads here
        if isinstance(embedder, QueryMemo):
            embedder.forget()


def _run_one(engine: Engine, q: Question, config: SearchConfig, result: MethodResult) -> None:
    forget_question_vectors(engine, config)
    started = time.perf_counter()
    query = engine.query(q.text, now=q.now or EVAL_NOW, user=q.user, k=max(KS))
    ranked = engine.retrieve(query, config=config)
    answer = build_answer(query, ranked.hits, documents=ranked.documents,
                          min_semantic=config.min_semantic)
    result.latencies_ms.append((time.perf_counter() - started) * 1000.0)
    for stage, ms in ranked.timings_ms.items():
        result.stage_ms.setdefault(stage, []).append(ms)
    answered = answer.status is AnswerStatus.ANSWERED
    if q.level == "hard" and q.answers:
        result.answered_answerable.append(answered)
    elif q.level == "hard":
        result.abstained_unanswerable.append(not answered)
    top = ranked.hits[: max(KS)]
    if q.answers or q.gold:
        spans = [Span(h.chunk.doc_id, h.chunk.start, h.chunk.end) for h in top]
        result.evidence_ranks.setdefault(q.level, []).append(evidence_rank(spans, q.gold))
        result.evidence_recalls.setdefault(q.level, []).append(
            {k: evidence_recall(spans, q.gold, k=k) for k in KS})
    if not q.answers:
        return
    result.answer_ranks.setdefault(q.level, []).append(
        answer_hit_ranks([h.chunk.text for h in top], q.answers))
    verdict = judge_short_answer(answer.answer, q.answers, now=query.now, tz=query.tz,
                                 stated=stated_time(answer.extras.get("answer_time")))
    result.short_answers.setdefault(q.level, []).append(verdict.right)
    result.time_golds[q.level] = result.time_golds.get(q.level, 0) + verdict.time_golds


def stated_time(payload: Any) -> Interval | None:
    """The interval of an answer's ``answer_time`` (``answer.when``), when it has one."""
    if not isinstance(payload, dict) or not payload.get("start") or not payload.get("end"):
        return None
    gran = payload.get("granularity")
    return Interval(datetime.fromisoformat(payload["start"]),
                    datetime.fromisoformat(payload["end"]),
                    Granularity(gran) if gran else None)
