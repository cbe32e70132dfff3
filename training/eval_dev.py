"""The trained reader in place of the shipped cross-encoder, measured on TimeQA's dev half
through the product's own pipeline and metrics (``chronorag eval retrieval``'s harness).

    python -m training.eval_dev --checkpoint DIR/reader.pt --out DIR/onnx \
        [--db STORE] [--data ../shared/data/timeqa] [--limit N] [--weight-only]

Exports the checkpoint to INT8 ONNX (``export.export_int8``: the layout ``OnnxBert``
loads), then runs the default ``chronorag`` method twice in one process over the same
store: with the shipped cross-encoder (the baseline) and with the reader judging the same
sentence windows. Retrieval, temporal tiers, validity and the answer floor are the
product's. The dev half is for validation only, never for training.
"""

from __future__ import annotations

import argparse
import functools
from dataclasses import replace
from pathlib import Path

import torch
from training.base import default_model_dir
from training.export import export_int8
from training.model import BertConfig, CrossEncoder

from chronorag.engine import Engine
from chronorag.evaluate.harness import (
    EVAL_NOW,
    MethodResult,
    evaluate_configs,
    load_questions,
    method_config,
)
from chronorag.evaluate.metrics import recall_at
from chronorag.rank.rerank_ce import CrossEncoderReranker
from chronorag.rank.rerank_windows import WindowReranker
from chronorag.rank.rerankers import RERANKERS

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "timeqa"
READER = "windows-reader"


class ReaderWindows(WindowReranker):
    """The window reranker with the trained reader as its model."""

    def __init__(self, *, reader_dir: Path, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.model = CrossEncoderReranker(model_dir=reader_dir, max_length=128,
                                          batch_size=8, top_n=self.top_n)


def export(checkpoint: Path, out: Path, *, weight_only: bool) -> Path:
    """``checkpoint`` (a ``train.py`` state_dict) as INT8 ONNX in ``out``."""
    model = CrossEncoder(BertConfig())
    model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
    model.eval()
    export_int8(model, out, tokenizer=default_model_dir() / "tokenizer.json",
                weight_only=weight_only)
    return out


def row(name: str, result: MethodResult) -> str:
    summary = result.summary()
    cells = [recall_at(result.answer_ranks.get("easy", []), 1),
             recall_at(result.answer_ranks.get("hard", []), 1),
             recall_at(result.evidence_ranks.get("hard", []), 1),
             summary["hard_unanswerable_abstained"], summary["hard_answerable_answered"]]
    return (f"| {name} | " + " | ".join(f"{c:.3f}" for c in cells)
            + f" | {summary['latency_ms']['p50']:.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True, help="folder for the ONNX export")
    parser.add_argument("--db", type=Path, default=Path("benchmarks/out/timeqa-e5.db"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--weight-only", action="store_true")
    args = parser.parse_args(argv)
    reader_dir = export(args.checkpoint, args.out, weight_only=args.weight_only)
    questions = load_questions(args.data / "questions.jsonl", limit=args.limit)
    base = method_config("chronorag")
    with Engine(args.db) as engine:
        engine.ingest([args.data / "corpus.jsonl"], now=EVAL_NOW)
        # Same windows as the shipped model reads: the page title in front of each.
        RERANKERS.add(READER, functools.partial(ReaderWindows, reader_dir=reader_dir,
                                                titles=engine.components.title))
        results = evaluate_configs(engine, questions, {
            "shipped cross-encoder": base,
            "trained reader": replace(base, reranker=READER),
        })
    print("| model | easy AR@1 | hard AR@1 | hard ER@1 | unanswerable abstained "
          "| answerable answered | p50 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, result in results.items():
        print(row(name, result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
