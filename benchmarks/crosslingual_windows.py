"""Sentence-level multilingual relevance on XQuAD: would scoring the sentences of the first
candidates with multilingual-e5 (instead of the English cross-encoder, which cannot read
Chinese, or the chunk's own dense score) put the answer first more often?

    python benchmarks/crosslingual_windows.py [--data ../shared/data/xquad] [--limit 120]
        [--top 8] [--db DIR]

For each set (en-en, en-zh, zh-en, zh-zh) the default pipeline ranks the candidates; then
its first ``--top`` are reordered three ways and AR@1 / AR@5 are computed as
``chronorag eval retrieval`` does (answer string in a chunk, CJK character-wise):

* ``pipeline``: the order as it is (the baseline, same process);
* ``sentence max``: the best cosine of the question against "title: sentence" of each
  sentence of the chunk (e5 query/passage prefixes);
* ``sentence + chunk``: that plus the chunk's own dense cosine.

The last column is the query-time cost of embedding the candidates' sentences (what a
product would pay per question without sentence vectors stored at ingest).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from chronorag.engine import Engine
from chronorag.evaluate.harness import EVAL_NOW, load_questions, method_config
from chronorag.evaluate.metrics import answer_hit_ranks, recall_at
from chronorag.model import Hit
from chronorag.retrieve.embed_e5 import E5Embedder

ORDERS = ("pipeline", "sentence max", "sentence + chunk")


def _sentence_scores(e5: E5Embedder, question: str, head: list[Hit],
                     titles: dict[str, str]) -> tuple[list[float], float]:
    started = time.perf_counter()
    qv = e5.embed([question], kind="query")[0]
    texts, owner = [], []
    for i, hit in enumerate(head):
        title = titles.get(hit.chunk.doc_id, "")
        pieces = [s.text for s in hit.chunk.sentences] or [hit.chunk.text]
        texts += [f"{title}: {p}" if title else p for p in pieces]
        owner += [i] * len(pieces)
    matrix = e5.embed(texts, kind="passage")
    cosines = matrix @ qv
    best = [-1.0] * len(head)
    for i, value in zip(owner, cosines, strict=True):
        best[i] = max(best[i], float(value))
    return best, (time.perf_counter() - started) * 1000.0


def run_set(folder: Path, *, limit: int, top: int, db: Path | None,
            e5: E5Embedder) -> dict[str, object]:
    questions = load_questions(folder / "questions.jsonl", limit=limit)
    config = method_config("chronorag")
    ranks: dict[str, list[int | None]] = {name: [] for name in ORDERS}
    costs: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, \
            Engine(db / f"{folder.name}.db" if db else Path(tmp) / "x.db") as engine:
        engine.ingest([folder / "corpus.jsonl"], now=EVAL_NOW)
        titles = {d.id: d.title for d in engine.store.documents()}
        for q in questions:
            query = engine.query(q.text, now=EVAL_NOW, k=20)
            hits = list(engine.retrieve(query, config=config).hits[:20])
            head, tail = hits[:top], hits[top:]
            best, ms = _sentence_scores(e5, q.text, head, titles)
            costs.append(ms)
            dense = [h.scores.get("dense", 0.0) for h in head]
            orders = {
                "pipeline": list(range(len(head))),
                "sentence max": sorted(range(len(head)), key=lambda i: -best[i]),
                "sentence + chunk": sorted(range(len(head)), key=lambda i: -(best[i] + dense[i])),
            }
            for name, order in orders.items():
                texts = [head[i].chunk.text for i in order] + [h.chunk.text for h in tail]
                ranks[name].append(answer_hit_ranks(texts, q.answers))
    return {"questions": len(questions), "ranks": ranks, "ms_p50": float(np.median(costs))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2]
                                               / "shared" / "data" / "xquad"))
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--db", default=None, help="folder of <set>.db stores to reuse")
    args = parser.parse_args(argv)
    data = Path(args.data)
    sets = sorted(p for p in data.iterdir() if (p / "questions.jsonl").exists())
    if not sets:
        print(f"no benchmark sets under {data}", file=sys.stderr)
        return 2
    db = Path(args.db) if args.db else None
    e5 = E5Embedder()
    print("| set | questions | order | AR@1 | AR@5 | AR@1 ÷ pipeline | sentence embedding ms p50 |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for folder in sets:
        result = run_set(folder, limit=args.limit, top=args.top, db=db, e5=e5)
        ranks = result["ranks"]
        assert isinstance(ranks, dict)
        base = recall_at(ranks["pipeline"], 1) or 1.0
        for name in ORDERS:
            at1, at5 = recall_at(ranks[name], 1), recall_at(ranks[name], 5)
            print(f"| {folder.name} | {result['questions']} | {name} | {at1:.3f} | {at5:.3f} "
                  f"| {at1 / base:.2f} | {result['ms_p50']:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
