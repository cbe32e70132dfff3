"""The server store: PostgreSQL through psycopg 3, with the semantics of the SQLite store.

Rows are encoded by :mod:`chronorag.store.codec` exactly as SQLite keeps them (times as
fixed-width ISO text, vectors as float32 blobs), so both backends answer alike. psycopg
is imported when a store is opened, never when this module is: the SQLite default needs
no PostgreSQL client.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from chronorag.model import Chunk, Document
from chronorag.people.model import Directory
from chronorag.store import codec, common
from chronorag.store import pg_queries as sql
from chronorag.store import pg_search as search
from chronorag.store.base import (
    ApiKey,
    ChunkRow,
    LayerRecord,
    PreparedDocument,
    WriteReport,
)
from chronorag.store.pg_migrations import applied
from chronorag.store.pg_session import PgSession
from chronorag.store.pg_writes import insert_documents
from chronorag.store.scope import Scope
from chronorag.store.search import Found

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[Any]
else:
    Connection = Any

log = logging.getLogger(__name__)

_IDS = "ANY(%s::text[])"


class PostgresStore:
    """The :class:`~chronorag.store.base.Store` backed by one PostgreSQL database.

    Opening connects to ``uri`` (``postgresql://user@host/db``) and applies pending schema
    migrations (:mod:`chronorag.store.pg_migrations`). Safe to share between threads:
    every call holds one lock around the one connection. Writers take turns, each waiting
    at most ``busy_timeout`` seconds for the one before (default
    ``$CHRONORAG_BUSY_TIMEOUT``, else 300); readers never wait.
    """

    def __init__(self, uri: str, *, busy_timeout: float | None = None) -> None:
        self._s = PgSession(str(uri), busy_timeout=busy_timeout)
        self.uri, self.name = self._s.uri, self._s.name
        self._vector_counts: dict[str, tuple[int, int]] = {}  # embedder: (generation, n)

    def atomic(self) -> AbstractContextManager[None]:
        """Every write made inside commits together when the block ends, or none does."""
        return self._s.atomic()

    # -- writing --------------------------------------------------------------------------

    def write(self, batch: Sequence[PreparedDocument], *, force: bool = False) -> WriteReport:
        """Store a batch in one transaction; all of it or (on error) none of it.

        Same content hash and derivation: unchanged unless ``force``; another: replaced
        with its chunks and vectors; a new id: added.
        """
        batch = list(batch)
        codec.validate_batch(batch)
        with self._s.errors("batch"), self._s.transaction() as conn:
            report = self._write(conn, batch, force=force)
        log.debug("store write: %d added, %d replaced, %d unchanged",
                  len(report.added), len(report.replaced), len(report.unchanged))
        return report

    def _write(self, conn: Connection, batch: list[PreparedDocument], *,
               force: bool) -> WriteReport:
        rows = conn.execute(
            f"SELECT id, content_hash, coalesce(derivation, '') FROM documents WHERE id = {_IDS}",
            ([p.document.id for p in batch],)).fetchall()
        stored = {r[0]: (r[1], r[2]) for r in rows}
        added, replaced, unchanged, todo = codec.sort_batch(batch, stored, force=force)
        if replaced:
            search.forget_terms(conn, replaced)
            conn.execute(f"DELETE FROM documents WHERE id = {_IDS}", (replaced,))
        if todo:
            insert_documents(conn, todo)
            common.bump_generation(conn)
        return WriteReport(tuple(added), tuple(replaced), tuple(unchanged))

    def delete(self, ids: Sequence[str]) -> tuple[str, ...]:
        """Delete documents with their chunks, sentences, vectors and outgoing links.

        Returns the ids that existed, sorted. Links *to* a deleted id are kept.
        """
        with self._s.errors("delete"), self._s.transaction() as conn:
            search.forget_terms(conn, list(ids))
            rows = conn.execute(f"DELETE FROM documents WHERE id = {_IDS} RETURNING id",
                                (list(ids),)).fetchall()
            if rows:
                common.bump_generation(conn)
        return tuple(sorted(r[0] for r in rows))

    def set_setting(self, key: str, value: str) -> None:
        """Record a store-wide setting (joins an ``atomic()`` block when inside one)."""
        with self._s.errors("setting"), self._s.transaction() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES (%s, %s) ON CONFLICT (key) "
                         "DO UPDATE SET value = excluded.value", (key, value))

    # -- reading --------------------------------------------------------------------------

    def fingerprints(self, ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        rows = self._s.query("SELECT id, content_hash, coalesce(derivation, '') FROM documents "
                           f"WHERE id = {_IDS}", (list(ids),))
        return {r[0]: (r[1], r[2]) for r in rows}

    def document_ids(self) -> list[str]:
        return [r[0] for r in self._s.query("SELECT id FROM documents ORDER BY id")]

    def ids_by_source(self, sources: Sequence[str]) -> dict[str, str]:
        rows = self._s.query(f"SELECT source, min(id) FROM documents WHERE source = {_IDS} "
                             "GROUP BY source", (list(sources),))
        return {r[0]: r[1] for r in rows}

    def chunk_counts(self, ids: Sequence[str] | None = None) -> dict[str, int]:
        where = "" if ids is None else f" WHERE d.id = {_IDS}"
        params: tuple[list[str], ...] = () if ids is None else (list(ids),)
        rows = self._s.query("SELECT d.id, count(c.id) FROM documents d LEFT JOIN chunks c "
                             f"ON c.doc_id = d.id{where} GROUP BY d.id", params)
        return {r[0]: int(r[1]) for r in rows}

    def setting(self, key: str) -> str | None:
        rows = self._s.query("SELECT value FROM settings WHERE key = %s", (key,))
        return str(rows[0][0]) if rows else None

    def vector_counts(self) -> dict[str, int]:
        return {str(name): int(n) for name, n in self._s.query(common.VECTOR_COUNTS)}

    def documents(self, ids: Sequence[str] | None = None, *,
                  text: bool = True) -> list[Document]:
        """Documents by id (all when ``ids`` is None), in id order; missing ids skipped.
        ``text=False`` reads metadata only (each ``text`` is "")."""
        columns = [c if text or c != "text" else "'' AS text" for c in codec.DOC_COLUMNS]
        statement = f"SELECT {', '.join(columns)} FROM documents"
        params: tuple[list[str], ...] = ()
        if ids is not None:
            statement += f" WHERE id = {_IDS}"
            params = (list(ids),)
        rows = self._s.query(statement + " ORDER BY id", params)
        intervals = codec.IntervalDecoder()
        return [codec.document_from_row(row, intervals) for row in rows]

    def chunks(self, ids: Sequence[str] | None = None) -> list[Chunk]:
        """Chunks (all when ``ids`` is None) with sentences and mentions, in doc/idx order."""
        chunk_where = "" if ids is None else f" WHERE id = {_IDS}"
        sent_where = "" if ids is None else f" WHERE chunk_id = {_IDS}"
        params: tuple[list[str], ...] = () if ids is None else (list(ids),)
        with self._s.reading(snapshot=True) as conn:
            chunk_rows = conn.execute(f"SELECT {codec.CHUNK_COLUMNS} FROM chunks{chunk_where} "
                                      "ORDER BY doc_id, idx", params).fetchall()
            sent_rows = conn.execute(f"SELECT {codec.SENTENCE_COLUMNS} FROM sentences{sent_where} "
                                     "ORDER BY chunk_id, idx", params).fetchall()
        return codec.build_chunks(chunk_rows, sent_rows)

    def chunk_seqs(self) -> np.ndarray:
        with self._s.reading() as conn:
            return common.chunk_seqs(conn)

    def chunk_summary(self) -> tuple[int, int, int]:
        with self._s.reading() as conn:
            return common.chunk_summary(conn)

    def chunk_rows(self, seqs: Sequence[int]) -> list[ChunkRow]:
        with self._s.reading() as conn:
            return sql.chunk_rows(conn, seqs)

    def vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        """Chunk ids (doc/idx order) and a float32 ``(n, dim)`` matrix, rows aligned.

        An embedder with no vectors gives ``([], array of shape (0, 0))``.
        """
        rows = self._s.query(
            "SELECT v.chunk_id, v.dim, v.blob FROM vectors v JOIN chunks c ON c.id = v.chunk_id"
            " WHERE v.embedder = %s ORDER BY c.doc_id, c.idx", (embedder,))
        return common.chunk_matrix(rows, embedder=embedder)

    def chunk_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]:
        rows = self._s.query(f"SELECT chunk_id, blob FROM vectors WHERE embedder = %s "
                           f"AND chunk_id = {_IDS}", (embedder, list(ids)))
        return {r[0]: np.frombuffer(r[1], dtype="<f4").astype(np.float32) for r in rows}

    def token_vectors(self, ids: Sequence[str], model: str) -> dict[str, np.ndarray]:
        rows = self._s.query(f'SELECT chunk_id, "rows", dim, blob FROM token_vectors WHERE '
                           f"model = %s AND chunk_id = {_IDS}", (model, list(ids)))
        return {r[0]: codec.decode_tokens(r[1], r[2], r[3]) for r in rows}

    def sentence_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]:
        rows = self._s.query(f'SELECT chunk_id, "rows", dim, blob FROM sentence_vectors WHERE '
                           f"embedder = %s AND chunk_id = {_IDS}", (embedder, list(ids)))
        return {r[0]: codec.decode_matrix(r[1], r[2], r[3]) for r in rows}

    def links(self, kind: str | None = None) -> list[tuple[str, str, str]]:
        """``(src, dst, kind)`` edges, sorted; ``kind`` is 'supersedes' or 'derived_from'."""
        common.check_link_kind(kind)
        statement, params = "SELECT src_id, dst_id, kind FROM links", cast(tuple[str, ...], ())
        if kind is not None:
            statement, params = statement + " WHERE kind = %s", (kind,)
        rows = self._s.query(statement + " ORDER BY src_id, dst_id, kind", params)
        return [(r[0], r[1], r[2]) for r in rows]

    def generation(self) -> int:
        """A counter bumped by every write or delete that changes stored content."""
        # A lone statement: asked again on a new connection if a drop cuts it.
        return int(self._s.query(common.GENERATION)[0][0])

    def count(self) -> dict[str, int]:
        return {name: int(n) for name, n in self._s.query(common.COUNT)}

    # -- people and privacy ---------------------------------------------------------------

    def replace_people(self, directory: Directory) -> None:
        with self._s.errors("people load"), self._s.transaction() as conn:
            sql.replace_directory(conn, directory)

    def people(self) -> Directory:
        with self._s.reading(snapshot=True) as conn:
            return common.read_directory(conn)

    def visible_doc_ids(self, user: str | None, *, admin: bool = False,
                        subjects: Sequence[str] | None = None,
                        among: Sequence[str] | None = None) -> frozenset[str] | None:
        """Documents ``user`` may see (about ``subjects``, among ``among`` when given),
        selected in the query; ``None``: all."""
        with self._s.reading(snapshot=True) as conn:
            return sql.visible_doc_ids(conn, user, admin=admin, subjects=subjects,
                                       among=among)

    def chunk_ids_of(self, doc_ids: Sequence[str]) -> frozenset[str]:
        with self._s.reading() as conn:
            return sql.chunk_ids_of(conn, doc_ids)

    # -- API keys ---------------------------------------------------------------------------

    def add_api_key(self, key: ApiKey, *, digest: str) -> None:
        with self._s.errors("key add"), self._s.transaction() as conn:
            sql.add_key(conn, key, digest=digest)

    def api_key(self, digest: str) -> ApiKey | None:
        with self._s.reading() as conn:
            return sql.key_by_digest(conn, digest)

    def api_keys(self) -> list[ApiKey]:
        with self._s.reading() as conn:
            return common.api_keys(conn)

    def revoke_api_key(self, key_id: str, *, at: datetime) -> bool:
        with self._s.errors("key revoke"), self._s.transaction() as conn:
            return sql.revoke_key(conn, key_id, at=at)

    def api_key_digests(self) -> dict[str, str]:
        with self._s.reading() as conn:
            return common.api_key_digests(conn)

    # -- semantic layer ---------------------------------------------------------------------

    def layer_generation(self) -> int:
        with self._s.reading() as conn:
            return common.layer_generation(conn)

    def layer_records(self) -> list[LayerRecord]:
        with self._s.reading(snapshot=True) as conn:
            return common.layer_records(conn)

    def layer_vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        with self._s.reading() as conn:
            return sql.layer_vectors(conn, embedder)

    def write_layer(self, records: Sequence[LayerRecord], *,
                    vectors: Mapping[str, tuple[Sequence[str], np.ndarray]],
                    now: datetime) -> None:
        with self._s.errors("layer write"), self._s.transaction() as conn:
            sql.write_layer(conn, records, vectors=vectors, now=now)

    def walk_joins(self, seeds: Sequence[str], *, allowed: Sequence[str],
                   depth: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Cycle-free join paths from the seed tables (a recursive CTE)."""
        with self._s.reading() as conn:
            return sql.walk_joins(conn, seeds, allowed=allowed, depth=depth)

    # -- search inside the database ----------------------------------------------------------

    def search_vectors(self, embedder: str, vector: np.ndarray, *, limit: int,
                       scope: Scope | None = None, exact: bool | None = None) -> Found:
        """Chunks nearest ``vector`` by cosine among ``embedder``'s; exact up to
        ``pg_search.EXACT_UP_TO`` vectors, from the HNSW index above (``exact`` decides)."""
        if limit <= 0:
            return []
        with self._s.reading(snapshot=True) as conn:
            if exact is None:
                exact = self._vector_count(conn, embedder) <= search.EXACT_UP_TO
            return search.nearest(conn, embedder, vector, limit=limit, scope=scope,
                                  exact=exact)

    def _vector_count(self, conn: Connection, embedder: str) -> int:
        """The embedder's number of vectors, counted once per generation: counting them
        for every question would read the whole index (~98k entries at 100k chunks)."""
        generation = common.generation(conn)
        cached = self._vector_counts.get(embedder)
        if cached is None or cached[0] != generation:
            cached = (generation, search.vector_count(conn, embedder))
            self._vector_counts[embedder] = cached
        return cached[1]

    def search_terms(self, terms: Mapping[str, int], *, limit: int,
                     scope: Scope | None = None, k1: float = 1.5, b: float = 0.75) -> Found:
        with self._s.reading(snapshot=True) as conn:
            return search.bm25(conn, terms, limit=limit, scope=scope, k1=k1, b=b)

    def chunks_without_terms(self, *, limit: int) -> list[tuple[int, str]]:
        with self._s.reading() as conn:
            return search.without_terms(conn, limit)

    def build_indexes(self) -> list[str]:
        with self._s.reading() as conn:
            counts = conn.execute("SELECT count(*) FROM vectors").fetchone()
        if not counts or counts[0] <= search.EXACT_UP_TO:
            return []  # the common case costs one count, not the write lock
        with self._s.errors("index build"), self._s.transaction() as conn:
            return search.build_indexes(conn)

    def add_terms(self, rows: Sequence[tuple[int, Sequence[str]]]) -> int:
        if not rows:
            return 0
        with self._s.errors("terms"), self._s.transaction() as conn:
            return search.add_terms(conn, rows)

    def applied_migrations(self) -> list[str]:
        """Names of the schema migrations recorded in this database, in order."""
        with self._s.reading() as conn:
            return applied(conn)

    def close(self) -> None:
        """Close the connection; further calls raise StoreError. Idempotent."""
        self._s.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
