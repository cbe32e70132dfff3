"""Dense models on TimeQA (English) and a small Chinese set: quality and encode speed.

    python benchmarks/dense_models.py [--pages 40] [--models use-m3,e5-small] [--rerank]

TimeQA pages (shared/data/timeqa/corpus.jsonl) are chunked with chronorag's own chunker
(~120-word sentence-aligned targets); a seeded sample of ``--pages`` pages keeps the run
short on 2 cores (all answerable questions of those pages are asked). AR@5: an answer
string appears (NFD, lowercased, token sequence) in a top-5 chunk; ER@5: a top-5 chunk
overlaps the gold evidence span. Questions are asked verbatim (time expression included).
Embeddings are cached under $TMPDIR/chronorag-bench so reruns only pay for new texts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from chronorag.evaluate.metrics import Span, answer_hit_ranks, evidence_hit_rank, recall_at
from chronorag.ingest import chunk_document
from chronorag.model import Chunk, Document, Hit, Query, Understanding
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.dense import DenseRetriever
from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.retrieve.keyword import KeywordRetriever

ROOT = Path(__file__).resolve().parent
TIMEQA = Path("/work/shared/data/timeqa")
ZH_SET = ROOT / "data" / "zh_retrieval.jsonl"
CACHE = Path(tempfile.gettempdir()) / "chronorag-bench"


@dataclass(frozen=True)
class Question:
    text: str
    answers: tuple[str, ...]
    evidence: tuple[Span, ...]


class MemoryStore:
    """Just enough of the Store protocol for retrievers: chunks, vectors, generation."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self._chunks = {c.id: c for c in chunks}
        self._vectors: dict[str, tuple[list[str], np.ndarray]] = {}

    def put_vectors(self, name: str, matrix: np.ndarray) -> None:
        self._vectors[name] = (list(self._chunks), matrix)

    def chunks(self, ids: Sequence[str] | None = None) -> list[Chunk]:
        if ids is None:
            return list(self._chunks.values())
        return [self._chunks[i] for i in ids if i in self._chunks]

    def vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        return self._vectors[embedder]

    def generation(self) -> int:
        return 1


def make_query(text: str) -> Query:
    from datetime import UTC, datetime

    now = datetime(2026, 1, 1, tzinfo=UTC)
    return Query(text=text, now=now, as_of=now,
                 understanding=Understanding(question=text, content=text))


def timeqa_sample(*, pages: int, seed: int, target_words: int = 120,
                  ) -> tuple[list[Chunk], list[Question]]:
    """Chunks of ``pages`` seeded-random pages (0 = all) and their answerable questions."""
    docs = [json.loads(line) for line in (TIMEQA / "corpus.jsonl").open()]
    if pages:
        docs = random.Random(seed).sample(docs, min(pages, len(docs)))
    keep = {d["id"] for d in docs}
    max_words = max(200, target_words * 5 // 3)
    chunks = [c for d in docs for c in chunk_document(
        Document(id=d["id"], text=d["text"], title=d["title"]),
        target_words=target_words, max_words=max_words)]
    questions = []
    for line in (TIMEQA / "questions.jsonl").open():
        q = json.loads(line)
        spans = tuple(Span(e["doc_id"], e["start"], e["end"]) for e in q["evidence"])
        if q["answers"] and spans and spans[0].doc_id in keep:
            questions.append(Question(q["question"], tuple(q["answers"]), spans))
    return chunks, questions


def embed_cached(embedder: Embedder, texts: Sequence[str], *, kind: str = "passage",
                 ) -> tuple[np.ndarray, float | None]:
    """Embeddings (cached on disk) and texts/s when they had to be computed."""
    key = hashlib.sha256("\x00".join([embedder.name, kind, *texts]).encode()).hexdigest()[:16]
    path = CACHE / f"{embedder.name}-{kind}-{key}.npy"
    if path.exists():
        return np.load(path), None
    start = time.perf_counter()
    matrix = embedder.embed(texts, kind=kind)
    rate = len(texts) / (time.perf_counter() - start)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, matrix)
    return matrix, rate


def throughput(embedder: Embedder, texts: Sequence[str], *, n: int = 48) -> float:
    embedder.embed(texts[:2])  # load the model outside the timing
    start = time.perf_counter()
    embedder.embed(texts[:n])
    return min(n, len(texts)) / (time.perf_counter() - start)


def score_timeqa(search: Callable[[str], list[Hit]], questions: Sequence[Question],
                 ) -> dict[str, float]:
    """AR@1/5, ER@5 and p50 latency of ``search`` over ``questions``."""
    ar, er, times = [], [], []
    for q in questions:
        start = time.perf_counter()
        hits = search(q.text)
        times.append(time.perf_counter() - start)
        ar.append(answer_hit_ranks([h.chunk.text for h in hits], q.answers))
        er.append(evidence_hit_rank(
            [Span(h.chunk.doc_id, h.chunk.start, h.chunk.end) for h in hits], q.evidence))
    return {"AR@1": recall_at(ar, 1), "AR@5": recall_at(ar, 5), "ER@5": recall_at(er, 5),
            "p50_ms": float(np.median(times) * 1000)}


class Precomputed:
    """An embedder answering from vectors computed in one batch (queries are known)."""

    def __init__(self, embedder: Embedder, texts: Sequence[str]) -> None:
        self.name, self.dim, self.scale = embedder.name, embedder.dim, embedder.scale
        matrix, _ = embed_cached(embedder, list(texts), kind="query")
        self._rows = dict(zip(texts, matrix, strict=True))

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        return np.stack([self._rows[t] for t in texts])


def query_latency_ms(embedder: Embedder, texts: Sequence[str], *, n: int = 20) -> float:
    times = []
    for text in texts[:n]:
        start = time.perf_counter()
        embedder.embed([text], kind="query")
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1000)


def dense_search(store: MemoryStore, embedder: Embedder, chunks: Sequence[Chunk],
                 queries: Sequence[str]) -> Callable[[str], list[Hit]]:
    """Dense retrieval over ``chunks``; query vectors are batch-embedded up front."""
    matrix, _ = embed_cached(embedder, [c.text for c in chunks])
    store.put_vectors(embedder.name, matrix)
    retriever = DenseRetriever(store, Precomputed(embedder, queries))  # type: ignore[arg-type]
    return lambda text: retriever.retrieve(make_query(text), limit=5)


def zh_queries() -> list[str]:
    return [r["text"] for r in map(json.loads, ZH_SET.open()) if r["kind"] == "query"]


def zh_recall(search: Callable[[str], list[Hit]]) -> dict[str, float]:
    queries = [r for r in map(json.loads, ZH_SET.open()) if r["kind"] == "query"]
    ranks = []
    for q in queries:
        ids = [h.chunk.doc_id for h in search(q["text"])]
        ranks.append(ids.index(q["gold"]) + 1 if q["gold"] in ids else None)
    return {"R@1": recall_at(ranks, 1), "R@5": recall_at(ranks, 5)}


def zh_store() -> MemoryStore:
    passages = [r for r in map(json.loads, ZH_SET.open()) if r["kind"] == "passage"]
    return MemoryStore([Chunk(id=p["id"], doc_id=p["id"], index=0, start=0,
                              end=len(p["text"]), text=p["text"]) for p in passages])


def reorder(hits: Sequence[Hit], values: Sequence[float], depth: int) -> list[Hit]:
    """The first ``depth`` hits sorted by ``values`` (desc), the rest unchanged."""
    head = sorted(range(min(depth, len(hits))), key=lambda i: -values[i])
    return [hits[i] for i in head] + list(hits[depth:])


def rerank_study(store: MemoryStore, chunks: Sequence[Chunk], questions: Sequence[Question],
                 *, n: int, seed: int) -> None:
    """Hybrid (bm25 + use-m3, rrf) top-50, then cross-encoder / colbert at several depths."""
    from colbert_reranker import ColbertReranker

    from chronorag.rank.rerank_ce import CrossEncoderReranker
    from chronorag.retrieve.fusion import rrf_fuse

    sample = random.Random(seed).sample(list(questions), min(n, len(questions)))
    bm25 = KeywordRetriever(store)  # type: ignore[arg-type]
    use = EMBEDDERS.create("use-m3")
    store.put_vectors(use.name, embed_cached(use, [c.text for c in chunks])[0])
    dense = DenseRetriever(store, use)  # type: ignore[arg-type]
    models = {"ce256": CrossEncoderReranker(max_length=256),
              "ce128": CrossEncoderReranker(max_length=128),
              "colbert": ColbertReranker(max_length=256)}
    settings = [("hybrid rrf (no rerank)", None, 0), ("ce256 top-10", "ce256", 10),
                ("ce256 top-20", "ce256", 20), ("ce256 top-30", "ce256", 30),
                ("ce256 top-50", "ce256", 50), ("ce128 top-20", "ce128", 20),
                ("ce128 top-50", "ce128", 50), ("colbert top-20", "colbert", 20),
                ("colbert top-50", "colbert", 50)]
    ranked: dict[str, list[list[Hit]]] = {name: [] for name, _, _ in settings}
    cost: dict[str, list[float]] = {name: [] for name, _, _ in settings}
    for q in sample:
        query = make_query(q.text)
        hits = rrf_fuse([bm25.retrieve(query, limit=50), dense.retrieve(query, limit=50)],
                        limit=50)
        cache: dict[str, tuple[np.ndarray, float]] = {}
        for name, model, depth in settings:
            if model is None:
                ranked[name].append(hits)
                cost[name].append(0.0)
                continue
            if model not in cache:  # score all 50 once; time each depth separately below
                start = time.perf_counter()
                cache[model] = (models[model].score(q.text, [h.chunk.text for h in hits]),
                                (time.perf_counter() - start) / max(len(hits), 1))
            values, per_pair = cache[model]
            ranked[name].append(reorder(hits, list(values), depth))
            cost[name].append(per_pair * min(depth, len(hits)) * 1000)
    print(f"\nrerank study: {len(sample)} questions, hybrid top-50 candidates")
    print(f"{'setting':24} {'AR@1':>6} {'AR@5':>6} {'ER@1':>6} {'ER@5':>6} {'ms/q':>7}")
    for name, _, _ in settings:
        ar = [answer_hit_ranks([h.chunk.text for h in hs], q.answers)
              for hs, q in zip(ranked[name], sample, strict=True)]
        er = [evidence_hit_rank([Span(h.chunk.doc_id, h.chunk.start, h.chunk.end) for h in hs],
                                q.evidence) for hs, q in zip(ranked[name], sample, strict=True)]
        print(f"{name:24} {recall_at(ar, 1):6.3f} {recall_at(ar, 5):6.3f} {recall_at(er, 1):6.3f}"
              f" {recall_at(er, 5):6.3f} {np.median(cost[name]):7.0f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=40, help="TimeQA pages (0 = all 179)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--models", default="use-m3,e5-small")
    parser.add_argument("--target-words", type=int, default=120)
    parser.add_argument("--rerank", action="store_true", help="also run the rerank study")
    parser.add_argument("--rerank-questions", type=int, default=80)
    args = parser.parse_args(argv)
    chunks, questions = timeqa_sample(pages=args.pages, seed=args.seed,
                                      target_words=args.target_words)
    print(f"TimeQA: {args.pages or 179} pages, {len(chunks)} chunks, {len(questions)} "
          f"answerable questions; ZH set: {ZH_SET.name}")
    store = MemoryStore(chunks)
    rows = []
    bm25 = KeywordRetriever(store)  # type: ignore[arg-type]
    en = score_timeqa(lambda t: bm25.retrieve(make_query(t), limit=5), questions)
    zstore = zh_store()
    zbm25 = KeywordRetriever(zstore)  # type: ignore[arg-type]
    rows.append(("bm25 (reference)", en, zh_recall(
        lambda t: zbm25.retrieve(make_query(t), limit=5)), float("nan")))
    for name in args.models.split(","):
        embedder = EMBEDDERS.create(name)
        rate = throughput(embedder, [c.text for c in chunks])
        texts = [q.text for q in questions]
        en = score_timeqa(dense_search(store, embedder, chunks, texts), questions)
        en["p50_ms"] += query_latency_ms(embedder, texts)  # search + one query embedding
        zh = zh_recall(dense_search(zstore, embedder, zstore.chunks(), zh_queries()))
        rows.append((name, en, zh, rate))
    print(f"{'method':18} {'AR@1':>6} {'AR@5':>6} {'ER@5':>6} {'p50ms':>7} "
          f"{'zhR@1':>6} {'zhR@5':>6} {'enc/s':>7}")
    for name, en, zh, rate in rows:
        print(f"{name:18} {en['AR@1']:6.3f} {en['AR@5']:6.3f} {en['ER@5']:6.3f} "
              f"{en['p50_ms']:7.1f} {zh['R@1']:6.3f} {zh['R@5']:6.3f} {rate:7.1f}")
    if args.rerank:
        rerank_study(store, chunks, questions, n=args.rerank_questions, seed=args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
