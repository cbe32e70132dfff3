"""Parity of the dequantised torch cross-encoder with the shipped INT8 graph in onnxruntime.

Pairs are (question, passage) from the training pages: a passage around each question's
gold evidence and one from elsewhere on the same page, so scores spread over relevant and
irrelevant text. Each pair is scored alone (batch of one): onnxruntime quantises every
matmul input per *batch* tensor, so a batched score also depends on the other pairs.

    python -m training.base_parity --data ../shared/data/timeqa-train --pairs 200
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from training.base import default_model_dir, float_graph, load_cross_encoder

SEED = 15


@dataclass(frozen=True)
class Pair:
    question: str
    passage: str
    relevant: bool


def _passage(text: str, start: int, *, chars: int) -> str:
    """About ``chars`` characters of ``text`` from ``start``, cut at spaces."""
    begin = max(0, start)
    begin = text.find(" ", begin) + 1 if begin > 0 else 0
    end = text.rfind(" ", begin, begin + chars)
    return text[begin : end if end > begin else begin + chars].strip()


def make_pairs(data: Path, *, count: int, chars: int = 600, seed: int = SEED) -> list[Pair]:
    """``count`` pairs, half around gold evidence and half from the same page elsewhere."""
    pages = {}
    with (data / "corpus.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            pages[doc["id"]] = doc["text"]
    with (data / "questions.jsonl").open(encoding="utf-8") as lines:
        questions = [q for q in map(json.loads, lines) if q["evidence"]]
    rng = random.Random(seed)
    rng.shuffle(questions)
    pairs: list[Pair] = []
    for question in questions[: (count + 1) // 2]:
        evidence = question["evidence"][0]
        text = pages[evidence["doc_id"]]
        pairs.append(Pair(question["question"],
                          _passage(text, evidence["start"] - chars // 3, chars=chars), True))
        far = (evidence["start"] + rng.randrange(chars, max(chars + 1, len(text)))) % len(text)
        pairs.append(Pair(question["question"], _passage(text, far, chars=chars), False))
    return pairs[:count]


def spearman(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Spearman's rank correlation (no tie correction: scores are continuous)."""
    ranks_a = np.argsort(np.argsort(np.asarray(a)))
    ranks_b = np.argsort(np.argsort(np.asarray(b)))
    return float(np.corrcoef(ranks_a, ranks_b)[0, 1])


def onnx_scores(bert: Any, pairs: Sequence[Pair]) -> np.ndarray:
    """Logits of the shipped graph through the product's own runner, one pair at a time."""
    return np.array([float(np.asarray(bert.run(bert.encode([(p.question, p.passage)]))[0])
                           .reshape(-1)[0]) for p in pairs], dtype=np.float32)


def batched_scores(bert: Any, pairs: Sequence[Pair], *, batch: int = 16) -> np.ndarray:
    """Logits of the shipped graph on padded batches of ``batch`` pairs, as the product
    scores windows: what the per-batch activation scales change."""
    out = []
    for i in range(0, len(pairs), batch):
        feeds = bert.encode([(p.question, p.passage) for p in pairs[i : i + batch]])
        out.extend(np.asarray(bert.run(feeds)[0], dtype=np.float32).reshape(-1).tolist())
    return np.array(out, dtype=np.float32)


def torch_scores(model: Any, bert: Any, pairs: Sequence[Pair], *, int8: bool) -> np.ndarray:
    """Logits of the torch model on the same tokens, one pair at a time."""
    import torch

    model.set_simulate_int8(on=int8)
    out = []
    with torch.inference_mode():
        for p in pairs:
            encoded = bert.encode([(p.question, p.passage)])
            feeds = {k: torch.from_numpy(v) for k, v in encoded.items()}
            out.append(float(model(**feeds).reshape(-1)[0]))
    model.set_simulate_int8(on=False)
    return np.array(out, dtype=np.float32)


@dataclass(frozen=True)
class Parity:
    max_abs: float
    mean_abs: float
    spearman: float

    @classmethod
    def of(cls, reference: np.ndarray, other: np.ndarray) -> Parity:
        diff = np.abs(reference - other)
        return cls(float(diff.max()), float(diff.mean()), spearman(reference, other))


def runner(*, max_length: int = 192, threads: int = 2) -> Any:
    from chronorag.rank.rerank_ce import OnnxBert

    return OnnxBert(default_model_dir(), max_length=max_length, threads=threads)


def session(model: Any, *, optimize: bool = True, threads: int = 2) -> Any:
    """An onnxruntime session of an in-memory graph (``optimize=False``: no fusions)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3  # the float graph leaves unused quantisation constants
    if not optimize:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    data = model.SerializeToString() if hasattr(model, "SerializeToString") else str(model)
    return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])


def session_scores(sess: Any, bert: Any, pairs: Sequence[Pair]) -> np.ndarray:
    return np.array([float(np.asarray(sess.run(None, bert.encode([(p.question, p.passage)]))[0])
                           .reshape(-1)[0]) for p in pairs], dtype=np.float32)


def all_scores(pairs: Sequence[Pair], *, max_length: int, threads: int) -> dict[str, np.ndarray]:
    """Logits of every variant: the shipped graph (as the product runs it and without
    graph fusions), its fp32 twin, and the torch model in fp32 and simulated INT8."""
    bert = runner(max_length=max_length, threads=threads)
    path = default_model_dir() / "model.onnx"
    model = load_cross_encoder(path)
    return {
        "onnxruntime int8": onnx_scores(bert, pairs),
        "onnxruntime int8, batches of 16": batched_scores(bert, pairs),
        "onnxruntime int8, no fusions": session_scores(
            session(path, optimize=False, threads=threads), bert, pairs),
        "onnxruntime fp32 twin": session_scores(
            session(float_graph(path), threads=threads), bert, pairs),
        "torch fp32": torch_scores(model, bert, pairs, int8=False),
        "torch simulated int8": torch_scores(model, bert, pairs, int8=True),
    }


COMPARISONS = (
    ("onnxruntime fp32 twin", "torch fp32"),
    ("onnxruntime int8", "torch fp32"),
    ("onnxruntime int8", "torch simulated int8"),
    ("onnxruntime int8", "onnxruntime int8, no fusions"),
    ("onnxruntime int8", "onnxruntime int8, batches of 16"),
    ("onnxruntime int8", "onnxruntime fp32 twin"),
)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/timeqa-train"))
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--max-length", type=int, default=192)
    # Scores do not depend on the thread count; on a busy machine one thread is faster.
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    pairs = make_pairs(args.data, count=args.pairs)
    started = time.perf_counter()
    scores = all_scores(pairs, max_length=args.max_length, threads=args.threads)
    relevant = np.array([p.relevant for p in pairs])
    shipped = scores["onnxruntime int8"]
    print(f"{len(pairs)} pairs, max_length {args.max_length}, "
          f"{time.perf_counter() - started:.1f} s")
    print(f"shipped logits: mean {shipped.mean():.3f}, sd {shipped.std():.3f}, "
          f"relevant {shipped[relevant].mean():.3f}, other {shipped[~relevant].mean():.3f}")
    print("| reference | compared | max abs diff | mean abs diff | Spearman |")
    print("|---|---|---|---|---|")
    for reference, other in COMPARISONS:
        parity = Parity.of(scores[reference], scores[other])
        print(f"| {reference} | {other} | {parity.max_abs:.2g} | {parity.mean_abs:.2g} | "
              f"{parity.spearman:.4f} |")


if __name__ == "__main__":
    main()
