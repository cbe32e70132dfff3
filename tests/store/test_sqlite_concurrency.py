"""One store, several connections and processes: readers never wait for a writer, writers
wait a bounded time and then say so, migrations lock only when one is pending."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from chronorag.errors import StoreError
from chronorag.store import PreparedDocument, SQLiteStore, locking
from chronorag.store.migrations import MIGRATIONS, migrate

Make = Callable[..., PreparedDocument]


@pytest.fixture
def short_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer out of budget still waits one slice (2 s) for the lock before it gives up;
    a 0.2 s slice gives the same outcome without sleeping through the fast test loop."""
    monkeypatch.setattr(locking, "SLICE_S", 0.2)


def _hold_write_lock(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    return conn


def test_open_and_read_while_another_connection_writes(tmp_path: Path, make: Make) -> None:
    db = tmp_path / "kb.db"
    with SQLiteStore(db) as store:
        store.write([make("a")])
    writer = _hold_write_lock(db)
    try:
        started = time.monotonic()
        with SQLiteStore(db, busy_timeout=0) as reader:
            assert reader.document_ids() == ["a"]
            assert reader.generation() == 1  # the last committed state
            assert reader.count()["chunks"] == 2
        assert time.monotonic() - started < 1.0
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_writer_gives_up_after_its_budget_with_a_clear_message(tmp_path: Path, make: Make,
                                                               short_slice: None) -> None:
    db = tmp_path / "kb.db"
    SQLiteStore(db).close()
    writer = _hold_write_lock(db)
    try:
        with SQLiteStore(db, busy_timeout=0) as store, pytest.raises(StoreError) as caught:
            store.write([make("a")])
        message = str(caught.value)
        assert "busy" in message and "CHRONORAG_BUSY_TIMEOUT" in message
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with SQLiteStore(db) as store:
        assert store.document_ids() == []


def test_writer_waits_for_the_lock_to_be_released(tmp_path: Path, make: Make) -> None:
    db = tmp_path / "kb.db"
    SQLiteStore(db).close()
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sqlite3, time
        conn = sqlite3.connect({str(db)!r}, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        time.sleep(1.5)
        conn.execute("COMMIT")
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        with SQLiteStore(db, busy_timeout=30) as store:
            store.write([make("a")])
            assert store.document_ids() == ["a"]
        assert time.monotonic() - started >= 0.5
    finally:
        holder.wait(timeout=30)


def test_pending_migration_waits_then_applies(tmp_path: Path, short_slice: None) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")  # as every store opened by chronorag is
    migrate(conn, upto=MIGRATIONS[-2].__name__)
    conn.close()
    writer = _hold_write_lock(db)
    try:
        with pytest.raises(StoreError, match="busy"):
            SQLiteStore(db, busy_timeout=0)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with SQLiteStore(db) as store:
        assert store.applied_migrations()[-1] == MIGRATIONS[-1].__name__


def test_m005_backfills_derivation_and_embedder(tmp_path: Path, make: Make) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn, upto="m004_people")
    conn.close()
    # Write rows the way the older version did: no derivation column yet.
    prepared = make("a", embedders=("e5-small",))
    from chronorag.store import codec

    conn = sqlite3.connect(db, isolation_level=None)
    # The columns of that version: none of the later migrations' (m010's applies_to).
    old = [(c, v) for c, v in zip(codec.DOC_COLUMNS, codec.document_row(
        prepared.document, prepared.content_hash), strict=True) if c != "applies_to"]
    marks = ", ".join("?" * len(old))
    conn.execute(f"INSERT INTO documents ({', '.join(c for c, _ in old)}) VALUES ({marks})",
                 [v for _, v in old])
    chunk_rows, _ = codec.chunk_rows(prepared.chunks)
    conn.executemany('INSERT INTO chunks (id, doc_id, idx, start, "end", text) '
                     "VALUES (?, ?, ?, ?, ?, ?)", chunk_rows)
    for chunk, row in zip(prepared.chunks, prepared.vectors["e5-small"], strict=True):
        conn.execute("INSERT INTO vectors VALUES (?, ?, ?, ?)",
                     (chunk.id, "e5-small", 4, row.astype("<f4").tobytes()))
    conn.close()
    with SQLiteStore(db) as store:
        assert store.fingerprints(["a"])["a"][1] == "chunker=1;embedders=e5-small"
        assert store.setting("embedder") == "e5-small"
