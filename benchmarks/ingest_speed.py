"""Ingest throughput against the bare embedding model on the same texts, in one process.

    python benchmarks/ingest_speed.py [--corpus ../shared/data/timeqa/corpus.jsonl] [--pages N]

Ratio = (bare model time) / (full ingest time); 1.0 means parsing, sentence splitting,
time mentions and SQLite writes cost nothing next to the model. Target: >= 0.8.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from chronorag.engine import Engine
from chronorag.ingest import chunk_document, load_paths
from chronorag.pipeline.ingest import _embed_text, with_event_time

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/data/timeqa/corpus.jsonl"))
    parser.add_argument("--pages", type=int, default=0, help="only the first N documents")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Engine(Path(tmp) / "bench.db") as engine:
        if args.pages:
            subset = Path(tmp) / "corpus.jsonl"
            lines = Path(args.corpus).read_text(encoding="utf-8").splitlines()[: args.pages]
            subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
            args.corpus = str(subset)
        embedder = engine.components.embedder(engine.config.embedder)
        embedder.embed(["warm up the model"])
        started = time.perf_counter()
        report = engine.ingest([args.corpus], now=NOW)
        ingest_s = time.perf_counter() - started
        docs = [d for f in load_paths([args.corpus]) for d in f.documents]
        started = time.perf_counter()
        chunks = [(d, c) for d in docs for c in with_event_time(d, chunk_document(d))]
        prep_s = time.perf_counter() - started
        texts = [_embed_text(d, c) for d, c in chunks]
        started = time.perf_counter()
        embedder.embed(texts, kind="passage")
        model_s = time.perf_counter() - started
    print(f"| corpus | chunks | ingest s | chunks/s | bare model s | chunking+mentions s "
          f"| ratio model/ingest |\n|---|---|---|---|---|---|---|\n"
          f"| {args.pages or 'all'} pages | {report.chunks} | {ingest_s:.1f} | "
          f"{report.chunks / ingest_s:.1f} | {model_s:.1f} | {prep_s:.2f} | "
          f"{model_s / ingest_s:.2f} |")


if __name__ == "__main__":
    main()
