"""Keyword index choice: bm25s in memory vs SQLite FTS5 over pre-segmented text.

    python benchmarks/keyword_index.py [--pages 0]

Both index the same TimeQA chunks tokenized by ``chronorag.retrieve.tokenize`` (FTS5
gets the tokens joined by spaces, so English and Chinese are segmented identically).
Reports index build time, p50/p95 query latency, AR@5/ER@5 and top-5 agreement.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from collections.abc import Sequence

import numpy as np
from dense_models import MemoryStore, make_query, score_timeqa, timeqa_sample

from chronorag.model import Chunk, Hit
from chronorag.retrieve.keyword import Bm25Index, KeywordRetriever
from chronorag.retrieve.tokenize import tokenize


class Fts5Index:
    """SQLite FTS5 (its built-in bm25 ranking) over space-joined tokens, in memory."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks = list(chunks)
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE fts USING fts5(body, tokenize='unicode61 "
                        "remove_diacritics 0')")
        with self.db:
            self.db.executemany("INSERT INTO fts(rowid, body) VALUES (?, ?)", (
                (i, " ".join(tokenize(c.text))) for i, c in enumerate(self.chunks)))

    def search(self, text: str, *, limit: int) -> list[Hit]:
        terms = dict.fromkeys(tokenize(text))
        if not terms:
            return []
        match = " OR ".join(f'"{t}"' for t in terms)
        rows = self.db.execute(
            "SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT ?",
            (match, limit)).fetchall()
        return [Hit(chunk=self.chunks[r], score=-s, scores={"bm25": -s}) for r, s in rows]


def timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=0, help="TimeQA pages (0 = all 179)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    chunks, questions = timeqa_sample(pages=args.pages, seed=args.seed)
    tokenize("warm up 预热")  # jieba's dictionary load is not part of either index
    print(f"{len(chunks)} chunks, {len(questions)} answerable questions")
    _bm25, bm25_build = timed(lambda: Bm25Index.build(chunks))
    fts, fts_build = timed(lambda: Fts5Index(chunks))
    store = MemoryStore(chunks)
    retriever = KeywordRetriever(store)  # type: ignore[arg-type]
    retriever.index()
    backends = {
        "bm25s (memory)": lambda t: retriever.retrieve(make_query(t), limit=5),
        "sqlite fts5": lambda t: fts.search(t, limit=5),
    }
    builds = {"bm25s (memory)": bm25_build, "sqlite fts5": fts_build}
    tops: dict[str, list[list[str]]] = {}
    print(f"{'backend':16} {'build_s':>8} {'p50_ms':>7} {'p95_ms':>7} {'AR@1':>6} {'AR@5':>6} "
          f"{'ER@5':>6}")
    for name, search in backends.items():
        latencies = []
        for q in questions:
            _, seconds = timed(lambda q=q, search=search: search(q.text))
            latencies.append(seconds * 1000)
        tops[name] = [[h.chunk.id for h in search(q.text)] for q in questions]
        m = score_timeqa(search, questions)
        print(f"{name:16} {builds[name]:8.2f} {np.median(latencies):7.2f} "
              f"{np.percentile(latencies, 95):7.2f} {m['AR@1']:6.3f} {m['AR@5']:6.3f} "
              f"{m['ER@5']:6.3f}")
    a, b = tops.values()
    same_top1 = np.mean([x[:1] == y[:1] for x, y in zip(a, b, strict=True)])
    overlap5 = np.mean([len(set(x) & set(y)) / max(len(set(x) | set(y)), 1)
                        for x, y in zip(a, b, strict=True)])
    print(f"agreement: same top-1 {same_top1:.3f}, top-5 Jaccard {overlap5:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
