"""Cross-encoder time for 16 sentence windows: one padded batch vs length-sorted batches.

    python benchmarks/rerank_batching.py [--questions 150] [--db benchmarks/out/timeqa-e5.db]

For each TimeQA question, the 16 windows are the first two sentences of the 8 best hybrid
passages, each prefixed with its page title (the shape the default pipeline judges). Each
configuration scores the same pairs, interleaved question by question so machine noise hits
all alike; the baseline is one batch of 16 (everything padded to the longest pair).
"""

from __future__ import annotations

import argparse
import time

from timeqa_store import DATA, DEFAULT_DB, open_timeqa

from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.evaluate.harness import EVAL_NOW, load_questions
from chronorag.evaluate.metrics import percentile
from chronorag.rank.rerank_ce import CrossEncoderReranker

BATCHES = (16, 8, 4)


def windows(engine: Engine, question: str, *, titles: dict[str, str]) -> list[str]:
    query = engine.query(question, now=EVAL_NOW)
    hits = engine.retrieve(query, config=get_preset("hybrid")).hits[:8]
    return [f"{titles.get(h.chunk.doc_id, '')}: {s.text}" for h in hits
            for s in h.chunk.sentences[:2]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=150)
    parser.add_argument("--db", default=str(DEFAULT_DB))
    args = parser.parse_args()
    model = CrossEncoderReranker(max_length=128)
    with open_timeqa(args.db) as engine:
        titles = {d.id: d.title for d in engine.store.documents()}
        questions = [q.text for q in load_questions(DATA / "questions.jsonl",
                                                     limit=args.questions)]
        pairs = [(q, windows(engine, q, titles=titles)) for q in questions]
    model.score(*pairs[0])  # warm-up: the model loads once
    times: dict[int, list[float]] = {b: [] for b in BATCHES}
    for question, texts in pairs:
        for size in BATCHES:
            model.batch_size = size
            started = time.perf_counter()
            model.score(question, texts)
            times[size].append((time.perf_counter() - started) * 1000)
    base = percentile(times[BATCHES[0]], 50)
    print("| batches | p50 ms | p95 ms | ratio p50 vs one batch |\n|---|---|---|---|")
    for size in BATCHES:
        label = "one of 16 (baseline)" if size == 16 else f"length-sorted, {size} a batch"
        p50 = percentile(times[size], 50)
        print(f"| {label} | {p50:.0f} | {percentile(times[size], 95):.0f} | "
              f"{p50 / base:.2f} |")


if __name__ == "__main__":
    main()
