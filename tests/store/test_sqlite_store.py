"""SQLite-specific behaviour: migrations, WAL, persistence, opening errors, threads."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from chronorag.errors import StoreError
from chronorag.store import PreparedDocument, SQLiteStore
from chronorag.store.migrations import MIGRATIONS, migrate

Make = Callable[..., PreparedDocument]
ALL = [m.__name__ for m in MIGRATIONS]


def test_migrations_recorded_and_second_open_applies_nothing(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    with SQLiteStore(db) as store:
        assert store.applied_migrations() == ALL
    assert ALL[0] == "m001_initial" and len(ALL) >= 2
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        assert migrate(conn) == []
        stamps = conn.execute("SELECT name, applied_at FROM _migrations").fetchall()
    finally:
        conn.close()
    with SQLiteStore(db) as store:
        assert store.applied_migrations() == ALL
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT name, applied_at FROM _migrations").fetchall() == stamps
    finally:
        conn.close()


def test_older_database_is_upgraded(tmp_path: Path, make: Make) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    assert migrate(conn, upto="m001_initial") == ["m001_initial"]
    conn.close()
    with SQLiteStore(db) as store:
        assert store.applied_migrations() == ALL
        store.write([make("a")])
        indexes = {r[0] for r in store._query("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"documents_valid_from_start", "documents_status", "documents_subject"} <= indexes


def test_failed_migration_rolls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def m999_broken(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    monkeypatch.setattr("chronorag.store.migrations.MIGRATIONS", [*MIGRATIONS, m999_broken])
    with pytest.raises(StoreError, match="m999_broken"):
        SQLiteStore(tmp_path / "kb.db")
    conn = sqlite3.connect(tmp_path / "kb.db")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert "half_done" not in tables and "documents" in tables


def test_wal_and_pragmas(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        assert store.journal_mode() == "wal"
        assert store._query("PRAGMA foreign_keys")[0][0] == 1
        assert store._query("PRAGMA synchronous")[0][0] == 1  # NORMAL
    with SQLiteStore(":memory:") as mem:
        assert mem.journal_mode() == "memory"


def test_reopen_persists(tmp_path: Path, make: Make) -> None:
    db = tmp_path / "kb.db"
    prepared = make("a", supersedes=("z",))
    with SQLiteStore(db) as store:
        store.write([prepared])
        gen = store.generation()
    with SQLiteStore(str(db)) as store:
        assert store.documents() == [prepared.document]
        assert store.chunks() == list(prepared.chunks)
        assert store.generation() == gen
        assert store.links() == [("a", "z", "supersedes")]


def test_two_connections_see_each_other(tmp_path: Path, make: Make) -> None:
    db = tmp_path / "kb.db"
    with SQLiteStore(db) as one, SQLiteStore(db) as two:
        gen = two.generation()
        one.write([make("a")])
        assert two.generation() == gen + 1
        assert [d.id for d in two.documents()] == ["a"]


def test_open_errors_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        SQLiteStore(tmp_path / "missing" / "kb.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="chronorag database"):
        SQLiteStore(junk)


def test_threads_share_one_store(tmp_path: Path, make: Make) -> None:
    store = SQLiteStore(tmp_path / "kb.db")
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(5):
                store.write([make(f"d{n}-{i}")])
                store.chunks()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.count()["documents"] == 20 and store.generation() == 20
    store.close()
