"""Taking SQLite's write lock with a bounded, logged wait.

SQLite lets one writer in at a time; in WAL mode readers never wait. A writer that finds
the lock taken (another process ingesting) waits in slices of ``SLICE_S`` seconds, logging
each, until ``budget_s`` has passed; then it gives up with a message that says what holds
the store and what to do, instead of SQLite's bare "database is locked".
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time

from chronorag.errors import StoreError

log = logging.getLogger(__name__)

SLICE_S = 2.0
DEFAULT_BUDGET_S = 300.0
BUDGET_ENV = "CHRONORAG_BUSY_TIMEOUT"


def busy_budget() -> float:
    """Seconds a writer waits for the lock: ``$CHRONORAG_BUSY_TIMEOUT``, else 300."""
    raw = os.environ.get(BUDGET_ENV)
    if not raw:
        return DEFAULT_BUDGET_S
    try:
        value = float(raw)
    except ValueError:
        raise StoreError(f"{BUDGET_ENV}={raw!r} is not a number of seconds") from None
    if value < 0:
        raise StoreError(f"{BUDGET_ENV}={raw!r} must be >= 0 seconds")
    return value


def _locked(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def begin_immediate(conn: sqlite3.Connection, *, path: str, budget_s: float) -> None:
    """``BEGIN IMMEDIATE``, waiting at most ``budget_s`` seconds for another writer."""
    deadline = time.monotonic() + budget_s
    conn.execute(f"PRAGMA busy_timeout = {int(SLICE_S * 1000)}")
    waited = False
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if not _locked(exc):
                raise
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"the store {path!r} is busy: another process has held its write lock for "
                    f"over {budget_s:.0f} s (an ingest?). Retry when it has finished, or raise "
                    f"{BUDGET_ENV}") from exc
            if not waited:
                log.info("store %s is being written by another process; waiting", path)
                waited = True
            continue
        if waited:
            log.info("store %s: write lock taken", path)
        return
