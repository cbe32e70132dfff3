"""Ingest throughput, where its time goes, and what the multilingual judge's vectors cost.

    python benchmarks/ingest_speed.py [--corpus ../shared/data/timeqa/corpus.jsonl] [--pages N]

In one process, on the same documents: an ingest that stores only the dense embedder's
chunk vectors (``judges=()``), the shipped ingest (also the judges' chunk and sentence
vectors), and each model alone on exactly the texts the shipped ingest embeds. Ratio =
(bare model time) / (shipped ingest time); 1.0 means parsing, sentence splitting, time
mentions and SQLite writes cost nothing next to the models (target >= 0.8).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.ingest import chunk_document, load_paths
from chronorag.model import Chunk, Document
from chronorag.pipeline.embedding import embed_text, sentence_texts
from chronorag.pipeline.ingest import with_event_time

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[1]


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/data/timeqa/corpus.jsonl"))
    parser.add_argument("--pages", type=int, default=0, help="only the first N documents")
    args = parser.parse_args()
    shipped = get_preset("default")
    rows: list[str] = []
    ingest_s: list[float] = []  # dense-only, then shipped
    with tempfile.TemporaryDirectory() as tmp:
        if args.pages:
            subset = Path(tmp) / "corpus.jsonl"
            lines = Path(args.corpus).read_text(encoding="utf-8").splitlines()[: args.pages]
            subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
            args.corpus = str(subset)
        for label, config in (("dense vectors only", replace(shipped, judges=())),
                              ("shipped (with the judges' vectors)", shipped)):
            with Engine(Path(tmp) / f"{len(rows)}.db", config=config) as engine:
                for name in {config.embedder, *config.judges}:
                    engine.components.embedder(name).embed(["warm up the model"])
                seconds = _timed(lambda: engine.ingest([args.corpus], now=NOW))
                ingest_s.append(seconds)
                chunks = engine.store.count()["chunks"]
                rows.append(f"| ingest: {label} | {chunks} | {seconds:.1f} | "
                            f"{chunks / seconds:.1f} |")
                models = {n: engine.components.embedder(n) for n in config.judges}
        docs = [d for f in load_paths([args.corpus]) for d in f.documents]
        chunked: list[tuple[Document, tuple[Chunk, ...]]] = []
        prep = _timed(lambda: chunked.extend((d, with_event_time(d, chunk_document(d)))
                                             for d in docs))
        pairs = [(d, c) for d, chunks in chunked for c in chunks]
        texts = [embed_text(d, c) for d, c in pairs]
        sentences = [t for d, c in pairs for t in sentence_texts(d, c)]
        model_s = 0.0
        for name, model in models.items():
            for kind, batch in (("chunks", texts), ("sentences", sentences)):
                started = time.perf_counter()
                model.embed(batch, kind="passage")
                seconds = time.perf_counter() - started
                model_s += seconds
                rows.append(f"| {name} alone: {len(batch)} {kind} | | {seconds:.1f} | "
                            f"{len(batch) / seconds:.1f} |")
    dense_s, shipped_s = ingest_s
    print("| what | chunks | s | per s |\n|---|---:|---:|---:|")
    print("\n".join(rows))
    print(f"\nchunking + time mentions: {prep:.2f} s; ratio bare models / shipped ingest: "
          f"{model_s / shipped_s:.2f}; shipped / dense-only ingest: {shipped_s / dense_s:.2f}")


if __name__ == "__main__":
    main()
