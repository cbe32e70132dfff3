"""Which multilingual signal orders cross-language candidates best? Measured, not built.

    python benchmarks/crosslingual_signals.py [--sets en-zh zh-en] [--limit 120] [--top 8]
        [--db DIR] [--cache FILE]

For each question of an XQuAD set the default pipeline ranks the candidates; for its first
``--top`` (up to 10) this computes, per candidate: the e5 cosine of the whole chunk, the
e5 cosines of each sentence ("title: sentence" and the bare sentence) and the multilingual
USE cosines of the chunk and of each sentence. Each order below puts the candidate with
the highest value first; AR@1 is the share of questions whose first chunk holds the
answer (CJK character-wise, as ``chronorag eval retrieval`` matches). ``pipeline`` is
the order as it is (the baseline, same run). Embedding everything takes minutes per set;
``--cache`` keeps the signals so the orders can be re-read without recomputing them.
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from chronorag.engine import Engine
from chronorag.evaluate.harness import EVAL_NOW, load_questions, method_config
from chronorag.evaluate.metrics import answer_hit_ranks
from chronorag.retrieve.embed_e5 import E5Embedder
from chronorag.retrieve.embed_use import UseEmbedder

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "xquad"
Signals = dict[str, Any]

ORDERS: dict[str, Callable[[Signals], float]] = {
    "pipeline": lambda c: -c["position"],
    "e5 chunk": lambda c: c["e5_chunk"],
    "e5 sentence (title: sentence)": lambda c: max(c["e5_titled"]),
    "e5 sentence (bare)": lambda c: max(c["e5_bare"]),
    "e5 chunk + sentence (titled)": lambda c: c["e5_chunk"] + max(c["e5_titled"]),
    "e5 chunk + sentence (bare)": lambda c: c["e5_chunk"] + max(c["e5_bare"]),
    "USE chunk": lambda c: c["use_chunk"],
    "USE sentence": lambda c: max(c["use_sentences"]),
    "e5 chunk + sentence (titled) + USE sentence / 2":
        lambda c: c["e5_chunk"] + max(c["e5_titled"]) + 0.5 * max(c["use_sentences"]),
}


def signals(folder: Path, *, limit: int, db: Path | None, e5: E5Embedder,
            use: UseEmbedder) -> list[dict[str, Any]]:
    rows = []
    store = db / f"{folder.name}.db" if db else Path("/tmp") / f"crosslingual-{folder.name}.db"
    with Engine(store) as engine:
        engine.ingest([folder / "corpus.jsonl"], now=EVAL_NOW)
        titles = {d.id: d.title for d in engine.store.documents()}
        config = method_config("chronorag")
        for q in load_questions(folder / "questions.jsonl", limit=limit):
            hits = engine.retrieve(engine.query(q.text, now=EVAL_NOW, k=20), config=config).hits
            q_e5, q_use = e5.embed([q.text], kind="query")[0], use.embed([q.text])[0]
            candidates = []
            for position, hit in enumerate(hits[:10]):
                title = titles.get(hit.chunk.doc_id, "")
                sentences = [s.text for s in hit.chunk.sentences] or [hit.chunk.text]
                candidates.append({
                    "position": position,
                    "hit": answer_hit_ranks([hit.chunk.text], q.answers) == 1,
                    "e5_chunk": float(e5.embed([hit.chunk.text], kind="passage")[0] @ q_e5),
                    "e5_titled": (e5.embed([f"{title}: {s}" for s in sentences],
                                           kind="passage") @ q_e5).tolist(),
                    "e5_bare": (e5.embed(sentences, kind="passage") @ q_e5).tolist(),
                    "use_chunk": float(use.embed([hit.chunk.text])[0] @ q_use),
                    "use_sentences": (use.embed(sentences) @ q_use).tolist(),
                })
            rows.append({"question": q.text, "candidates": candidates})
    return rows


def at1(rows: list[dict[str, Any]], key: Callable[[Signals], float], top: int) -> float:
    right = 0
    for row in rows:
        head = row["candidates"][:top]
        if head:
            right += head[int(np.argmax([key(c) for c in head]))]["hit"]
    return right / len(rows) if rows else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="+", default=["en-zh", "zh-en"])
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--db", type=Path, default=None, help="folder of <set>.db stores")
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args(argv)
    cached: dict[str, Any] = {}
    if args.cache and args.cache.exists():
        cached = pickle.loads(args.cache.read_bytes())
    e5, use = E5Embedder(), UseEmbedder()
    for name in args.sets:
        if name not in cached:
            cached[name] = signals(args.data / name, limit=args.limit, db=args.db, e5=e5,
                                   use=use)
            if args.cache:
                args.cache.write_bytes(pickle.dumps(cached))
    print(f"| order (first {args.top} candidates) | " + " | ".join(args.sets) + " |")
    print("|---|" + "---:|" * len(args.sets))
    for order, key in ORDERS.items():
        cells = " | ".join(f"{at1(cached[s], key, args.top):.3f}" for s in args.sets)
        print(f"| {order} | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
