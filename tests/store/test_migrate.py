"""``chronorag migrate``: a whole store copied to another backend answers the same, its
keys authenticate, a re-ingest finds nothing changed; interrupted runs complete, and a
target holding other data is refused untouched."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronorag import cli
from chronorag.demo import DEMO_NOW, QUESTIONS, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.serve.keys import add_key, authenticate
from chronorag.store import PreparedDocument, SQLiteStore, Store
from chronorag.store.base import derivation
from chronorag.store.migrate import MigrationRefused, migrate, tally
from chronorag.store.opening_uri import open_store

from .conftest import make_prepared

CASES = Path(__file__).parents[1] / "cases"
FILES = [demo_corpus(), CASES / "semantic" / "retail.yaml"]
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)


def _answers(engine: Engine) -> list[Any]:
    return [json.loads(json.dumps(engine.ask(q, now=DEMO_NOW, user=user, k=3).to_json(),
                                  ensure_ascii=False)) for q, user in QUESTIONS]


def _build(db: str) -> tuple[list[Any], str]:
    """A store made by real ingest with the test embedder: its answers and an API key."""
    store = open_store(db)
    store.set_setting("embedder", "test-hash")
    store.set_setting("judges", "")
    _, key = add_key(store, user="me", admin=True, now=NOW)
    store.close()
    with Engine(db, config="hybrid", tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
        engine.ingest(FILES, now=DEMO_NOW)
        engine.load_people(demo_people())
        return _answers(engine), key


def _migrate(source_db: str, target_db: str, **kwargs: Any) -> Any:
    source, target = open_store(source_db), open_store(target_db)
    try:
        return migrate(source, target, now=NOW, **kwargs)
    finally:
        source.close()
        target.close()


def _generations(db: str) -> tuple[int, int]:
    store = open_store(db)
    try:
        return store.generation(), store.layer_generation()
    finally:
        store.close()


@pytest.mark.parametrize("direction", ["sqlite-to-postgres", "postgres-to-sqlite"])
def test_the_copy_answers_the_same_and_ingest_finds_it_unchanged(
        direction: str, tmp_path: Path, pg_uri: str, test_embedders: tuple[str, ...]) -> None:
    sqlite_db = str(tmp_path / "kb.db")
    source_db, target_db = ((sqlite_db, pg_uri) if direction == "sqlite-to-postgres"
                            else (pg_uri, sqlite_db))
    answers, key = _build(source_db)
    assert [a["status"] for a in answers].count("answered") >= 3
    report = _migrate(source_db, target_db)
    assert report.verified, report.differences()
    assert report.source == report.target and report.copied == report.source["documents"]
    assert report.source["people"] > 0 and report.source["layer_records"] > 0
    assert report.source["api_keys"] == 1 and report.source["vectors:test-hash"] > 0
    with Engine(target_db, config="hybrid", tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
        assert _answers(engine) == answers
        record = authenticate(engine.store, key)
        assert record is not None and record.user == "me" and record.admin
        again = engine.ingest(FILES, now=DEMO_NOW)
        assert again.added == () and again.replaced == ()
        # documents and semantic-layer assets alike
        assert len(again.unchanged) == report.source["documents"] + report.source[
            "layer_records"]
    before = _generations(target_db)
    assert _migrate(source_db, target_db).copied == 0  # a second run changes nothing
    assert _generations(target_db) == before


def _with_sentences(prepared: PreparedDocument, seed: int) -> PreparedDocument:
    rows = sum(len(c.sentences) for c in prepared.chunks)
    matrix = np.random.default_rng(seed).standard_normal((rows, 3)).astype(np.float32)
    tokens = tuple(np.random.default_rng(seed + 100).standard_normal((2 + c.index, 5)
                                                                     ).astype(np.float32)
                   for c in prepared.chunks)
    return dataclasses.replace(prepared, sentence_vectors={"sent": matrix},
                               token_vectors={"tok": tokens},
                               derivation=derivation("c1", ["e5"], sentences=["sent"],
                                                     tokens=["tok"]))


def _small_source(path: Path, n: int = 10) -> SQLiteStore:
    """``n`` documents (each superseding the one before) with chunk and sentence vectors."""
    store = SQLiteStore(path)
    store.write([_with_sentences(make_prepared(f"d{i:02}", text=f"text {i}", seed=i,
                                               supersedes=(f"d{i - 1:02}",) if i else ()), i)
                 for i in range(n)])
    store.set_setting("embedder", "e5")
    add_key(store, user="me", admin=False, now=NOW)
    return store


def test_an_interrupted_migration_completes_when_run_again(
        tmp_path: Path, pg_uri: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source, target = _small_source(tmp_path / "kb.db"), open_store(pg_uri)
    real_write, calls = target.write, []

    def failing_write(batch: Sequence[PreparedDocument], **kw: Any) -> Any:
        calls.append(len(batch))
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real_write(batch, **kw)

    monkeypatch.setattr(target, "write", failing_write)
    with pytest.raises(KeyboardInterrupt):
        migrate(source, target, now=NOW, batch=4)
    assert target.count()["documents"] == 4 and target.api_keys() == []
    monkeypatch.setattr(target, "write", real_write)
    report = migrate(source, target, now=NOW, batch=4)
    assert report.verified, report.differences()
    assert (report.copied, report.unchanged) == (6, 4)
    assert report.target["links"] == 9 and report.target["api_keys"] == 1
    assert report.target["sentence_vectors:sent"] == 40
    assert report.target["token_vectors:tok"] == 10 * (2 + 3)
    chunk_ids = sorted(source.chunk_ids_of(source.document_ids()))
    for ours, theirs in ((source.chunk_vectors(chunk_ids, "e5"),
                          target.chunk_vectors(chunk_ids, "e5")),
                         (source.sentence_vectors(chunk_ids, "sent"),
                          target.sentence_vectors(chunk_ids, "sent")),
                         (source.token_vectors(chunk_ids, "tok"),
                          target.token_vectors(chunk_ids, "tok"))):
        assert ours.keys() == theirs.keys() and len(ours) == 20
        for chunk_id, vector in ours.items():
            np.testing.assert_array_equal(theirs[chunk_id], vector)
    assert target.fingerprints(["d03"]) == source.fingerprints(["d03"])
    source.close()
    target.close()


def test_a_target_with_other_documents_is_refused_untouched(tmp_path: Path) -> None:
    source = _small_source(tmp_path / "kb.db", n=3)
    target = SQLiteStore(tmp_path / "other.db")
    target.write([make_prepared("d00", text="another version"), make_prepared("zz")])
    before = (target.documents(), target.count(), target.api_keys())
    with pytest.raises(MigrationRefused) as refused:
        migrate(source, target, now=NOW)
    assert refused.value.exit_code == 2
    assert "'zz'" in str(refused.value) and "'d00'" in str(refused.value)
    assert (target.documents(), target.count(), target.api_keys()) == before
    source.close()
    target.close()


def test_cli_migrate_json(tmp_path: Path, pg_uri: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    _small_source(tmp_path / "kb.db", n=3).close()
    assert cli.main(["migrate", "--from", str(tmp_path / "kb.db"), "--to", pg_uri,
                     "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verified"] is True and report["source"] == report["target"]
    assert report["target"]["documents"] == 3 and report["target"]["vectors:e5"] == 6
    target: Store = open_store(pg_uri)
    try:
        assert tally(target, target.document_ids(), embedders=("e5", "sent", "tok"),
                     batch=2) \
            == report["target"]
    finally:
        target.close()
    assert cli.main(["migrate", "--from", pg_uri, "--to", str(tmp_path / "kb.db")]) == 0
    assert "verified" in capsys.readouterr().out
