"""Persistent storage: the Store protocol (in parts) and its backends."""

from chronorag.store.base import (
    LINK_KINDS,
    CorpusStore,
    DocumentStore,
    KeyStore,
    LayerStore,
    PeopleStore,
    PreparedDocument,
    Store,
    VectorStore,
    WriteReport,
)
from chronorag.store.opening_uri import is_postgres_uri, open_store
from chronorag.store.postgres import PostgresStore
from chronorag.store.sqlite import SQLiteStore

__all__ = ["LINK_KINDS", "CorpusStore", "DocumentStore", "KeyStore", "LayerStore",
           "PeopleStore", "PostgresStore", "PreparedDocument", "SQLiteStore", "Store",
           "VectorStore", "WriteReport", "is_postgres_uri", "open_store"]
