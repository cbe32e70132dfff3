"""Evaluation of a reader on held-out pairs: loss, ROC AUC, accuracy at probability 0.5."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from training.train_data import Encoded, collate, eval_batches


def roc_auc(labels: Sequence[int], scores: Sequence[float]) -> float:
    """Area under the ROC curve: the chance a random positive outscores a random negative,
    ties counting half (Mann-Whitney U over average ranks). NaN without both classes."""
    y = np.asarray(labels, dtype=np.int64)
    s = np.asarray(scores, dtype=np.float64)
    pos = int(y.sum())
    neg = len(y) - pos
    if pos == 0 or neg == 0:
        return math.nan
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s), dtype=np.float64)
    sorted_scores = s[order]
    start = 0
    while start < len(s):  # average the ranks of tied scores
        end = start
        while end + 1 < len(s) and sorted_scores[end + 1] == sorted_scores[start]:
            end += 1
        ranks[order[start:end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def finite(x: float) -> float | None:
    """``x`` for JSON: NaN (an AUC without both classes) becomes null, not the invalid NaN."""
    return None if math.isnan(x) else round(x, 5)


def bce(labels: Sequence[int], logits: Sequence[float]) -> float:
    """Mean binary cross-entropy of the logits, computed stably."""
    y = np.asarray(labels, dtype=np.float64)
    z = np.asarray(logits, dtype=np.float64)
    return float(np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))))


@dataclass(frozen=True)
class Evaluation:
    count: int
    positives: int
    loss: float
    auc: float
    accuracy: float
    by_family: dict[str, dict[str, float | None]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"count": self.count, "positives": self.positives,
                "loss": finite(self.loss), "auc": finite(self.auc),
                "accuracy": finite(self.accuracy), "by_family": self.by_family}


def summarise(data: Encoded, logits: Sequence[float]) -> Evaluation:
    """Metrics of ``logits`` against ``data``'s labels, overall and per kind family
    (``in_year``, ``shift_in``, ``original`` ...: whether the time fits is what differs)."""
    labels = list(data.labels)
    correct = [int((z > 0) == bool(y)) for z, y in zip(logits, labels, strict=True)]
    groups: dict[str, list[int]] = defaultdict(list)
    for i, kind in enumerate(data.kinds):
        groups[kind.split(".")[0]].append(i)
    by_family: dict[str, dict[str, float | None]] = {
        name: {"count": len(rows), "positives": sum(labels[i] for i in rows),
               "accuracy": finite(sum(correct[i] for i in rows) / len(rows)),
               "auc": finite(roc_auc([labels[i] for i in rows], [logits[i] for i in rows]))}
        for name, rows in sorted(groups.items())}
    return Evaluation(count=len(labels), positives=sum(labels), loss=bce(labels, logits),
                      auc=roc_auc(labels, logits),
                      accuracy=sum(correct) / max(len(correct), 1), by_family=by_family)


def predict(model: Any, data: Encoded, *, batch_size: int = 64) -> list[float]:
    """The model's logit for every pair of ``data``, in ``data``'s order (eval mode, fp32)."""
    import torch

    was_training = model.training
    model.eval()
    logits = [0.0] * len(data)
    with torch.inference_mode():
        for batch in eval_batches(data.lengths, batch_size=batch_size):
            feeds, _ = collate(data, batch)
            for i, z in zip(batch, model(**feeds)[:, 0].tolist(), strict=True):
                logits[i] = float(z)
    model.train(was_training)
    return logits


def evaluate(model: Any, data: Encoded, *, batch_size: int = 64) -> Evaluation:
    return summarise(data, predict(model, data, batch_size=batch_size))
