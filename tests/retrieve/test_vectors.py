"""Batching of embedder calls: sorted by length inside, the caller's order outside."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.retrieve._vectors import embed_in_batches


def _encode_lengths(batches: list[list[str]]):
    def encode(texts: list[str]) -> np.ndarray:
        batches.append(texts)
        return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)
    return encode


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=40), st.integers(1, 8))
def test_rows_come_back_in_the_callers_order_whatever_the_batching(texts, batch_size):
    batches: list[list[str]] = []
    out = embed_in_batches(texts, _encode_lengths(batches), dim=2, batch_size=batch_size)
    assert out.shape == (len(texts), 2) and out.dtype == np.float32
    expected = np.array([[len(t), 1.0] for t in texts], dtype=np.float32).reshape(-1, 2)
    norms = np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(out, expected / norms, rtol=1e-6)
    assert all(len(b) <= batch_size for b in batches)
    assert sum(len(b) for b in batches) == len(texts)


def test_batches_hold_texts_of_similar_length():
    texts = ["a" * n for n in (50, 1, 40, 2, 30, 3)]
    batches: list[list[str]] = []
    embed_in_batches(texts, _encode_lengths(batches), dim=2, batch_size=3)
    assert [[len(t) for t in b] for b in batches] == [[1, 2, 3], [30, 40, 50]]
