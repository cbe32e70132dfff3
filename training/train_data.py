"""The fine-tuning data: examples tokenised once, length-bucketed batches, padded tensors.

Batches are cut from length-sorted pools of shuffled examples: a random batch of 16 pairs
pads to ~106 tokens where its pairs hold ~52 on average (training/BASE.md), and a step costs
roughly in proportion to its padded length. Sorting only inside pools of ``pool`` batches
keeps the batches' content random across the epoch, and the batch order is shuffled again
so that the short and long batches of a pool do not come in a row.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Encoded:
    """Tokenised (question, window) pairs, unpadded, with their labels and kinds."""

    ids: tuple[tuple[int, ...], ...]
    types: tuple[tuple[int, ...], ...]
    labels: tuple[int, ...]
    kinds: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(len(i) for i in self.ids)

    def positives(self) -> int:
        return sum(self.labels)


def read_examples(path: Path) -> list[dict[str, Any]]:
    """The examples of one ``build_data`` split (``train.jsonl`` or ``valid.jsonl``)."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_tokenizer(path: Path, *, max_length: int) -> Any:
    """The base's ``tokenizer.json``, unpadded and truncated at ``max_length`` as ``ask``
    truncates (``OnnxBert``): padding happens per batch, in ``collate``."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=max_length)
    return tokenizer


def encode(tokenizer: Any, examples: Sequence[dict[str, Any]]) -> Encoded:
    """Pairs encoded as the reranker encodes them: (question, window)."""
    encodings = tokenizer.encode_batch([(e["question"], e["window"]) for e in examples])
    return Encoded(ids=tuple(tuple(e.ids) for e in encodings),
                   types=tuple(tuple(e.type_ids) for e in encodings),
                   labels=tuple(int(e["label"]) for e in examples),
                   kinds=tuple(str(e.get("kind", "")) for e in examples))


def bucketed_batches(lengths: Sequence[int], *, batch_size: int, seed: int, epoch: int,
                     pool: int = 50) -> list[list[int]]:
    """Indices of every example in batches of ``batch_size`` (the last may be short):
    shuffled by ``seed`` and ``epoch``, sorted by length within pools of ``pool`` batches,
    then the batches shuffled. The same arguments give the same batches."""
    rng = random.Random(f"{seed}:batches:{epoch}")
    order = list(range(len(lengths)))
    rng.shuffle(order)
    span = batch_size * max(pool, 1)
    batches: list[list[int]] = []
    for start in range(0, len(order), span):
        chunk = sorted(order[start:start + span], key=lambda i: (lengths[i], i))
        batches += [chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches


def eval_batches(lengths: Sequence[int], *, batch_size: int) -> list[list[int]]:
    """All indices sorted by length, in batches: least padding, order irrelevant to scores."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    return [order[i:i + batch_size] for i in range(0, len(order), batch_size)]


def collate(data: Encoded, indices: Sequence[int]) -> tuple[dict[str, Any], Any]:
    """(model inputs padded to the batch's longest pair, float labels ``[batch, 1]``)."""
    import torch

    width = max(len(data.ids[i]) for i in indices)
    ids = torch.zeros((len(indices), width), dtype=torch.int64)  # [PAD] is id 0
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for row, i in enumerate(indices):
        n = len(data.ids[i])
        ids[row, :n] = torch.tensor(data.ids[i])
        types[row, :n] = torch.tensor(data.types[i])
        mask[row, :n] = 1
    labels = torch.tensor([[float(data.labels[i])] for i in indices])
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}, labels
