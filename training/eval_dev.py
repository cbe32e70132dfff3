"""The trained reader in place of the shipped cross-encoder, measured on TimeQA's dev half
through the product's own pipeline and metrics (``chronorag eval retrieval``'s harness).

    python -m training.eval_dev [--checkpoint DIR/reader.pt --out DIR/onnx] \
        [--oracle] [--wide] [--no-gate] \
        [--db STORE] [--data ../shared/data/timeqa] [--limit N] [--weight-only]

Exports the checkpoint to INT8 ONNX (``export.export_int8``: the layout ``OnnxBert``
loads), then runs the default ``chronorag`` method in one process over the same store:
with the shipped cross-encoder (the baseline) and with the reader judging the same
sentence windows. Retrieval, temporal tiers, validity and the answer floor are the
product's. ``--oracle`` adds the answer oracle (``training.oracle``) in the reader's
place, the ceiling of any reader there; ``--wide`` adds it reading every sentence of the
first 20 hits; ``--no-gate`` adds each configuration again with the temporal stage off
(the reader's order is the final one). The dev half is for validation only, never for
training.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import torch
from training.base import default_model_dir
from training.export import export_int8
from training.model import BertConfig, CrossEncoder
from training.oracle import AnswerOracle, OracleWindows

from chronorag.config import SearchConfig
from chronorag.engine import Engine
from chronorag.evaluate.harness import (
    EVAL_NOW,
    MethodResult,
    Question,
    evaluate_configs,
    load_questions,
    method_config,
)
from chronorag.evaluate.metrics import recall_at
from chronorag.rank.rerank_ce import CrossEncoderReranker
from chronorag.rank.rerank_windows import WindowReranker
from chronorag.rank.rerankers import RERANKERS, RerankContext, window_options

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "timeqa"
READER = "windows-reader"
ORACLE = "windows-oracle"
WIDE_ORACLE = "windows-oracle-wide"
# The wide oracle reads every sentence of this many hits.
WIDE_TOP = 20


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


def _made(kind: Callable[..., WindowReranker], **extra: object
          ) -> Callable[..., WindowReranker]:
    """A reranker factory: ``kind`` built with a search's context and ``extra``."""
    def factory(*, context: RerankContext) -> WindowReranker:
        return kind(**window_options(context), **extra)
    return factory


def _configs(args: argparse.Namespace, engine: Engine,
             questions: Sequence[Question]) -> dict[str, SearchConfig]:
    """The rows to run, by name; registers the readers they name."""
    base = method_config("chronorag")
    configs = {"shipped cross-encoder": base}
    # Each reads the same windows as the shipped model (the search's context gives the
    # page titles, the judge and the late order, as it does to "windows").
    if args.checkpoint is not None:
        reader_dir = export(args.checkpoint, args.out, weight_only=args.weight_only)
        RERANKERS.add(READER, _made(ReaderWindows, reader_dir=reader_dir))
        configs["trained reader"] = replace(base, reranker=READER)
    oracle = AnswerOracle({q.text: q.answers for q in questions})
    if args.oracle:
        RERANKERS.add(ORACLE, _made(OracleWindows, oracle=oracle))
        configs["answer oracle"] = replace(base, reranker=ORACLE)
    if args.wide:
        every = max(len(c.sentences) for c in engine.store.chunks())
        RERANKERS.add(WIDE_ORACLE, _made(OracleWindows, oracle=oracle, per_chunk=every))
        configs[f"answer oracle, every sentence of {WIDE_TOP}"] = replace(
            base, reranker=WIDE_ORACLE, rerank_top=WIDE_TOP)
    if args.no_gate:
        configs.update({f"{name}, no gate": replace(config, temporal="none")
                        for name, config in list(configs.items())})
    return configs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, default=None,
                        help="a train.py state_dict; without it, no trained reader row")
    parser.add_argument("--out", type=Path, default=None, help="folder for the ONNX export")
    parser.add_argument("--db", type=Path, default=Path("benchmarks/out/timeqa-e5.db"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--weight-only", action="store_true")
    parser.add_argument("--oracle", action="store_true",
                        help="add the answer oracle in the reader's place (the ceiling)")
    parser.add_argument("--wide", action="store_true",
                        help=f"add the oracle reading every sentence of {WIDE_TOP} hits")
    parser.add_argument("--no-gate", action="store_true",
                        help="add every configuration again with the temporal stage off")
    args = parser.parse_args(argv)
    if args.checkpoint is not None and args.out is None:
        parser.error("--checkpoint needs --out (the folder for its ONNX export)")
    questions = load_questions(args.data / "questions.jsonl", limit=args.limit)
    with Engine(args.db) as engine:
        engine.ingest([args.data / "corpus.jsonl"], now=EVAL_NOW)
        configs = _configs(args, engine, questions)
        results = evaluate_configs(engine, questions, configs)
    print("| model | easy AR@1 | hard AR@1 | hard ER@1 | unanswerable abstained "
          "| answerable answered | p50 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, result in results.items():
        print(row(name, result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
