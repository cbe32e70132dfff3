"""Exact nearest-neighbour search over unit vectors (cosine = dot product)."""

from __future__ import annotations

from collections.abc import Sequence

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


class ExactIndex:
    """Brute-force cosine search over a float32 matrix of L2-normalised rows.

    Exact and fast enough for ~10^5 chunks (one matrix-vector product per query).
    """

    def __init__(self, ids: Sequence[str], matrix: np.ndarray) -> None:
        matrix = np.asarray(matrix, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(ids):
            raise ValueError(
                f"ExactIndex needs one vector row per id: {len(ids)} ids, matrix {matrix.shape}"
            )
        self.ids: tuple[str, ...] = tuple(ids)
        self.matrix = np.ascontiguousarray(matrix)

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return len(self.ids)

    def subset(self, ids: frozenset[str]) -> ExactIndex:
        """An index over the rows of ``ids`` only (unknown ids are ignored)."""
        rows = [i for i, chunk_id in enumerate(self.ids) if chunk_id in ids]
        return ExactIndex([self.ids[i] for i in rows], self.matrix[rows])

    def search(self, vector: np.ndarray, *, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` ids most similar to ``vector`` with their cosine, best first."""
        if not self.ids:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise ValueError(f"query vector has {query.shape[0]} dims, index has {self.dim}")
        scores = self.matrix @ query
        return [(self.ids[i], float(scores[i])) for i in top_k(scores, limit)]
