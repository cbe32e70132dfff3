"""One PostgreSQL connection of a store: opening it, reopening it when the server has
dropped it, transactions, the writer lock, and database errors turned into StoreError
messages that say what to do.

psycopg is imported when a session opens, never when this module is imported.
"""

from __future__ import annotations

import logging
import select
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from chronorag.errors import MissingDependencyError, StoreError
from chronorag.store.locking import BUDGET_ENV, busy_budget
from chronorag.store.pg_migrations import LOCK_KEY, migrate

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[Any]
else:
    Connection = Any

log = logging.getLogger(__name__)

_SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as exc:
        reason = None if exc.name == "psycopg" else str(exc)
        raise MissingDependencyError("psycopg", extra="postgres",
                                     needed_for="PostgreSQL stores", reason=reason) from exc
    return psycopg


def redacted(uri: str) -> str:
    """``uri`` with any password replaced by ``***`` (for messages and logs)."""
    parts = urlsplit(uri)
    netloc = parts.netloc
    if parts.password:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:***@{host}"
    query = urlencode([(k, "***" if k == "password" else v)
                       for k, v in parse_qsl(parts.query, keep_blank_values=True)], safe="/*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def has_schema(uri: str) -> bool:
    """Whether the database of ``uri`` holds a chronorag store (its migrations table, in
    the URI's search path), without creating one."""
    pg = _psycopg()
    try:
        with pg.connect(uri, autocommit=True) as conn:
            row = conn.execute("SELECT to_regclass('_migrations') IS NOT NULL").fetchone()
    except pg.Error as exc:
        raise StoreError(f"cannot open store {redacted(uri)!r} ({_one_line(exc)}); "
                         "check that the server is running and the URI's host, user "
                         "and database are right") from exc
    return bool(row and row[0])


class PgSession:
    """The connection to ``uri`` with its schema migrated, shared by threads under one
    lock. Writers take a per-schema advisory lock, so they take turns as SQLite's do,
    waiting at most ``busy_timeout`` seconds (default ``$CHRONORAG_BUSY_TIMEOUT``, else
    300); readers never wait.

    A connection the server has dropped (its session ended, a restart) is reopened on the
    next read or at the start of the next write transaction; a transaction it cut is never
    replayed: that write raises StoreError, rolled back whole by the server.
    """

    def __init__(self, uri: str, *, busy_timeout: float | None = None) -> None:
        self._pg = _psycopg()
        self.uri = str(uri)
        self.name = redacted(self.uri)
        self._lock = threading.RLock()
        self._depth = 0
        self._active = 0  # open reading()/transaction() blocks: the connection is in use
        self._budget = busy_budget() if busy_timeout is None else busy_timeout
        self._db: Connection | None = self._open()

    def _open(self) -> Connection:
        try:
            conn = self._pg.connect(self.uri, autocommit=True)
        except self._pg.Error as exc:
            raise StoreError(f"cannot open store {self.name!r} ({_one_line(exc)}); "
                             "check that the server is running and the URI's host, user "
                             "and database are right") from exc
        try:
            migrate(conn, lock=self._take_write_lock)
        except self._pg.Error as exc:
            conn.close()
            raise StoreError(f"cannot open store {self.name!r} ({exc}); is it a chronorag "
                             "database? Use another database or schema") from exc
        except BaseException:
            conn.close()
            raise
        return conn

    @property
    def _conn(self) -> Connection:
        if self._db is None:
            raise StoreError("the store is closed; open a new PostgresStore")
        return self._db

    def _dropped(self, conn: Connection) -> bool:
        """Whether the server has ended ``conn``; asked only while it is idle."""
        if conn.closed or conn.broken:
            return True
        # An idle live connection has nothing to read: anything waiting is the server's
        # goodbye (FATAL on pg_terminate_backend or shutdown) or end of file. Looking costs
        # a poll, not a round trip; only then does a ping find out which.
        try:
            waiting = select.select([conn.fileno()], [], [], 0)[0]
        except (OSError, ValueError):
            return True
        if not waiting:
            return False
        try:
            conn.execute("")
        except self._pg.OperationalError:
            return True
        return bool(conn.broken)

    def _reconnect(self, reason: object) -> Connection:
        old = self._conn
        try:
            conn = self._open()
        except StoreError as exc:
            raise StoreError(f"the connection to the store was lost ({reason}) and "
                             f"reopening it failed: {exc}") from exc
        self._quietly_close(old)
        self._db = conn
        log.warning("store %s: the server had closed the connection (%s); reconnected",
                    self.name, reason)
        return conn

    def _live(self) -> Connection:
        """The connection, reopened first if the server dropped it while it was idle; in
        use (inside a transaction or snapshot) it is returned as it is, dead or alive."""
        conn = self._conn
        if self._active or not self._dropped(conn):
            return conn
        return self._reconnect("the server ended its session")

    def _start(self, statement: str | None) -> Connection:
        """The live connection with ``statement`` (BEGIN ...) run on it. Nothing has been
        done in this block yet, so a connection found dead here is reopened and the
        statement run again, once."""
        conn = self._live()
        if statement is None:
            return conn
        try:
            conn.execute(statement)
        except self._pg.OperationalError as exc:
            if self._active or not self._dropped(conn):
                raise
            conn = self._reconnect(_one_line(exc))
            conn.execute(statement)
        return conn

    def _quietly_close(self, conn: Connection) -> None:
        try:
            conn.close()
        except self._pg.Error:  # already gone; nothing left to release
            log.debug("closing the dropped connection of %s failed", self.name, exc_info=True)

    def _busy(self) -> StoreError:
        return StoreError(
            f"the store {self.name!r} is busy: another process has held its write lock for "
            f"over {self._budget:.0f} s (an ingest?). Retry when it has finished, or raise "
            f"{BUDGET_ENV}")

    def _take_write_lock(self, conn: Connection) -> None:
        """The schema's writer lock, for this transaction, within the busy budget."""
        got = conn.execute(f"SELECT pg_try_advisory_xact_lock({LOCK_KEY})").fetchone()
        if got and got[0]:
            return
        if self._budget <= 0:
            raise self._busy()
        log.info("store %s is being written by another process; waiting", self.name)
        conn.execute(f"SET LOCAL lock_timeout = {max(1, int(self._budget * 1000))}")
        try:
            conn.execute(f"SELECT pg_advisory_xact_lock({LOCK_KEY})")
        except self._pg.errors.LockNotAvailable as exc:
            raise self._busy() from exc
        log.info("store %s: write lock taken", self.name)

    def _quietly(self, conn: Connection, statement: str) -> None:
        try:
            conn.execute(statement)
        except self._pg.Error:  # a broken connection: the server ends the transaction
            log.debug("%s failed on %s", statement, self.name, exc_info=True)

    @contextmanager
    def reading(self, *, snapshot: bool = False) -> Iterator[Connection]:
        """The connection for reads; ``snapshot``: several statements see one state."""
        with self._lock:
            begun = snapshot and not self._depth
            try:
                conn = self._start(_SNAPSHOT if begun else None)
                self._active += 1
                try:
                    yield conn
                except BaseException:
                    if begun:
                        self._quietly(conn, "ROLLBACK")
                    raise
                finally:
                    self._active -= 1
                if begun:
                    conn.execute("COMMIT")
            except self._pg.Error as exc:
                raise self._read_failed(exc) from exc

    def _read_failed(self, exc: BaseException) -> StoreError:
        if self._db is not None and (self._db.closed or self._db.broken):
            return StoreError(f"reading the store {self.name!r} failed: the server closed "
                              f"the connection ({_one_line(exc)}); the next call reconnects")
        return StoreError(f"reading the store {self.name!r} failed ({exc}); check the "
                          "server is reachable and the database is a chronorag store")

    def query(self, statement: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            # One statement on its own reads one state whenever it runs, so one cut by a
            # dropped connection is asked again on a new connection; inside a snapshot or
            # transaction it is not (what came before it was on the lost connection).
            again = not self._active
            try:
                with self.reading() as conn:
                    return conn.execute(statement, params).fetchall()
            except StoreError as exc:
                lost = isinstance(exc.__cause__, self._pg.OperationalError)
                if not (again and lost and self._db is not None and self._db.broken):
                    raise
            with self.reading() as conn:
                return conn.execute(statement, params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        # Re-entrant: a transaction opened inside ``atomic()`` joins the outer one (as a
        # savepoint, so a failed inner write leaves the outer transaction usable).
        with self._lock:
            if self._depth:
                with self._savepoint(self._conn) as conn:
                    yield conn
                return
            # Only here, before anything is written, may a dropped connection be reopened.
            conn = self._start("BEGIN")
            self._depth = 1
            self._active += 1
            try:
                self._take_write_lock(conn)
                yield conn
            except BaseException:
                self._depth = 0
                self._quietly(conn, "ROLLBACK")
                raise
            finally:
                self._active -= 1
            self._depth = 0
            conn.execute("COMMIT")

    @contextmanager
    def _savepoint(self, conn: Connection) -> Iterator[Connection]:
        depth = self._depth
        conn.execute(f"SAVEPOINT nested_{depth}")
        self._depth += 1
        try:
            yield conn
        except BaseException:
            self._quietly(conn, f"ROLLBACK TO SAVEPOINT nested_{depth}")
            raise
        finally:
            self._depth = depth
        conn.execute(f"RELEASE SAVEPOINT nested_{depth}")

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Every write made inside commits together when the block ends, or none does."""
        try:
            with self.transaction():
                yield
        except self._pg.Error as exc:
            raise StoreError(f"writing the store {self.name!r} failed, nothing of this "
                             f"transaction was kept ({exc}); retry") from exc

    @contextmanager
    def errors(self, what: str) -> Iterator[None]:
        """Turn database errors raised while writing into StoreError (after rollback)."""
        pg = self._pg
        try:
            yield
        except StoreError:
            raise
        except pg.IntegrityError as exc:
            raise StoreError(f"{what} rejected, store unchanged ({exc}); chunk ids must be "
                             "unique across documents and offsets valid: fix and retry") from exc
        except pg.OperationalError as exc:
            raise StoreError(f"{what} failed, store unchanged ({exc}); the server may be "
                             "unreachable or read-only: retry, or check the connection") from exc
        except pg.DataError as exc:
            raise StoreError(f"{what} rejected, store unchanged ({exc}); PostgreSQL text "
                             "cannot hold NUL characters: fix the document and retry") from exc
        except (pg.Error, TypeError, ValueError) as exc:
            raise StoreError(f"{what} rejected, store unchanged ({exc}); metadata must be "
                             "JSON and times tz-aware: fix the document and retry") from exc

    def close(self) -> None:
        """Close the connection; further calls raise StoreError. Idempotent."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())
