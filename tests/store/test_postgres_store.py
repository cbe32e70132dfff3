"""PostgreSQL-specific behaviour: migrations, several connections, the writer lock,
opening errors, the missing client, and choosing the backend from ``--db``.

The behaviour both backends share is in test_store_contract.py and test_store_layer.py,
which run against PostgreSQL through the ``store`` fixture.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from chronorag.errors import MissingDependencyError, StoreError
from chronorag.store import PostgresStore, PreparedDocument, SQLiteStore, codec, open_store
from chronorag.store.opening_uri import is_postgres_uri
from chronorag.store.pg_migrations import MIGRATIONS, migrate
from chronorag.store.pg_session import redacted

Make = Callable[..., PreparedDocument]
ALL = [m.__name__ for m in MIGRATIONS]


def _connect(uri: str) -> Any:
    import psycopg

    return psycopg.connect(uri, autocommit=True)


def _columns(uri: str, table: str) -> list[str]:
    with _connect(uri) as conn:
        rows = conn.execute("SELECT column_name FROM information_schema.columns WHERE "
                            "table_name = %s ORDER BY ordinal_position", (table,)).fetchall()
    return [r[0] for r in rows]


@pytest.fixture
def pg_store(pg_uri: str) -> Iterator[PostgresStore]:
    with PostgresStore(pg_uri) as store:
        yield store


# -- migrations -----------------------------------------------------------------------------

def test_migrations_recorded_and_second_open_applies_nothing(pg_uri: str) -> None:
    with PostgresStore(pg_uri) as store:
        assert store.applied_migrations() == ALL
    assert ALL[0] == "pg001_documents" and len(ALL) >= 2
    with _connect(pg_uri) as conn:
        assert migrate(conn) == []
        stamps = conn.execute("SELECT name, applied_at FROM _migrations").fetchall()
    with PostgresStore(pg_uri) as store:
        assert store.applied_migrations() == ALL
    with _connect(pg_uri) as conn:
        assert conn.execute("SELECT name, applied_at FROM _migrations").fetchall() == stamps


def test_stores_opened_at_once_apply_each_migration_once(pg_uri: str) -> None:
    opened: list[PostgresStore] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            opened.append(PostgresStore(pg_uri))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for store in opened:
        store.close()
    assert errors == [] and len(opened) == 3
    with _connect(pg_uri) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM _migrations")] == ALL


def test_older_database_is_upgraded(pg_uri: str, make: Make) -> None:
    with _connect(pg_uri) as conn:
        assert migrate(conn, upto=ALL[0]) == [ALL[0]]
    with PostgresStore(pg_uri) as store:
        assert store.applied_migrations() == ALL
        store.write([make("a")])
        assert store.document_ids() == ["a"]


def test_failed_migration_rolls_back(pg_uri: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def pg999_broken(db: Any) -> None:
        db.execute("CREATE TABLE half_done (x int)")
        raise RuntimeError("boom")

    monkeypatch.setattr("chronorag.store.pg_migrations.MIGRATIONS", [*MIGRATIONS, pg999_broken])
    with pytest.raises(StoreError, match="pg999_broken"):
        PostgresStore(pg_uri)
    assert _columns(pg_uri, "half_done") == [] and _columns(pg_uri, "documents")


def test_codec_columns_exist_and_migrations_ignore_live_fields(
        pg_server: Any, pg_uri: str, monkeypatch: pytest.MonkeyPatch) -> None:
    PostgresStore(pg_uri).close()
    columns = _columns(pg_uri, "documents")
    assert set(codec.DOC_COLUMNS) <= set(columns)
    # A released migration creates the same schema whatever the live code declares.
    changed = (*codec.INTERVAL_FIELDS[1:], "expires_at")
    for name, module in list(sys.modules.items()):
        if name.startswith("chronorag.") and hasattr(module, "INTERVAL_FIELDS"):
            monkeypatch.setattr(module, "INTERVAL_FIELDS", changed)
    other = pg_server.new_database()
    try:
        with _connect(pg_server.uri(other)) as conn:
            migrate(conn)
        assert _columns(pg_server.uri(other), "documents") == columns
    finally:
        pg_server.drop(other)


def test_text_columns_sort_by_code_point_whatever_the_server_locale(pg_uri: str) -> None:
    # SQLite compares text bytewise; a server database made with, say, en_US.UTF-8 would
    # sort "B" after "a" unless every column says otherwise.
    PostgresStore(pg_uri).close()
    with _connect(pg_uri) as conn:
        rows = conn.execute("SELECT table_name, column_name, collation_name FROM "
                            "information_schema.columns WHERE table_schema = 'public' AND "
                            "data_type = 'text'").fetchall()
    assert len(rows) > 40
    assert [r for r in rows if r[2] != "C"] == []


# -- several connections --------------------------------------------------------------------

def test_reopen_persists(pg_uri: str, make: Make) -> None:
    prepared = make("a", supersedes=("z",))
    with PostgresStore(pg_uri) as store:
        store.write([prepared])
        gen = store.generation()
    with PostgresStore(pg_uri) as store:
        assert store.documents() == [prepared.document]
        assert store.chunks() == list(prepared.chunks)
        assert store.generation() == gen
        assert store.links() == [("a", "z", "supersedes")]


def test_reader_sees_committed_state_while_another_store_writes(pg_uri: str,
                                                                 make: Make) -> None:
    with PostgresStore(pg_uri) as writer, PostgresStore(pg_uri, busy_timeout=0) as reader:
        writer.write([make("a")])
        gen = reader.generation()
        with writer.atomic():
            writer.write([make("b")])
            started = time.monotonic()
            assert reader.document_ids() == ["a"]  # the last committed state, no waiting
            assert reader.generation() == gen and reader.count()["chunks"] == 2
            assert time.monotonic() - started < 1.0
        assert reader.document_ids() == ["a", "b"] and reader.generation() == gen + 1


def test_writer_gives_up_after_its_budget_with_a_clear_message(pg_uri: str,
                                                               make: Make) -> None:
    with PostgresStore(pg_uri) as holder, PostgresStore(pg_uri, busy_timeout=0) as now, \
            PostgresStore(pg_uri, busy_timeout=0.3) as patient:
        with holder.atomic():
            holder.set_setting("embedder", "e5")
            for store in (now, patient):
                started = time.monotonic()
                with pytest.raises(StoreError) as caught:
                    store.write([make("a")])
                message = str(caught.value)
                assert "busy" in message and "CHRONORAG_BUSY_TIMEOUT" in message
            assert time.monotonic() - started >= 0.25
        assert now.document_ids() == [] and now.setting("embedder") == "e5"
        now.write([make("a")])  # the lock is free again; the failed attempts left no trace
        assert patient.document_ids() == ["a"]


def test_writer_waits_for_the_lock_to_be_released(pg_uri: str, make: Make) -> None:
    with PostgresStore(pg_uri) as holder, PostgresStore(pg_uri, busy_timeout=30) as store:
        locked, release = threading.Event(), threading.Event()

        def hold() -> None:
            with holder.atomic():
                holder.write([make("first")])
                locked.set()
                release.wait(10)

        thread = threading.Thread(target=hold)
        thread.start()
        locked.wait(10)
        timer = threading.Timer(0.5, release.set)
        timer.start()
        started = time.monotonic()
        store.write([make("second")])
        assert time.monotonic() - started >= 0.4
        thread.join()
        assert store.document_ids() == ["first", "second"]


def test_threads_share_one_store(pg_store: PostgresStore, make: Make) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(5):
                pg_store.write([make(f"d{n}-{i}")])
                pg_store.chunks()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert pg_store.count()["documents"] == 20 and pg_store.generation() == 20


# -- failures -------------------------------------------------------------------------------

def test_failed_batch_inside_atomic_rolls_back_only_itself(pg_store: PostgresStore,
                                                           make: Make) -> None:
    ok = make("bad")
    broken = dataclasses.replace(ok, chunks=(ok.chunks[0],
                                             dataclasses.replace(ok.chunks[1], start=9, end=3)))
    with pg_store.atomic():
        pg_store.write([make("a")])
        with pytest.raises(StoreError, match="rejected, store unchanged"):
            pg_store.write([make("half"), broken])
        pg_store.write([make("b")])
    assert pg_store.document_ids() == ["a", "b"] and pg_store.count()["chunks"] == 4
    pg_store.write([make("c")])  # the connection is not left in a failed transaction
    assert pg_store.generation() == 3


def test_text_with_nul_is_refused_and_nothing_changes(pg_store: PostgresStore,
                                                      make: Make) -> None:
    with pytest.raises(StoreError, match="NUL"):
        pg_store.write([make("a"), make("nul", "a\x00b")])
    assert pg_store.document_ids() == []


def test_open_errors_say_what_to_do(tmp_path: Path) -> None:
    uri = f"postgresql://me:s3cret@/kb?host={tmp_path}/nowhere&connect_timeout=2"
    with pytest.raises(StoreError, match="server is running") as caught:
        PostgresStore(uri)
    assert "s3cret" not in str(caught.value) and "***" in str(caught.value)


def test_redacted_hides_passwords() -> None:
    assert redacted("postgresql://u:pw@db.example:5432/kb") == "postgresql://u:***@db.example:5432/kb"
    assert redacted("postgresql://u@h/kb?password=pw&sslmode=require") == \
        "postgresql://u@h/kb?password=***&sslmode=require"
    assert redacted("postgresql://postgres:@/kb?host=/tmp/x") == "postgresql://postgres:@/kb?host=/tmp/x"


def test_missing_psycopg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(MissingDependencyError, match=r"chronorag\[postgres\]"):
        PostgresStore("postgresql://localhost/kb")


def test_importing_the_backend_does_not_import_psycopg() -> None:
    code = ("import sys, chronorag.store, chronorag.store.postgres; "
            "print('psycopg' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "False"


# -- choosing the backend -------------------------------------------------------------------

def test_open_store_dispatches_on_the_uri(pg_uri: str, tmp_path: Path) -> None:
    assert is_postgres_uri("postgresql://h/db") and is_postgres_uri("POSTGRES://h/db")
    assert not is_postgres_uri("kb.db") and not is_postgres_uri(Path("postgresql://h/db"))
    for db in (tmp_path / "kb.db", str(tmp_path / "other.db"), ":memory:"):
        store = open_store(db)
        assert isinstance(store, SQLiteStore)
        store.close()
    short = "postgres://" + pg_uri.removeprefix("postgresql://")
    for uri in (pg_uri, short):
        store = open_store(uri)
        try:
            assert isinstance(store, PostgresStore)
            assert store.applied_migrations() == ALL
        finally:
            store.close()
