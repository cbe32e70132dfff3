"""Choosing the backend from what ``--db`` names: a PostgreSQL URI or a SQLite file."""

from __future__ import annotations

from pathlib import Path

from chronorag.store.base import Store
from chronorag.store.pg_session import has_schema
from chronorag.store.postgres import PostgresStore
from chronorag.store.sqlite import SQLiteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_uri(db: str | Path) -> bool:
    """True for ``postgresql://`` and ``postgres://`` URIs (a ``Path`` never is one)."""
    return isinstance(db, str) and db.strip().lower().startswith(POSTGRES_SCHEMES)


def open_store(db: str | Path, *, busy_timeout: float | None = None) -> Store:
    """A :class:`PostgresStore` for a PostgreSQL URI, else a :class:`SQLiteStore` on the
    file ``db`` (``":memory:"`` included)."""
    if is_postgres_uri(db):
        assert isinstance(db, str)
        return PostgresStore(db.strip(), busy_timeout=busy_timeout)
    return SQLiteStore(db, busy_timeout=busy_timeout)


def store_exists(db: str | Path) -> bool:
    """Whether ``db`` names a store that was made: an existing file (an in-memory store
    always is one), or a PostgreSQL database holding a chronorag schema."""
    if is_postgres_uri(db):
        return has_schema(str(db).strip())
    return str(db) == ":memory:" or Path(db).exists()
