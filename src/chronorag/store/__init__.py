"""Persistent storage: the Store protocol and its backends."""

from chronorag.store.base import LINK_KINDS, PreparedDocument, Store, WriteReport
from chronorag.store.sqlite import SQLiteStore

__all__ = ["LINK_KINDS", "PreparedDocument", "SQLiteStore", "Store", "WriteReport"]
