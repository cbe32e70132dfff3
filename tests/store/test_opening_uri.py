"""Whether ``--db`` names a store that exists, without making one."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronorag import cli
from chronorag.store import PostgresStore, SQLiteStore
from chronorag.store.opening_uri import store_exists
from chronorag.store.pg_session import has_schema


def test_a_sqlite_store_exists_once_made(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    assert not store_exists(db) and not store_exists(str(db))
    assert not db.exists()
    SQLiteStore(db).close()
    assert store_exists(db)
    assert store_exists(":memory:")


def test_a_database_without_the_schema_is_no_store(pg_uri: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert not store_exists(pg_uri)
    assert cli.main(["documents", "list", "--db", pg_uri]) == 1
    assert "no store at 'postgresql://" in capsys.readouterr().err
    assert not has_schema(pg_uri)  # the reader made none
    PostgresStore(pg_uri).close()
    assert store_exists(pg_uri)
    assert cli.main(["documents", "list", "--db", pg_uri, "--json"]) == 0
    assert capsys.readouterr().out == "[]\n"
