"""`ask` latency p50/p95 with a per-stage breakdown, against retrieval alone (same process).

    python benchmarks/ask_latency.py [--questions 100] [--db benchmarks/out/timeqa.db]

Ingests the TimeQA corpus into --db when it is empty. The baseline row is the same
questions through hybrid retrieval without reranking or temporal scoring, so the ratio
shows what ranking adds on this machine.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime

from timeqa_store import DATA, ROOT, open_timeqa

from chronorag.answer.build import build_answer
from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.evaluate.harness import load_questions
from chronorag.evaluate.metrics import percentile

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def run(engine: Engine, questions: list[str], preset: str) -> tuple[list[float], dict]:
    config = get_preset(preset)
    totals: list[float] = []
    stages: dict[str, list[float]] = {}
    for text in questions:
        started = time.perf_counter()
        t0 = time.perf_counter()
        query = engine.query(text, now=NOW)
        stages.setdefault("understand", []).append((time.perf_counter() - t0) * 1000)
        ranked = engine.retrieve(query, config=config)
        t0 = time.perf_counter()
        build_answer(query, ranked.hits, upcoming=ranked.upcoming, documents=ranked.documents,
                     min_semantic=config.min_semantic)
        stages.setdefault("answer", []).append((time.perf_counter() - t0) * 1000)
        for stage, ms in ranked.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
        totals.append((time.perf_counter() - started) * 1000)
    return totals, stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--db", default=str(ROOT / "benchmarks/out/timeqa.db"))
    parser.add_argument("--preset", default="default")
    args = parser.parse_args()
    with open_timeqa(args.db) as engine:
        questions = [q.text for q in load_questions(DATA / "questions.jsonl",
                                                     limit=args.questions)]
        run(engine, questions[:3], args.preset)  # warm-up: models load once per process
        base, _ = run(engine, questions, "hybrid")
        totals, stages = run(engine, questions, args.preset)
    print("| pipeline | p50 ms | p95 ms | ratio p50 vs hybrid |\n|---|---|---|---|")
    print(f"| hybrid (baseline) | {percentile(base, 50):.0f} | {percentile(base, 95):.0f} | 1.0 |")
    print(f"| {args.preset} | {percentile(totals, 50):.0f} | {percentile(totals, 95):.0f} | "
          f"{percentile(totals, 50) / max(percentile(base, 50), 1e-9):.1f} |")
    print("\n| stage | p50 ms | p95 ms |\n|---|---|---|")
    for stage, values in stages.items():
        print(f"| {stage} | {percentile(values, 50):.1f} | {percentile(values, 95):.1f} |")


if __name__ == "__main__":
    main()
