"""What the SQLite and PostgreSQL backends share: statements without parameters, which
sqlite3 and psycopg run alike, and the decoding of the rows both return.

Statements that bind parameters stay with their dialect (``?`` and ``json_each`` in
:mod:`chronorag.store.sqlite` and its modules, ``%s`` and arrays in ``pg_queries``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from chronorag.errors import StoreError
from chronorag.people.model import Directory, Person
from chronorag.store import codec
from chronorag.store.base import LINK_KINDS, ApiKey, ChunkRow, LayerRecord

TABLES = ("documents", "chunks", "sentences", "vectors", "links")
"""The tables ``Store.count`` counts."""

COUNT = " UNION ALL ".join(f"SELECT '{t}', count(*) FROM {t}" for t in TABLES)
GENERATION = "SELECT value FROM meta WHERE key = 'generation'"
VECTOR_COUNTS = "SELECT embedder, count(*) FROM vectors GROUP BY embedder"

# Quoted: USER is a reserved word in PostgreSQL; SQLite reads the quoted name alike.
KEY_COLUMNS = 'id, "user", admin, created_at, revoked_at'


class Cursor(Protocol):
    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What a sqlite3 and a psycopg connection both offer: a statement run on its own."""

    def execute(self, statement: str, /) -> Cursor: ...


def generation(conn: Connection) -> int:
    """The store's generation: bumped by every write or delete that changes content."""
    return int(conn.execute(GENERATION).fetchone()[0])


def bump_generation(conn: Connection) -> None:
    """Mark stored content changed (inside the caller's write transaction)."""
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")


def check_link_kind(kind: str | None) -> None:
    if kind is not None and kind not in LINK_KINDS:
        raise StoreError(f"unknown link kind {kind!r}; choose one of {', '.join(LINK_KINDS)}")


def matrix(rows: Sequence[Sequence[Any]]) -> tuple[list[str], np.ndarray]:
    """``(key, dim, blob)`` rows as their keys and one float32 matrix, rows aligned
    (``([], (0, 0))`` for none); every row has the first one's ``dim``."""
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    flat = np.frombuffer(b"".join(r[2] for r in rows), dtype="<f4")
    return [r[0] for r in rows], flat.reshape(len(rows), rows[0][1]).astype(np.float32)


def chunk_matrix(rows: Sequence[Sequence[Any]], *,
                 embedder: str) -> tuple[list[str], np.ndarray]:
    """:func:`matrix` of one embedder's chunk vectors, refusing mixed sizes."""
    dims = {r[1] for r in rows}
    if len(dims) > 1:
        raise StoreError(f"embedder {embedder!r} has mixed vector sizes {sorted(dims)}; "
                         "re-ingest with force=True")
    return matrix(rows)


def decode_chunk_rows(rows: Sequence[Sequence[Any]]) -> list[ChunkRow]:
    """``(seq, id, doc_id, idx, text, subject, occurred_at start, end, gran)`` rows."""
    intervals = codec.IntervalDecoder()
    return [ChunkRow(seq, cid, doc_id, idx, text, subject, intervals(start, end, gran))
            for seq, cid, doc_id, idx, text, subject, start, end, gran in rows]


def chunk_seqs(conn: Connection) -> np.ndarray:
    """Every chunk's number, ascending, read from the index on ``seq`` alone."""
    rows = conn.execute("SELECT seq FROM chunks ORDER BY seq").fetchall()
    return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))


def chunk_summary(conn: Connection) -> tuple[int, int, int]:
    """``(count, sum, maximum)`` of the chunk numbers: what an index checks it matches."""
    count, total, top = conn.execute(
        "SELECT count(*), coalesce(sum(seq), 0), coalesce(max(seq), 0) FROM chunks").fetchone()
    return (int(count), int(total), int(top))


def read_directory(conn: Connection) -> Directory:
    """The stored people (by id) and access grants."""
    people = tuple(Person(pid, name, tuple(json.loads(aliases)), json.loads(attributes))
                   for pid, name, aliases, attributes in conn.execute(
                       "SELECT id, name, aliases, attributes FROM people ORDER BY id"))
    access: dict[str, list[str]] = {}
    for reader, subject in conn.execute(
            "SELECT reader, subject FROM access_grants ORDER BY reader, subject"):
        access.setdefault(reader, []).append(subject)
    return Directory(people, {k: tuple(v) for k, v in access.items()})


def api_key(row: Sequence[Any]) -> ApiKey:
    """A key from its :data:`KEY_COLUMNS` (times kept as isoformat text by both)."""
    key_id, user, admin, created, revoked = row
    return ApiKey(key_id, user, bool(admin), datetime.fromisoformat(created),
                  None if revoked is None else datetime.fromisoformat(revoked))


def api_keys(conn: Connection) -> list[ApiKey]:
    rows = conn.execute(f"SELECT {KEY_COLUMNS} FROM api_keys ORDER BY created_at, id")
    return [api_key(row) for row in rows]


def api_key_digests(conn: Connection) -> dict[str, str]:
    rows = conn.execute("SELECT id, digest FROM api_keys ORDER BY id").fetchall()
    return {str(key_id): str(digest) for key_id, digest in rows}


def layer_generation(conn: Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'semantic_generation'").fetchone()
    return int(row[0]) if row else 0


def bump_layer_generation(conn: Connection) -> None:
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'semantic_generation'")


def layer_records(conn: Connection) -> list[LayerRecord]:
    """Every asset (with its join edge when it is a join), ordered by kind and id."""
    joins = {r[0]: (r[1], r[2], r[3], r[4]) for r in conn.execute(
        "SELECT id, left_table, right_table, on_clause, fanout FROM semantic_joins")}
    rows = conn.execute("SELECT kind, id, status, body, source, content_hash "
                        "FROM semantic_assets ORDER BY kind, id").fetchall()
    return [LayerRecord(kind, asset_id, status, body, source, digest,
                        joins.get(asset_id) if kind == "join" else None)
            for kind, asset_id, status, body, source, digest in rows]
