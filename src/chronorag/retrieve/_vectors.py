"""Shared helpers for embedders: batching and normalisation."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


def embed_in_batches(
    texts: Sequence[str], encode: Callable[[list[str]], np.ndarray], *, dim: int,
    batch_size: int,
) -> np.ndarray:
    """Run ``encode`` over ``texts`` in batches; float32 rows with unit L2 norm."""
    if not texts:
        return np.zeros((0, dim), dtype=np.float32)
    parts = [
        np.asarray(encode(list(texts[i : i + batch_size])), dtype=np.float32).reshape(-1, dim)
        for i in range(0, len(texts), batch_size)
    ]
    return l2_normalize(np.vstack(parts))


def l2_normalize(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)


def check_kind(kind: str) -> None:
    if kind not in ("passage", "query"):
        raise ValueError(f"embed kind must be 'passage' or 'query', got {kind!r}")
