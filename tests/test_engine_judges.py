"""The store remembers its multilingual judges, as it remembers its embedder."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from chronorag.engine import Engine

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _corpus(path: Path) -> Path:
    path.write_text(json.dumps({"id": "a", "title": "Leave", "text": "员工每年有10天年假。 "
                                "The leave is 10 days."}) + "\n", encoding="utf-8")
    return path


def test_judges_are_recorded_at_ingest_and_their_vectors_stored(
        tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    db = tmp_path / "kb.db"
    with Engine(db, embedder="test-hash", judges=["test-hash-b"]) as engine:
        engine.ingest([_corpus(tmp_path / "a.jsonl")], now=NOW)
        [chunk] = engine.store.chunks()
        assert engine.store.vector_counts() == {"test-hash": 1, "test-hash-b": 1}
        matrix = engine.store.sentence_vectors([chunk.id], "test-hash-b")[chunk.id]
        assert matrix.shape == (len(chunk.sentences), 64)
        assert engine.store.setting("judges") == "test-hash-b"
    with Engine(db) as engine:
        assert engine.config.judges == ("test-hash-b",)
        answer = engine.ask("年假有几天？", now=NOW)
        assert answer.evidence and "judge" in answer.evidence[0].scores


def test_a_store_without_judges_stores_dense_vectors_only(
        tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    db = tmp_path / "kb.db"
    with Engine(db, embedder="test-hash", judges=()) as engine:
        engine.ingest([_corpus(tmp_path / "a.jsonl")], now=NOW)
        assert engine.store.vector_counts() == {"test-hash": 1}
        assert engine.store.setting("judges") == ""
    with Engine(db) as engine:
        assert engine.config.judges == ()
        answer = engine.ask("年假有几天？", now=NOW)
        assert answer.evidence and "judge" not in answer.evidence[0].scores
        assert "rerank_skipped_cjk" in answer.evidence[0].flags


def test_reindex_switches_the_judges_and_the_store_remembers(
        tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    from chronorag import cli

    db = tmp_path / "kb.db"
    with Engine(db, embedder="test-hash", judges=["test-hash-b"]) as engine:
        engine.ingest([_corpus(tmp_path / "a.jsonl")], now=NOW)
    assert cli.main(["reindex", "--judges", "none", "--db", str(db), "--json"]) == 0
    with Engine(db) as engine:
        assert engine.config.judges == ()
        assert engine.store.vector_counts() == {"test-hash": 1}
        [chunk] = engine.store.chunks()
        assert engine.store.sentence_vectors([chunk.id], "test-hash-b") == {}
    assert cli.main(["reindex", "--judges", "test-hash-b", "--db", str(db)]) == 0
    with Engine(db) as engine:
        assert engine.config.judges == ("test-hash-b",)
        assert engine.store.vector_counts() == {"test-hash": 1, "test-hash-b": 1}
