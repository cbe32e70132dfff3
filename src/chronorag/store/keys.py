"""SQL of the service's API keys (migration ``m008_api_keys``)."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from chronorag.store.base import ApiKey

_COLUMNS = "id, user, admin, created_at, revoked_at"


def _key(row: tuple[str, str, int, str, str | None]) -> ApiKey:
    key_id, user, admin, created, revoked = row
    return ApiKey(key_id, user, bool(admin), datetime.fromisoformat(created),
                  None if revoked is None else datetime.fromisoformat(revoked))


def add(conn: sqlite3.Connection, key: ApiKey, *, digest: str) -> None:
    conn.execute(f"INSERT INTO api_keys ({_COLUMNS}, digest) VALUES (?, ?, ?, ?, ?, ?)",
                 (key.id, key.user, int(key.admin), key.created_at.isoformat(),
                  None if key.revoked_at is None else key.revoked_at.isoformat(), digest))


def by_digest(conn: sqlite3.Connection, digest: str) -> ApiKey | None:
    row = conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE digest = ?",
                       (digest,)).fetchone()
    return None if row is None else _key(row)


def every(conn: sqlite3.Connection) -> list[ApiKey]:
    rows = conn.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id")
    return [_key(row) for row in rows]


def digests(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT id, digest FROM api_keys ORDER BY id").fetchall())


def revoke(conn: sqlite3.Connection, key_id: str, *, at: datetime) -> bool:
    """Mark the key revoked at ``at``; False when no unrevoked key has that id."""
    cursor = conn.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND "
                          "revoked_at IS NULL", (at.isoformat(), key_id))
    return cursor.rowcount > 0
