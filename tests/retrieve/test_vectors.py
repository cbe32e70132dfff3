"""Vector search: exact as brute force, approximate close to it, never outside a scope."""

from __future__ import annotations

import numpy as np
import pytest

from chronorag.retrieve.vectors import VectorIndex


def _unit(rows: int, dim: int, seed: int = 0) -> np.ndarray:
    matrix = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def _index(matrix: np.ndarray, *, first_seq: int = 1) -> VectorIndex:
    seqs = np.arange(first_seq, first_seq + len(matrix), dtype=np.int64)
    return VectorIndex.build(seqs, dict(zip(seqs.tolist(), matrix, strict=True)),
                             dim=matrix.shape[1], previous=None)


def test_exact_search_is_brute_force_within_the_mask() -> None:
    matrix = _unit(300, 16)
    index = _index(matrix)
    query = matrix[7]
    rank = np.arange(300)
    found = index.search(query, limit=5, mask=None, rank=rank)
    assert [r for r, _ in found] == np.argsort(-(matrix @ query), kind="stable")[:5].tolist()
    mask = np.zeros(300, bool)
    mask[::3] = True
    masked = index.search(query, limit=5, mask=mask, rank=rank)
    assert all(mask[r] for r, _ in masked) and len(masked) == 5
    assert masked[0][1] == pytest.approx(max(matrix[mask] @ query), abs=1e-6)


def test_rows_without_a_vector_are_absent() -> None:
    matrix = _unit(4, 8)
    seqs = np.arange(1, 5, dtype=np.int64)
    index = VectorIndex.build(seqs, {1: matrix[0], 3: matrix[2]}, dim=8, previous=None)
    assert index.present.tolist() == [True, False, True, False]
    found = index.search(matrix[1], limit=10, mask=None, rank=np.arange(4))
    assert sorted(r for r, _ in found) == [0, 2]


def test_an_update_keeps_known_vectors_and_adds_fresh_ones() -> None:
    matrix = _unit(6, 8)
    old = _index(matrix[:4])  # seqs 1..4
    seqs = np.array([2, 4, 5, 6], np.int64)  # 1 and 3 deleted, 5 and 6 added
    new = VectorIndex.build(seqs, {5: matrix[4], 6: matrix[5]}, dim=8, previous=old)
    assert np.array_equal(new.matrix, matrix[[1, 3, 4, 5]]) and new.present.all()


def test_approximate_search_recalls_the_exact_neighbours() -> None:
    matrix = _unit(3000, 32, seed=1)
    exact = _index(matrix)
    approximate = exact.with_ann(None, threshold=1000)
    assert approximate.ann is not None and exact.with_ann(None).ann is None  # below default
    rank = np.arange(3000)
    hits = total = 0
    for q in _unit(20, 32, seed=2):
        truth = {r for r, _ in exact.search(q, limit=50, mask=None, rank=rank)}
        found = {r for r, _ in approximate.search(q, limit=50, mask=None, rank=rank)}
        hits, total = hits + len(truth & found), total + len(truth)
    assert hits / total >= 0.98


def test_approximate_search_under_a_scope_returns_only_scoped_rows() -> None:
    matrix = _unit(3000, 32, seed=3)
    index = _index(matrix).with_ann(None, threshold=1000)
    rank = np.arange(3000)
    for share in (0.9, 0.3, 0.002):
        mask = np.random.default_rng(4).random(3000) < share
        found = index.search(matrix[0], limit=20, mask=mask, rank=rank)
        assert found and all(mask[r] for r, _ in found)
        assert len(found) == min(20, int(mask.sum()))


def test_graph_update_removes_and_adds_rows() -> None:
    matrix = _unit(2000, 16, seed=5)
    old = _index(matrix[:1500]).with_ann(None, threshold=1000)
    seqs = np.concatenate([np.arange(501, 1501), np.arange(1501, 2001)]).astype(np.int64)
    fresh = {int(s): matrix[s - 1] for s in range(1501, 2001)}
    new = VectorIndex.build(seqs, fresh, dim=16, previous=old).with_ann(old, threshold=1000)
    assert len(new.ann) == 1500 and len(old.ann) == 1500
    found = new.search(matrix[1800], limit=1, mask=None, rank=np.arange(1500))
    assert new.seqs[found[0][0]] == 1801
