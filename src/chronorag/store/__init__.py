"""Persistent storage: the Store protocol and its backends."""

from chronorag.store.base import LINK_KINDS, PreparedDocument, Store, WriteReport
from chronorag.store.opening_uri import is_postgres_uri, open_store
from chronorag.store.postgres import PostgresStore
from chronorag.store.sqlite import SQLiteStore

__all__ = ["LINK_KINDS", "PostgresStore", "PreparedDocument", "SQLiteStore", "Store",
           "WriteReport", "is_postgres_uri", "open_store"]
