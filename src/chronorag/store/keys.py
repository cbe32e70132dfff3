"""SQL of the service's API keys (migration ``m008_api_keys``) that binds parameters;
the statements without any are shared with PostgreSQL (``common``)."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from chronorag.store.base import ApiKey
from chronorag.store.common import KEY_COLUMNS, api_key


def add(conn: sqlite3.Connection, key: ApiKey, *, digest: str) -> None:
    conn.execute(f"INSERT INTO api_keys ({KEY_COLUMNS}, digest) VALUES (?, ?, ?, ?, ?, ?)",
                 (key.id, key.user, int(key.admin), key.created_at.isoformat(),
                  None if key.revoked_at is None else key.revoked_at.isoformat(), digest))


def by_digest(conn: sqlite3.Connection, digest: str) -> ApiKey | None:
    row = conn.execute(f"SELECT {KEY_COLUMNS} FROM api_keys WHERE digest = ?",
                       (digest,)).fetchone()
    return None if row is None else api_key(row)


def revoke(conn: sqlite3.Connection, key_id: str, *, at: datetime) -> bool:
    """Mark the key revoked at ``at``; False when no unrevoked key has that id."""
    cursor = conn.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND "
                          "revoked_at IS NULL", (at.isoformat(), key_id))
    return cursor.rowcount > 0
