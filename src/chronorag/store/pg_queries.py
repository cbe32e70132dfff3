"""PostgreSQL SQL of the chunk numbering, people and visibility, API keys and the
semantic layer that binds parameters: the PostgreSQL dialect of ``rows``, ``people``,
``keys`` and ``layer`` (the statements without parameters are shared: ``common``).

Each function runs inside the caller's lock (and transaction, for writes). Id lists are
bound as one array parameter (``= ANY(%s::text[])``), the counterpart of SQLite's
``json_each``: any number of ids, one parameter.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from chronorag.people.model import Directory
from chronorag.store import common
from chronorag.store.base import ApiKey, ChunkRow, LayerRecord

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[Any]
else:
    Connection = Any

# -- chunk numbering ------------------------------------------------------------------------

_ROWS = """SELECT c.seq, c.id, c.doc_id, c.idx, c.text, d.subject,
    d.occurred_at_start, d.occurred_at_end, d.occurred_at_gran
    FROM chunks c JOIN documents d ON d.id = c.doc_id
    WHERE c.seq = ANY(%s::bigint[]) ORDER BY c.seq"""


def next_seqs(conn: Connection, count: int) -> range:
    """Reserve ``count`` chunk numbers (inside the caller's write transaction)."""
    row = conn.execute("UPDATE meta SET value = value + %s WHERE key = 'chunk_seq' "
                       "RETURNING value", (count,)).fetchone()
    last = int(row[0]) if row else count
    return range(last - count + 1, last + 1)


def chunk_rows(conn: Connection, seqs: Sequence[int]) -> list[ChunkRow]:
    rows = conn.execute(_ROWS, ([int(s) for s in seqs],)).fetchall()
    return common.decode_chunk_rows(rows)


# -- people and visibility ------------------------------------------------------------------

# The rule of chronorag.store.people, written so it is never NULL (``NOT _VISIBLE`` must
# be true for every hidden record, also when no user is given).
_VISIBLE = """(%(admin)s OR subject IS NULL OR (%(user)s::text IS NOT NULL AND (
    subject = %(user)s::text
    OR subject IN (SELECT subject FROM access_grants WHERE reader = %(user)s::text))))"""
_ABOUT = "(%(subjects)s::text[] IS NULL OR subject = ANY(%(subjects)s::text[]))"


def replace_directory(conn: Connection, directory: Directory) -> None:
    conn.execute("DELETE FROM access_grants")
    conn.execute("DELETE FROM people")
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO people (id, name, aliases, attributes) "
                        "VALUES (%s, %s, %s, %s)",
                        [(p.id, p.name, json.dumps(list(p.aliases), ensure_ascii=False),
                      json.dumps(dict(p.attributes), ensure_ascii=False))
                         for p in directory.people])
        cur.executemany("INSERT INTO access_grants (reader, subject) VALUES (%s, %s)",
                        [(reader, subject) for reader, subjects in directory.access.items()
                         for subject in subjects])


def visible_doc_ids(conn: Connection, user: str | None, *, admin: bool,
                    subjects: Sequence[str] | None,
                    among: Sequence[str] | None = None) -> frozenset[str] | None:
    """The rule of :func:`chronorag.store.people.visible_doc_ids`, in one query."""
    params: dict[str, Any] = {"admin": bool(admin), "user": user,
                              "subjects": None if subjects is None else list(subjects)}
    if among is not None:
        params["among"] = list(among)
        rows = conn.execute(f"SELECT id FROM documents WHERE {_VISIBLE} AND {_ABOUT} "
                            "AND id = ANY(%(among)s::text[])", params).fetchall()
        return frozenset(r[0] for r in rows)
    if subjects is None:
        hidden = conn.execute(f"SELECT EXISTS (SELECT 1 FROM documents WHERE NOT {_VISIBLE})",
                              params).fetchone()
        if not (hidden and hidden[0]):
            return None
    rows = conn.execute(f"SELECT id FROM documents WHERE {_VISIBLE} AND {_ABOUT}",
                        params).fetchall()
    return frozenset(r[0] for r in rows)


def chunk_ids_of(conn: Connection, doc_ids: Sequence[str]) -> frozenset[str]:
    rows = conn.execute("SELECT id FROM chunks WHERE doc_id = ANY(%s::text[])",
                        (list(doc_ids),)).fetchall()
    return frozenset(r[0] for r in rows)


# -- API keys -------------------------------------------------------------------------------

def add_key(conn: Connection, key: ApiKey, *, digest: str) -> None:
    # Times as isoformat text, exactly as the SQLite store keeps them.
    conn.execute(f"INSERT INTO api_keys ({common.KEY_COLUMNS}, digest) "
                 "VALUES (%s, %s, %s, %s, %s, %s)",
                 (key.id, key.user, key.admin, key.created_at.isoformat(),
                  None if key.revoked_at is None else key.revoked_at.isoformat(), digest))


def key_by_digest(conn: Connection, digest: str) -> ApiKey | None:
    row = conn.execute(f"SELECT {common.KEY_COLUMNS} FROM api_keys WHERE digest = %s",
                       (digest,)).fetchone()
    return None if row is None else common.api_key(row)


def revoke_key(conn: Connection, key_id: str, *, at: datetime) -> bool:
    cursor = conn.execute("UPDATE api_keys SET revoked_at = %s WHERE id = %s AND "
                          "revoked_at IS NULL", (at.isoformat(), key_id))
    return cursor.rowcount > 0


# -- semantic layer -------------------------------------------------------------------------

def layer_vectors(conn: Connection, embedder: str) -> tuple[list[str], np.ndarray]:
    return common.matrix(conn.execute("SELECT key, dim, blob FROM semantic_vectors WHERE "
                                      "embedder = %s ORDER BY key", (embedder,)).fetchall())


_UPSERT_ASSET = """INSERT INTO semantic_assets VALUES (%s, %s, %s, %s, %s, %s, %s)
    ON CONFLICT (kind, id) DO UPDATE SET status = excluded.status, body = excluded.body,
    source = excluded.source, content_hash = excluded.content_hash,
    ingested_at = excluded.ingested_at"""
_UPSERT_JOIN = """INSERT INTO semantic_joins VALUES (%s, %s, %s, %s, %s)
    ON CONFLICT (id) DO UPDATE SET left_table = excluded.left_table,
    right_table = excluded.right_table, on_clause = excluded.on_clause,
    fanout = excluded.fanout"""
_UPSERT_VECTOR = """INSERT INTO semantic_vectors VALUES (%s, %s, %s, %s)
    ON CONFLICT (key, embedder) DO UPDATE SET dim = excluded.dim, blob = excluded.blob"""


def write_layer(conn: Connection, records: Sequence[LayerRecord], *,
                vectors: Mapping[str, tuple[Sequence[str], np.ndarray]], now: datetime) -> None:
    """Upsert inside the caller's transaction (SQLite's ``INSERT OR REPLACE``)."""
    with conn.cursor() as cur:
        cur.executemany(_UPSERT_ASSET, [(r.kind, r.id, r.status, r.body, r.source,
                                         r.content_hash, now.isoformat()) for r in records])
        cur.executemany(_UPSERT_JOIN, [(r.id, *r.join) for r in records if r.join is not None])
        for name, (keys, matrix) in vectors.items():
            arr = np.ascontiguousarray(matrix, dtype="<f4")
            cur.executemany(_UPSERT_VECTOR, [(k, name, arr.shape[1], arr[i].tobytes())
                                             for i, k in enumerate(keys)])
    if records:
        common.bump_layer_generation(conn)


# Paths are arrays; the seeds are cast to the columns' collation, which a recursive CTE
# needs to match between its two terms.
_JOIN_WALK = """
WITH RECURSIVE edges(a, b, id) AS (
    SELECT left_table, right_table, id FROM semantic_joins WHERE id = ANY(%(allowed)s::text[])
    UNION ALL
    SELECT right_table, left_table, id FROM semantic_joins WHERE id = ANY(%(allowed)s::text[])
),
walk(node, depth, tables, steps) AS (
    SELECT s COLLATE "C", 0, ARRAY[s COLLATE "C"], ARRAY[]::text[] COLLATE "C"
      FROM unnest(%(seeds)s::text[]) AS s
    UNION ALL
    SELECT e.b, w.depth + 1, w.tables || e.b, w.steps || e.id
      FROM walk w JOIN edges e ON e.a = w.node
     WHERE w.depth < %(depth)s AND NOT (e.b = ANY(w.tables))
)
SELECT tables, steps FROM walk WHERE depth > 0
"""


def walk_joins(conn: Connection, seeds: Sequence[str], *, allowed: Sequence[str],
               depth: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    rows = conn.execute(_JOIN_WALK, {"allowed": list(allowed), "seeds": list(seeds),
                                     "depth": depth}).fetchall()
    return [(tuple(tables), tuple(steps)) for tables, steps in rows]
