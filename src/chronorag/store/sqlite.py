"""The embedded default store: one SQLite file in WAL mode."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, cast

import numpy as np

from chronorag.errors import StoreError
from chronorag.model import Chunk, Document
from chronorag.people.model import Directory
from chronorag.store import codec, common
from chronorag.store import keys as keys_sql
from chronorag.store import layer as layer_sql
from chronorag.store import people as people_sql
from chronorag.store import rows as rows_sql
from chronorag.store.base import (
    ApiKey,
    ChunkRow,
    LayerRecord,
    PreparedDocument,
    WriteReport,
)
from chronorag.store.locking import begin_immediate, busy_budget
from chronorag.store.migrations import applied
from chronorag.store.opening import open_database
from chronorag.store.writes import insert_documents

log = logging.getLogger(__name__)

# One bound parameter for any number of ids (no SQLITE_MAX_VARIABLE_NUMBER limit).
_IDS = "(SELECT value FROM json_each(?))"


def _ids_param(ids: Sequence[str]) -> str:
    return json.dumps(list(ids))


class SQLiteStore:
    """The :class:`~chronorag.store.base.Store` backed by one SQLite file.

    Opening creates the file if needed and applies pending schema migrations. ``":memory:"``
    gives a private in-memory database (for tests). Safe to share between threads: every
    call holds one lock. Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: str | Path, *, busy_timeout: float | None = None) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        self._depth = 0
        self._budget = busy_budget() if busy_timeout is None else busy_timeout
        self._db: sqlite3.Connection | None = open_database(self.path, begin=self._begin)

    def _begin(self, conn: sqlite3.Connection) -> None:
        begin_immediate(conn, path=self.path, budget_s=self._budget)

    # -- plumbing -------------------------------------------------------------------------

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed; open a new SQLiteStore")
        return self._db

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"reading the store {self.path!r} failed ({exc}); "
                                 "check the file is a chronorag database") from exc

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        # Re-entrant: a transaction opened inside ``atomic()`` joins the outer one, so an
        # ingest can commit its documents and a semantic layer together.
        with self._lock:
            conn = self._conn
            if self._depth:
                self._depth += 1
                try:
                    yield conn
                finally:
                    self._depth -= 1
                return
            self._begin(conn)
            self._depth = 1
            try:
                yield conn
            except BaseException:
                self._depth = 0
                conn.execute("ROLLBACK")
                raise
            self._depth = 0
            conn.execute("COMMIT")

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Every write made inside commits together when the block ends, or none does."""
        try:
            with self._transaction():
                yield
        except sqlite3.Error as exc:
            raise StoreError(f"writing the store {self.path!r} failed, nothing of this "
                             f"transaction was kept ({exc}); retry") from exc

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """Turn database errors raised while writing into StoreError (after rollback)."""
        try:
            yield
        except StoreError:
            raise
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"{what} rejected, store unchanged ({exc}); chunk ids must be "
                             "unique across documents and offsets valid: fix and retry") from exc
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{what} failed, store unchanged ({exc}); the database may be "
                             "busy or read-only: retry, or check file permissions") from exc
        except (sqlite3.Error, TypeError, ValueError) as exc:
            raise StoreError(f"{what} rejected, store unchanged ({exc}); metadata must be "
                             "JSON and times tz-aware: fix the document and retry") from exc

    # -- writing --------------------------------------------------------------------------

    def write(self, batch: Sequence[PreparedDocument], *, force: bool = False) -> WriteReport:
        """Store a batch in one transaction; all of it or (on error) none of it.

        A document whose stored content hash equals ``content_hash`` is left untouched
        (``ingested_at`` included) unless ``force`` is set, e.g. after a chunker or
        embedder change; one with another hash is replaced with its chunks and vectors.
        """
        batch = list(batch)
        codec.validate_batch(batch)
        with self._errors("batch"), self._transaction() as conn:
            report = self._write(conn, batch, force=force)
        log.debug("store write: %d added, %d replaced, %d unchanged",
                  len(report.added), len(report.replaced), len(report.unchanged))
        return report

    def _write(self, conn: sqlite3.Connection, batch: list[PreparedDocument], *,
               force: bool) -> WriteReport:
        rows = conn.execute(
            f"SELECT id, content_hash, coalesce(derivation, '') FROM documents WHERE id IN {_IDS}",
            (_ids_param([p.document.id for p in batch]),)).fetchall()
        stored = {r[0]: (r[1], r[2]) for r in rows}
        added, replaced, unchanged, todo = codec.sort_batch(batch, stored, force=force)
        if replaced:
            conn.execute(f"DELETE FROM documents WHERE id IN {_IDS}", (_ids_param(replaced),))
        if todo:
            insert_documents(conn, todo)
            common.bump_generation(conn)
        return WriteReport(tuple(added), tuple(replaced), tuple(unchanged))

    def delete(self, ids: Sequence[str]) -> tuple[str, ...]:
        """Delete documents with their chunks, sentences, vectors and outgoing links.

        Returns the ids that existed, sorted. Links *to* a deleted id are kept.
        """
        with self._errors("delete"), self._transaction() as conn:
            param = (_ids_param(ids),)
            rows = conn.execute(f"SELECT id FROM documents WHERE id IN {_IDS}", param).fetchall()
            if rows:
                conn.execute(f"DELETE FROM documents WHERE id IN {_IDS}", param)
                common.bump_generation(conn)
        return tuple(sorted(r[0] for r in rows))

    # -- reading --------------------------------------------------------------------------

    def fingerprints(self, ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """``(content_hash, derivation)`` of each id that exists."""
        rows = self._query(f"SELECT id, content_hash, coalesce(derivation, '') FROM documents "
                           f"WHERE id IN {_IDS}", (_ids_param(ids),))
        return {r[0]: (r[1], r[2]) for r in rows}

    def document_ids(self) -> list[str]:
        """Every stored document id, sorted."""
        return [r[0] for r in self._query("SELECT id FROM documents ORDER BY id")]

    def ids_by_source(self, sources: Sequence[str]) -> dict[str, str]:
        """The (smallest) id of a stored document read from each of ``sources``."""
        rows = self._query(f"SELECT source, min(id) FROM documents WHERE source IN {_IDS} "
                           "GROUP BY source", (_ids_param(sources),))
        return {r[0]: r[1] for r in rows}

    def chunk_counts(self, ids: Sequence[str] | None = None) -> dict[str, int]:
        """Chunks per document (all when ``ids`` is None); 0 for one without chunks."""
        where, params = "", cast(tuple[str, ...], ())
        if ids is not None:
            where, params = f" WHERE d.id IN {_IDS}", (_ids_param(ids),)
        rows = self._query("SELECT d.id, count(c.id) FROM documents d LEFT JOIN chunks c "
                           f"ON c.doc_id = d.id{where} GROUP BY d.id", params)
        return {r[0]: int(r[1]) for r in rows}

    def setting(self, key: str) -> str | None:
        """A store-wide setting (e.g. ``"embedder"``), None when unset."""
        rows = self._query("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_setting(self, key: str, value: str) -> None:
        """Record a store-wide setting (joins an ``atomic()`` block when inside one)."""
        with self._errors("setting"), self._transaction() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) "
                         "DO UPDATE SET value = excluded.value", (key, value))

    def vector_counts(self) -> dict[str, int]:
        """How many chunk vectors each embedder has."""
        return {str(name): int(n) for name, n in self._query(common.VECTOR_COUNTS)}

    def documents(self, ids: Sequence[str] | None = None, *,
                  text: bool = True) -> list[Document]:
        """Documents by id (all when ``ids`` is None), in id order; missing ids skipped.
        ``text=False`` reads metadata only (each ``text`` is "")."""
        columns = [c if text or c != "text" else "'' AS text" for c in codec.DOC_COLUMNS]
        sql = f"SELECT {', '.join(columns)} FROM documents"
        params: tuple[str, ...] = ()
        if ids is not None:
            sql += f" WHERE id IN {_IDS}"
            params = (_ids_param(ids),)
        rows = self._query(sql + " ORDER BY id", params)
        intervals = codec.IntervalDecoder()
        return [codec.document_from_row(row, intervals) for row in rows]

    def chunks(self, ids: Sequence[str] | None = None) -> list[Chunk]:
        """Chunks (all when ``ids`` is None) with sentences and mentions, in doc/idx order."""
        where, params = "", cast(tuple[str, ...], ())
        if ids is not None:
            where, params = f" WHERE id IN {_IDS}", (_ids_param(ids),)
        with self._lock:
            chunk_rows = self._query(
                f"SELECT {codec.CHUNK_COLUMNS} FROM chunks{where} ORDER BY doc_id, idx", params)
            sent_where = "" if ids is None else f" WHERE chunk_id IN {_IDS}"
            sent_rows = self._query(f"SELECT {codec.SENTENCE_COLUMNS} FROM sentences"
                                    f"{sent_where} ORDER BY chunk_id, idx", params)
        return codec.build_chunks(chunk_rows, sent_rows)

    def chunk_seqs(self) -> np.ndarray:
        """The ``seq`` of every stored chunk, ascending."""
        with self._lock:
            return common.chunk_seqs(self._conn)

    def chunk_summary(self) -> tuple[int, int, int]:
        """``(count, sum, maximum)`` of the chunks' ``seq`` numbers."""
        with self._lock:
            return common.chunk_summary(self._conn)

    def chunk_rows(self, seqs: Sequence[int]) -> list[ChunkRow]:
        """The chunks of these ``seq`` numbers that exist, in ``seq`` order."""
        with self._lock:
            return rows_sql.chunk_rows(self._conn, seqs)

    def vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        """Chunk ids (doc/idx order) and a float32 ``(n, dim)`` matrix, rows aligned.

        An embedder with no vectors gives ``([], array of shape (0, 0))``.
        """
        rows = self._query(
            "SELECT v.chunk_id, v.dim, v.blob FROM vectors v JOIN chunks c ON c.id = v.chunk_id"
            " WHERE v.embedder = ? ORDER BY c.doc_id, c.idx", (embedder,))
        return common.chunk_matrix(rows, embedder=embedder)

    def token_vectors(self, ids: Sequence[str], model: str) -> dict[str, np.ndarray]:
        """Each of these chunks' ``(tokens, dim)`` matrix of ``model``, when stored."""
        rows = self._query(f"SELECT chunk_id, rows, dim, blob FROM token_vectors WHERE "
                           f"model = ? AND chunk_id IN {_IDS}", (model, _ids_param(ids)))
        return {r[0]: codec.decode_tokens(r[1], r[2], r[3]) for r in rows}

    def chunk_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]:
        """The stored vector of each of these chunks that has one for ``embedder``."""
        rows = self._query(f"SELECT chunk_id, blob FROM vectors WHERE embedder = ? "
                           f"AND chunk_id IN {_IDS}", (embedder, _ids_param(ids)))
        return {r[0]: np.frombuffer(r[1], dtype="<f4").astype(np.float32) for r in rows}

    def sentence_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]:
        """Each of these chunks' ``(sentences, dim)`` matrix for ``embedder``, when stored."""
        rows = self._query(f"SELECT chunk_id, rows, dim, blob FROM sentence_vectors WHERE "
                           f"embedder = ? AND chunk_id IN {_IDS}", (embedder, _ids_param(ids)))
        return {r[0]: codec.decode_matrix(r[1], r[2], r[3]) for r in rows}

    def links(self, kind: str | None = None) -> list[tuple[str, str, str]]:
        """``(src, dst, kind)`` edges, sorted; ``kind`` is 'supersedes' or 'derived_from'."""
        common.check_link_kind(kind)
        sql = "SELECT src_id, dst_id, kind FROM links"
        params: tuple[str, ...] = ()
        if kind is not None:
            sql, params = sql + " WHERE kind = ?", (kind,)
        return [tuple(r) for r in self._query(sql + " ORDER BY src_id, dst_id, kind", params)]

    def generation(self) -> int:
        """A counter bumped by every write or delete that changes stored content."""
        return int(self._query(common.GENERATION)[0][0])

    def count(self) -> dict[str, int]:
        """Row counts of documents, chunks, sentences, vectors and links."""
        return {name: int(n) for name, n in self._query(common.COUNT)}

    # -- people and privacy ---------------------------------------------------------------

    def replace_people(self, directory: Directory) -> None:
        """Replace the stored people and access grants by ``directory`` atomically."""
        with self._errors("people load"), self._transaction() as conn:
            people_sql.replace_directory(conn, directory)

    def people(self) -> Directory:
        """The stored people and access grants (empty when none were loaded)."""
        with self._lock:
            return common.read_directory(self._conn)

    def visible_doc_ids(self, user: str | None, *, admin: bool = False,
                        subjects: Sequence[str] | None = None,
                        among: Sequence[str] | None = None) -> frozenset[str] | None:
        """Documents ``user`` may see (about ``subjects``, among ``among`` when given);
        ``None``: all."""
        with self._lock:
            return people_sql.visible_doc_ids(self._conn, user, admin=admin,
                                              subjects=subjects, among=among)

    def chunk_ids_of(self, doc_ids: Sequence[str]) -> frozenset[str]:
        """Ids of every chunk of the given documents."""
        with self._lock:
            return people_sql.chunk_ids_of(self._conn, doc_ids)

    # -- API keys ---------------------------------------------------------------------------

    def add_api_key(self, key: ApiKey, *, digest: str) -> None:
        with self._errors("key add"), self._transaction() as conn:
            keys_sql.add(conn, key, digest=digest)

    def api_key(self, digest: str) -> ApiKey | None:
        with self._lock:
            return keys_sql.by_digest(self._conn, digest)

    def api_keys(self) -> list[ApiKey]:
        with self._lock:
            return common.api_keys(self._conn)

    def revoke_api_key(self, key_id: str, *, at: datetime) -> bool:
        with self._errors("key revoke"), self._transaction() as conn:
            return keys_sql.revoke(conn, key_id, at=at)

    def api_key_digests(self) -> dict[str, str]:
        with self._lock:
            return common.api_key_digests(self._conn)

    # -- semantic layer ---------------------------------------------------------------------

    def layer_generation(self) -> int:
        """Bumped by every layer write that changes an asset; 0: no layer."""
        with self._lock:
            return common.layer_generation(self._conn)

    def layer_records(self) -> list[LayerRecord]:
        """Every stored layer asset, ordered by kind and id."""
        with self._lock:
            return common.layer_records(self._conn)

    def layer_vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        """Asset keys and their vectors (rows aligned) for one embedder."""
        with self._lock:
            return layer_sql.read_vectors(self._conn, embedder)

    def write_layer(self, records: Sequence[LayerRecord], *,
                    vectors: Mapping[str, tuple[Sequence[str], np.ndarray]],
                    now: datetime) -> None:
        """Upsert layer assets and their vectors in one transaction."""
        with self._errors("layer write"), self._transaction() as conn:
            layer_sql.write(conn, records, vectors=vectors, now=now)

    def walk_joins(self, seeds: Sequence[str], *, allowed: Sequence[str],
                   depth: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Cycle-free join paths from the seed tables (a recursive CTE)."""
        with self._lock:
            return layer_sql.walk_joins(self._conn, seeds, allowed=allowed, depth=depth)

    def applied_migrations(self) -> list[str]:
        """Names of the schema migrations recorded in this database, in order."""
        with self._lock:
            return applied(self._conn)

    def journal_mode(self) -> str:
        """SQLite journal mode: 'wal' for files, 'memory' for ':memory:'."""
        return str(self._query("PRAGMA journal_mode")[0][0])

    def close(self) -> None:
        """Close the connection; further calls raise StoreError. Idempotent."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
