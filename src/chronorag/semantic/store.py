"""Semantic-layer tables (migration ``m003_semantic_layer``) on a ``SQLiteStore``.

Reads and writes go through ``SQLiteStore.connection()``; the document tables are never
touched. Join-graph walks are recursive CTEs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from chronorag.model import Granularity, Interval
from chronorag.semantic.model import Asset, JoinPath, JoinStep
from chronorag.store.sqlite import SQLiteStore

__all__ = ["has_layer", "known_ids", "layer_generation", "read_assets", "read_vectors",
           "walk_joins", "write_layer"]

_SEP = "\x1f"  # path separator inside the CTE: a control character no id contains


def _interval_json(value: Interval | None) -> dict[str, Any] | None:
    return None if value is None else value.to_json()


def _interval(value: Mapping[str, Any] | None) -> Interval | None:
    if value is None:
        return None
    start, end, gran = value.get("start"), value.get("end"), value.get("granularity")
    return Interval(None if start is None else datetime.fromisoformat(start),
                    None if end is None else datetime.fromisoformat(end),
                    None if gran is None else Granularity(gran))


def asset_json(asset: Asset) -> dict[str, Any]:
    """Everything of an asset but ``source``, as JSON values."""
    return {"body": dict(asset.body), "status": asset.status, "owner": asset.owner,
            "valid_from": _interval_json(asset.valid_from),
            "valid_to": _interval_json(asset.valid_to),
            "published_at": _interval_json(asset.published_at),
            "supersedes": list(asset.supersedes), "derived_from": list(asset.derived_from)}


def content_hash(asset: Asset) -> str:
    """Hash of the asset's content; its file position is excluded so moving it is no change."""
    blob = json.dumps(asset_json(asset), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _asset_from_row(kind: str, asset_id: str, body: str, source: str) -> Asset:
    data = json.loads(body)
    return Asset(kind=kind, id=asset_id, body=data["body"], status=data["status"],
                 valid_from=_interval(data["valid_from"]), valid_to=_interval(data["valid_to"]),
                 published_at=_interval(data["published_at"]),
                 supersedes=tuple(data["supersedes"]), derived_from=tuple(data["derived_from"]),
                 owner=data["owner"], source=source)


def has_layer(store: object) -> bool:
    """True when ``store`` is a SQLiteStore holding at least one semantic asset."""
    if not isinstance(store, SQLiteStore):
        return False
    with store.connection() as conn:
        return conn.execute("SELECT 1 FROM semantic_assets LIMIT 1").fetchone() is not None


def layer_generation(store: SQLiteStore) -> int:
    """A counter bumped by every semantic write (cache key for in-memory indexes)."""
    with store.connection() as conn:
        row = conn.execute("SELECT value FROM meta WHERE key = 'semantic_generation'").fetchone()
    return int(row[0]) if row else 0


def known_ids(store: SQLiteStore) -> dict[str, frozenset[str]]:
    """Stored ids by kind, columns as ``table.column`` (for cross-file references)."""
    out: dict[str, set[str]] = {}
    for asset in read_assets(store):
        out.setdefault(asset.kind, set()).add(asset.id)
        for column in asset.body.get("columns", []) if asset.kind == "table" else []:
            out.setdefault("column", set()).add(f"{asset.id}.{column['name']}")
    return {k: frozenset(v) for k, v in out.items()}


def stored_hashes(store: SQLiteStore) -> dict[str, str]:
    """``kind:id`` -> content hash of every stored asset."""
    with store.connection() as conn:
        rows = conn.execute("SELECT kind, id, content_hash FROM semantic_assets").fetchall()
    return {f"{k}:{i}": h for k, i, h in rows}


def write_layer(store: SQLiteStore, assets: Sequence[Asset], *,
                vectors: Mapping[str, tuple[Sequence[str], np.ndarray]],
                now: datetime) -> tuple[list[str], list[str], list[str]]:
    """Upsert ``assets`` (and their vectors) in one transaction.

    ``vectors`` maps an embedder name to (asset keys, float32 matrix). Returns the keys
    added, replaced and unchanged; an unchanged asset is not touched.
    """
    stored = stored_hashes(store)
    added: list[str] = []
    replaced: list[str] = []
    unchanged: list[str] = []
    with store.connection(write=True) as conn:
        for asset in assets:
            digest = content_hash(asset)
            if stored.get(asset.key) == digest:
                unchanged.append(asset.key)
                continue
            (replaced if asset.key in stored else added).append(asset.key)
            _upsert(conn, asset, digest, now)
        for name, (keys, matrix) in vectors.items():
            arr = np.ascontiguousarray(matrix, dtype="<f4")
            conn.executemany(
                "INSERT OR REPLACE INTO semantic_vectors VALUES (?, ?, ?, ?)",
                [(k, name, arr.shape[1], arr[i].tobytes()) for i, k in enumerate(keys)])
        if added or replaced:
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'semantic_generation'")
    return added, replaced, unchanged


def _upsert(conn: Any, asset: Asset, digest: str, now: datetime) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO semantic_assets VALUES (?, ?, ?, ?, ?, ?, ?)",
        (asset.kind, asset.id, asset.status,
         json.dumps(asset_json(asset), ensure_ascii=False, sort_keys=True),
         asset.source, digest, now.isoformat()))
    if asset.kind == "join":
        b = asset.body
        conn.execute("INSERT OR REPLACE INTO semantic_joins VALUES (?, ?, ?, ?, ?)",
                     (asset.id, b["left"], b["right"], b["on"], b["fanout"]))


def read_assets(store: SQLiteStore) -> list[Asset]:
    """Every stored asset, ordered by kind and id."""
    with store.connection() as conn:
        rows = conn.execute(
            "SELECT kind, id, body, source FROM semantic_assets ORDER BY kind, id").fetchall()
    return [_asset_from_row(*row) for row in rows]


def read_vectors(store: SQLiteStore, embedder: str) -> tuple[list[str], np.ndarray]:
    """Asset keys and their float32 vectors (rows aligned) for one embedder."""
    with store.connection() as conn:
        rows = conn.execute("SELECT key, dim, blob FROM semantic_vectors WHERE embedder = ? "
                            "ORDER BY key", (embedder,)).fetchall()
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    flat = np.frombuffer(b"".join(r[2] for r in rows), dtype="<f4")
    return [r[0] for r in rows], flat.reshape(len(rows), rows[0][1]).astype(np.float32)


_JOIN_WALK = f"""
WITH RECURSIVE edges(a, b, id, on_clause, fanout) AS (
    SELECT left_table, right_table, id, on_clause, fanout FROM semantic_joins
     WHERE id IN (SELECT value FROM json_each(:allowed))
    UNION ALL
    SELECT right_table, left_table, id, on_clause, fanout FROM semantic_joins
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


def walk_joins(store: SQLiteStore, seeds: Sequence[str], *, allowed: Sequence[str],
               depth: int = 3) -> list[JoinPath]:
    """Every cycle-free join path from a seed table, up to ``depth`` joins.

    Only joins in ``allowed`` (those applicable at ``as_of``) are walked, in both
    directions. Paths come unsorted; ranking is the caller's choice.
    """
    with store.connection() as conn:
        rows = conn.execute(_JOIN_WALK, {"allowed": json.dumps(list(allowed)),
                                         "seeds": json.dumps(list(seeds)),
                                         "depth": depth}).fetchall()
        joins = {r[0]: r for r in conn.execute(
            "SELECT id, left_table, right_table, on_clause, fanout FROM semantic_joins")}
    paths = []
    for tables_text, steps_text in rows:
        tables = tuple(t for t in tables_text.split(_SEP) if t)
        steps = []
        for i, join_id in enumerate(s for s in steps_text.split(_SEP) if s):
            _, _, _, on, fanout = joins[join_id]
            steps.append(JoinStep(join_id, tables[i], tables[i + 1], on, fanout))
        paths.append(JoinPath(tables, tuple(steps)))
    return paths
