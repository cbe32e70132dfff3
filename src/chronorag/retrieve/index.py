"""The ``k`` best of a score array, ties broken by row or by a given rank."""

from __future__ import annotations

import numpy as np


def top_k(scores: np.ndarray, limit: int) -> np.ndarray:
    """Indices of the ``limit`` largest scores, best first (ties: lower index first)."""
    n = scores.shape[0]
    if limit <= 0 or n == 0:
        return np.empty(0, dtype=np.int64)
    # argpartition is O(n); only the winners get sorted.
    candidates = np.argpartition(-scores, limit - 1)[:limit] if limit < n else np.arange(n)
    order = np.lexsort((candidates, -scores[candidates]))
    return candidates[order]


def top_rows(scores: np.ndarray, limit: int, rank: np.ndarray) -> np.ndarray:
    """Rows of the ``limit`` largest scores, best first; equal scores in ``rank`` order."""
    n = scores.shape[0]
    if limit <= 0 or n == 0:
        return np.empty(0, dtype=np.int64)
    if limit < n:
        # Everything tied with the last winner competes, so ``rank`` decides the cut too.
        threshold = np.partition(scores, n - limit)[n - limit]
        candidates = np.flatnonzero(scores >= threshold)
    else:
        candidates = np.arange(n)
    order = np.lexsort((rank[candidates], -scores[candidates]))
    return candidates[order][:limit]
