"""The semantic-layer part of the Store protocol, on every backend in BACKENDS."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from chronorag.errors import StoreError
from chronorag.store import Store
from chronorag.store.base import LayerRecord

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _record(kind: str, asset_id: str, body: str = "{}", *,
            join: tuple[str, str, str, str] | None = None) -> LayerRecord:
    return LayerRecord(kind, asset_id, "approved", body, f"layer.yaml:{asset_id}",
                       f"hash-{asset_id}-{body}", join)


def _joins(*edges: tuple[str, str, str, str]) -> list[LayerRecord]:
    return [_record("join", j, join=(left, right, f"{left}.k = {right}.k", fanout))
            for j, left, right, fanout in edges]


def test_no_layer(store: Store) -> None:
    assert store.layer_generation() == 0
    assert store.layer_records() == []
    keys, matrix = store.layer_vectors("e5")
    assert keys == [] and matrix.shape[0] == 0
    assert store.walk_joins(["a"], allowed=["j"], depth=3) == []


def test_records_and_vectors_round_trip(store: Store) -> None:
    records = [_record("table", "t1", '{"x": "华东"}'), _record("metric", "m1"),
               *_joins(("j1", "t1", "t2", "low"))]
    vectors = np.eye(2, 4, dtype=np.float32)
    store.write_layer(records, vectors={"e5": (["table:t1", "metric:m1"], vectors)}, now=NOW)
    assert store.layer_generation() == 1
    assert store.layer_records() == sorted(records, key=lambda r: (r.kind, r.id))
    keys, matrix = store.layer_vectors("e5")
    assert keys == ["metric:m1", "table:t1"]
    assert np.array_equal(matrix, vectors[[1, 0]]) and matrix.dtype == np.float32
    assert store.layer_vectors("other")[0] == []
    assert store.count()["documents"] == 0 and store.generation() == 0, "documents untouched"


def test_only_a_changing_write_bumps_the_layer_generation(store: Store) -> None:
    store.write_layer([_record("table", "t1")], vectors={}, now=NOW)
    store.write_layer([], vectors={}, now=NOW)
    assert store.layer_generation() == 1
    store.write_layer([_record("table", "t1", '{"changed": true}')], vectors={}, now=NOW)
    assert store.layer_generation() == 2
    assert [r.body for r in store.layer_records()] == ['{"changed": true}']


def test_walk_joins_both_directions_without_cycles(store: Store) -> None:
    store.write_layer(_joins(("ab", "a", "b", "low"), ("bc", "b", "c", "high"),
                             ("ca", "c", "a", "low")), vectors={}, now=NOW)
    paths = set(store.walk_joins(["a"], allowed=["ab", "bc", "ca"], depth=3))
    assert paths == {(("a", "b"), ("ab",)), (("a", "c"), ("ca",)),
                     (("a", "b", "c"), ("ab", "bc")), (("a", "c", "b"), ("ca", "bc"))}
    assert set(store.walk_joins(["a"], allowed=["ab"], depth=3)) == {(("a", "b"), ("ab",))}
    assert set(store.walk_joins(["c"], allowed=["ab", "bc"], depth=1)) == {(("c", "b"), ("bc",))}


def test_a_failed_layer_write_changes_nothing(store: Store) -> None:
    store.write_layer([_record("table", "t1")], vectors={}, now=NOW)
    before = (store.layer_records(), store.layer_generation())
    # The schema admits only the six asset kinds: the second record fails the write.
    with pytest.raises(StoreError):
        store.write_layer([_record("table", "t2"), _record("nonsense", "x")], vectors={},
                          now=NOW)
    assert (store.layer_records(), store.layer_generation()) == before


def test_layer_write_joins_an_atomic_block(store: Store) -> None:
    with pytest.raises(RuntimeError), store.atomic():
        store.write_layer([_record("table", "t1")], vectors={}, now=NOW)
        raise RuntimeError("the documents of the same ingest failed")
    assert store.layer_records() == [] and store.layer_generation() == 0
