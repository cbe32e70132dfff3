"""What late interaction costs: ingest with and without token vectors, their bytes in the
store, and, per question, ordering the pool of 50 by MaxSim against the cross-encoder
reading the same 50 (hybrid+rerank's stage), all in one process.

    python benchmarks/late_interaction.py [--corpus ../shared/data/timeqa/corpus.jsonl]
                                          [--limit 60] [--questions 40]

The corpus's ``questions.jsonl`` (beside it) gives the questions. Ratios are taken within
this run: ingest seconds with token vectors ÷ without; MaxSim ordering (question encoded,
stored vectors read, 50 products) ÷ the cross-encoder over the 50 whole passages.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sqlite3
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from chronorag import Engine
from chronorag.config import get_preset
from chronorag.rank.late import POOL, LateOrder
from chronorag.rank.rerank_ce import CrossEncoderReranker

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _subset(corpus: Path, limit: int, out: Path) -> None:
    with corpus.open(encoding="utf-8") as handle:
        out.write_text("".join(itertools.islice(handle, limit)), encoding="utf-8")


def _ingest(db: Path, corpus: Path, late: str) -> tuple[float, int]:
    config = replace(get_preset("default"), late=late)
    with Engine(db, config=config) as engine:
        engine.components.embedder(config.embedder).embed(["warm"], kind="passage")
        if late:
            engine.components.token_encoder(late).encode(["warm"], kind="passage")
        started = time.perf_counter()
        report = engine.ingest([corpus], now=NOW)
        return time.perf_counter() - started, report.chunks


def _token_bytes(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        rows, size = conn.execute(
            "SELECT sum(rows), sum(length(blob)) FROM token_vectors").fetchone()
    return int(rows or 0), int(size or 0)


def _question_costs(db: Path, questions: list[str]) -> tuple[float, float]:
    with Engine(db) as engine:
        late = LateOrder(encoder=engine.components.token_encoder("colbert-small"),
                         vectors=engine.store)
        model = CrossEncoderReranker(max_length=256, top_n=POOL)
        hybrid = get_preset("hybrid")
        late_ms, ce_ms = [], []
        for text in questions:
            query = engine.query(text, now=NOW, k=POOL)
            hits = engine.retrieve(query, config=hybrid).hits[:POOL]
            started = time.perf_counter()
            late.order(query.text, hits)
            late_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            model.rerank(query, hits)
            ce_ms.append((time.perf_counter() - started) * 1000)
    late_ms.sort()
    ce_ms.sort()
    return late_ms[len(late_ms) // 2], ce_ms[len(ce_ms) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path,
                        default=ROOT.parent / "shared/data/timeqa/corpus.jsonl")
    parser.add_argument("--limit", type=int, default=60, help="documents ingested")
    parser.add_argument("--questions", type=int, default=40)
    args = parser.parse_args()
    questions_file = args.corpus.with_name("questions.jsonl")
    with questions_file.open(encoding="utf-8") as handle:
        questions = [json.loads(line)["question"]
                     for line in itertools.islice(handle, args.questions)]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        _subset(args.corpus, args.limit, corpus)
        plain_s, chunks = _ingest(Path(tmp) / "plain.db", corpus, "")
        late_s, _ = _ingest(Path(tmp) / "late.db", corpus, "colbert-small")
        tokens, size = _token_bytes(Path(tmp) / "late.db")
        late_ms, ce_ms = _question_costs(Path(tmp) / "late.db", questions)
    print(f"corpus {args.corpus} (first {args.limit} documents, {chunks} chunks), "
          f"{len(questions)} questions")
    print("| measure | without | with token vectors | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| ingest s | {plain_s:.1f} | {late_s:.1f} | {late_s / plain_s:.2f} |")
    print(f"| token vectors: tokens / bytes per chunk | | {tokens / chunks:.0f} / "
          f"{size / chunks:,.0f} | |")
    print(f"| per question p50 ms: cross-encoder over {POOL} / MaxSim over {POOL} | "
          f"{ce_ms:.0f} | {late_ms:.1f} | {late_ms / ce_ms:.3f} |")


if __name__ == "__main__":
    main()
