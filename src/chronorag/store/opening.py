"""Opening a SQLite store file: connection settings, WAL, pending migrations."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from chronorag.errors import StoreError
from chronorag.store.locking import SLICE_S
from chronorag.store.migrations import migrate


def open_database(path: str, *, begin: Callable[[sqlite3.Connection], None]
                  ) -> sqlite3.Connection:
    """A connection to ``path`` (created when missing) with the schema up to date.

    ``begin`` opens a write transaction (waiting for a busy store within its budget);
    migrations take it only when some are pending.
    """
    try:
        conn = sqlite3.connect(path, timeout=SLICE_S, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open store {path!r} ({exc}); check that the "
                         "directory exists and is writable") from exc
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        # Switching to WAL needs the write lock; a store already in WAL (every store
        # after its first open) is not switched again, so opening never waits for it.
        if conn.execute("PRAGMA journal_mode").fetchone()[0] not in ("wal", "memory"):
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        migrate(conn, begin=begin)
    except sqlite3.Error as exc:
        conn.close()
        if "locked" in str(exc):
            raise StoreError(f"cannot open store {path!r}: it is busy (another "
                             "process is writing it); retry when that has finished") from exc
        raise StoreError(f"cannot open store {path!r} ({exc}); is it a chronorag "
                         "database? Use another --db path") from exc
    except StoreError:
        conn.close()
        raise
    return conn
