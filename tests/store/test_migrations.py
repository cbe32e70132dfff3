"""Released migrations are frozen: the schema they create never follows live code."""

from __future__ import annotations

import sqlite3
import sys

import pytest

from chronorag.store import codec
from chronorag.store.migrations import migrate

M001_DOCUMENT_COLUMNS = (
    "id", "title", "text", "source_type", "status",
    "valid_from_start", "valid_from_end", "valid_from_gran",
    "valid_to_start", "valid_to_end", "valid_to_gran",
    "occurred_at_start", "occurred_at_end", "occurred_at_gran",
    "published_at_start", "published_at_end", "published_at_gran",
    "modified_at_start", "modified_at_end", "modified_at_gran",
    "ingested_at", "supersedes", "derived_from", "subject", "owner", "metadata", "source",
    "content_hash",
)
"""The ``documents`` table as m001_initial created it when it was released."""


def _schema(upto: str | None = None) -> tuple[dict[str, str], tuple[str, ...]]:
    """``CREATE`` statements by object name, and the columns of ``documents``."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(db, upto=upto)
        sql = {name: text for name, text in db.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")}
        columns = tuple(row[1] for row in db.execute("PRAGMA table_info(documents)"))
    finally:
        db.close()
    return sql, columns


def test_m001_creates_the_released_documents_table() -> None:
    _, columns = _schema("m001_initial")
    assert columns == M001_DOCUMENT_COLUMNS


def test_m001_ignores_a_change_of_the_interval_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _schema("m001_initial")
    changed = (*codec.INTERVAL_FIELDS[1:], "expires_at")
    for name, module in list(sys.modules.items()):
        if name.startswith("chronorag.") and hasattr(module, "INTERVAL_FIELDS"):
            monkeypatch.setattr(module, "INTERVAL_FIELDS", changed)
    monkeypatch.setattr("chronorag.store.migrations.INTERVAL_FIELDS", changed, raising=False)
    assert _schema("m001_initial") == before
    assert before[1] == M001_DOCUMENT_COLUMNS


def test_codec_columns_exist_after_all_migrations() -> None:
    _, columns = _schema()
    assert set(codec.DOC_COLUMNS) <= set(columns)


def test_m007_numbers_existing_chunks_and_continues_after_them() -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(db, upto="m006_sentence_vectors")
        db.execute("INSERT INTO documents (id, title, text, supersedes, derived_from, "
                   "metadata, source, content_hash) VALUES ('d', '', 'x', '[]', '[]', '{}', "
                   "'', 'h')")
        db.executemany('INSERT INTO chunks (id, doc_id, idx, start, "end", text) '
                       "VALUES (?, 'd', ?, 0, 1, 'x')", [("c0", 0), ("c1", 1)])
        migrate(db)
        seqs = [r[0] for r in db.execute("SELECT seq FROM chunks ORDER BY idx")]
        last = db.execute("SELECT value FROM meta WHERE key = 'chunk_seq'").fetchone()[0]
    finally:
        db.close()
    assert seqs == [1, 2] and last == 2
