"""The engine keeps the search indexes beside its store current: after an ingest, for a
new process, and while a long ingest runs."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

import chronorag.pipeline.throttle as throttle
from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.pipeline.ingest import Batching

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _write(path: Path, docs: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def _hybrid() -> object:
    return replace(get_preset("hybrid"), embedder="test-hash", judges=())


def test_an_ingest_leaves_indexes_a_new_engine_answers_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_embedders: object) -> None:
    db = tmp_path / "kb.db"
    docs = [{"id": f"d{i}", "text": f"Fact number {i} about rivers."} for i in range(5)]
    with Engine(db, config=_hybrid()) as engine:  # type: ignore[arg-type]
        engine.ingest([_write(tmp_path / "a.jsonl", docs)], now=NOW)
    assert sorted(p.name.split("-", 1)[1] for p in (tmp_path / "kb.db.index").iterdir()) == [
        "rows", "vectors-test-hash"]
    with Engine(db, config=_hybrid()) as engine:  # type: ignore[arg-type]
        def fail(*_: object) -> None:
            raise AssertionError("a new engine should map the saved indexes")

        monkeypatch.setattr(engine.store, "chunk_rows", fail)
        monkeypatch.setattr(engine.store, "chunk_vectors", fail)
        answer = engine.ask("number 3 rivers", now=NOW)
        assert answer.evidence[0].doc_id == "d3"


def test_a_long_ingest_refreshes_the_indexes_between_batches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_embedders: object) -> None:
    calls: list[int] = []
    original = Engine.refresh_indexes
    monkeypatch.setattr(Engine, "refresh_indexes",
                        lambda self: calls.append(self.store.generation()) or original(self))
    clock = iter(float(t) for t in range(0, 100_000, 100))  # 100 s pass at every reading
    monkeypatch.setattr(throttle, "_monotonic", lambda: next(clock))
    docs = [{"id": f"d{i}", "text": f"Fact {i}."} for i in range(6)]
    with Engine(tmp_path / "kb.db", config=_hybrid()) as engine:  # type: ignore[arg-type]
        engine.ingest([_write(tmp_path / "a.jsonl", docs)], now=NOW,
                      batching=Batching(docs=2))
    assert calls[0] < calls[-1] == 3  # during the ingest, and once it has committed all


def test_refreshes_take_at_most_a_fifth_of_the_time(monkeypatch: pytest.MonkeyPatch) -> None:
    readings = iter([0.0, 10.0, 31.0, 31.0, 41.0, 60.0, 81.0, 81.0, 82.0, 200.0, 200.0, 201.0])
    monkeypatch.setattr(throttle, "_monotonic", lambda: next(readings))
    calls: list[int] = []
    throttled = throttle.Throttled(lambda: calls.append(1))  # created at 0
    throttled()  # 10: too soon
    throttled()  # 31: runs until 41, so the next waits 40 s
    throttled()  # 60: too soon (19 s)
    throttled()  # 81: runs (40 s after), until 82
    throttled()  # 200: runs
    assert len(calls) == 3


def test_warm_up_loads_in_the_background_and_never_raises(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test_embedders: object) -> None:
    with Engine(tmp_path / "kb.db", config=_hybrid()) as engine:  # type: ignore[arg-type]
        embedder = engine.components.embedder("test-hash")
        seen: list[str] = []
        monkeypatch.setattr(embedder, "embed",
                            lambda texts, kind="passage": seen.append(kind) or 1 / 0)
        engine.warm_up().join(timeout=60)
        assert seen == ["query"]
