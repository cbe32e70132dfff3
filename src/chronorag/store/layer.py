"""SQL of the semantic-layer tables (migration ``m003_semantic_layer``) that binds
parameters; the statements without any are shared with PostgreSQL (``common``).

The store keeps layer assets as opaque JSON records plus the join edges, and walks the
join graph with a recursive CTE; what an asset means is ``chronorag.semantic``'s business.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

import numpy as np

from chronorag.store import common
from chronorag.store.base import LayerRecord

_SEP = "\x1f"  # path separator inside the CTE: a control character no id contains


def read_vectors(conn: sqlite3.Connection, embedder: str) -> tuple[list[str], np.ndarray]:
    return common.matrix(conn.execute("SELECT key, dim, blob FROM semantic_vectors WHERE "
                                      "embedder = ? ORDER BY key", (embedder,)).fetchall())


def write(conn: sqlite3.Connection, records: Sequence[LayerRecord], *,
          vectors: Mapping[str, tuple[Sequence[str], np.ndarray]], now: datetime) -> None:
    """Upsert inside the caller's transaction."""
    for record in records:
        conn.execute("INSERT OR REPLACE INTO semantic_assets VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (record.kind, record.id, record.status, record.body, record.source,
                      record.content_hash, now.isoformat()))
        if record.join is not None:
            conn.execute("INSERT OR REPLACE INTO semantic_joins VALUES (?, ?, ?, ?, ?)",
                         (record.id, *record.join))
    for name, (keys, matrix) in vectors.items():
        arr = np.ascontiguousarray(matrix, dtype="<f4")
        conn.executemany("INSERT OR REPLACE INTO semantic_vectors VALUES (?, ?, ?, ?)",
                         [(k, name, arr.shape[1], arr[i].tobytes()) for i, k in enumerate(keys)])
    if records:
        common.bump_layer_generation(conn)


_JOIN_WALK = f"""
WITH RECURSIVE edges(a, b, id) AS (
    SELECT left_table, right_table, id FROM semantic_joins
     WHERE id IN (SELECT value FROM json_each(:allowed))
    UNION ALL
    SELECT right_table, left_table, id FROM semantic_joins
     WHERE id IN (SELECT value FROM json_each(:allowed))
),
walk(node, depth, tables, steps) AS (
    SELECT value, 0, '{_SEP}' || value || '{_SEP}', '' FROM json_each(:seeds)
    UNION ALL
    SELECT e.b, w.depth + 1, w.tables || e.b || '{_SEP}', w.steps || e.id || '{_SEP}'
      FROM walk w JOIN edges e ON e.a = w.node
     WHERE w.depth < :depth AND instr(w.tables, '{_SEP}' || e.b || '{_SEP}') = 0
)
SELECT tables, steps FROM walk WHERE depth > 0
"""


def walk_joins(conn: sqlite3.Connection, seeds: Sequence[str], *, allowed: Sequence[str],
               depth: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    rows = conn.execute(_JOIN_WALK, {"allowed": json.dumps(list(allowed)),
                                     "seeds": json.dumps(list(seeds)),
                                     "depth": depth}).fetchall()
    return [(tuple(t for t in tables.split(_SEP) if t), tuple(s for s in steps.split(_SEP) if s))
            for tables, steps in rows]
