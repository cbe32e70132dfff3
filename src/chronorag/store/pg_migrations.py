"""Named, recorded schema migrations for the PostgreSQL store.

The same scheme as :mod:`chronorag.store.migrations`: each migration is a function
registered, in order, with ``@migration``; its name is recorded in ``_migrations`` once
applied, and opening a database applies the pending ones, each in its own transaction.
Never edit a released migration: add a new one.

No PostgreSQL migration was released before these, so the logical schema SQLite reached
in ``m001_initial`` .. ``m008_api_keys`` is folded into four: documents (with what
SQLite's m002, m005, m006 and m007 added to them), the semantic layer, people, API keys.
Backfills that SQLite needed for older files (m005's derivation, m007's numbering) have
nothing to fill here.

Every text column is ``COLLATE "C"``: ids, keys and ISO times then sort by code point as
they do in SQLite (and in Python), whatever locale the server's database was created with.
Like the SQLite migrations, these spell the schema out and import neither the model nor
the row codec, so later code cannot change what a released migration creates.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from chronorag.errors import StoreError

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[Any]
else:
    Connection = Any

log = logging.getLogger(__name__)

Migration = Callable[[Connection], None]

MIGRATIONS: list[Migration] = []

# Taken (per schema) by every migration and every write transaction, so two processes
# never apply one migration twice and writers take turns as SQLite's do.
LOCK_KEY = "hashtext('chronorag:' || current_schema())"

T = 'TEXT COLLATE "C"'


def migration(fn: Migration) -> Migration:
    """Register ``fn`` as the next migration; its ``__name__`` is its recorded name."""
    if any(m.__name__ == fn.__name__ for m in MIGRATIONS):
        raise ValueError(f"migration {fn.__name__} is registered twice")
    MIGRATIONS.append(fn)
    return fn


def _run(db: Connection, statements: list[str]) -> None:
    for statement in statements:
        db.execute(statement)


@migration
def pg001_documents(db: Connection) -> None:
    """Documents, links, chunks (numbered), sentences, vectors, settings and counters.

    Vectors are little-endian float32 ``bytea`` blobs, as in SQLite.
    """
    intervals = ",\n    ".join(
        f"{f}_start {T}, {f}_end {T}, {f}_gran {T}"
        for f in ("valid_from", "valid_to", "occurred_at", "published_at", "modified_at"))
    _run(db, [
        f"""CREATE TABLE documents (
    id {T} PRIMARY KEY,
    title {T} NOT NULL,
    text {T} NOT NULL,
    source_type {T},
    status {T} CHECK (status IN ('approved', 'draft', 'retired')),
    {intervals},
    ingested_at {T},
    supersedes {T} NOT NULL,
    derived_from {T} NOT NULL,
    subject {T},
    owner {T},
    metadata {T} NOT NULL,
    source {T} NOT NULL,
    content_hash {T} NOT NULL,
    derivation {T}
)""",
        f"""CREATE TABLE links (
    src_id {T} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    dst_id {T} NOT NULL,
    kind {T} NOT NULL CHECK (kind IN ('supersedes', 'derived_from')),
    PRIMARY KEY (src_id, dst_id, kind)
)""",
        "CREATE INDEX links_dst ON links(dst_id, kind)",
        "CREATE INDEX links_kind_src ON links(kind, src_id)",
        f"""CREATE TABLE chunks (
    id {T} PRIMARY KEY,
    doc_id {T} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    start INTEGER NOT NULL CHECK (start >= 0),
    "end" INTEGER NOT NULL CHECK ("end" >= start),
    text {T} NOT NULL,
    seq BIGINT NOT NULL UNIQUE,
    UNIQUE (doc_id, idx)
)""",
        f"""CREATE TABLE sentences (
    chunk_id {T} NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    doc_id {T} NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    start INTEGER NOT NULL CHECK (start >= 0),
    "end" INTEGER NOT NULL CHECK ("end" >= start),
    text {T} NOT NULL,
    mentions {T},
    PRIMARY KEY (chunk_id, idx)
)""",
        "CREATE INDEX sentences_doc ON sentences(doc_id, idx)",
        f"""CREATE TABLE vectors (
    chunk_id {T} NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    embedder {T} NOT NULL,
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BYTEA NOT NULL CHECK (octet_length(blob) = 4 * dim),
    PRIMARY KEY (chunk_id, embedder)
)""",
        "CREATE INDEX vectors_embedder ON vectors(embedder)",
        f"""CREATE TABLE sentence_vectors (
    chunk_id {T} NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    embedder {T} NOT NULL,
    "rows" INTEGER NOT NULL CHECK ("rows" >= 0),
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BYTEA NOT NULL CHECK (octet_length(blob) = 4 * "rows" * dim),
    PRIMARY KEY (chunk_id, embedder)
)""",
        f"CREATE TABLE settings (key {T} PRIMARY KEY, value {T} NOT NULL)",
        f"CREATE TABLE meta (key {T} PRIMARY KEY, value BIGINT NOT NULL)",
        "INSERT INTO meta (key, value) VALUES ('generation', 0), ('chunk_seq', 0)",
        *(f"CREATE INDEX documents_{f}_{side} ON documents({f}_{side})"
          for f in ("valid_from", "valid_to", "occurred_at") for side in ("start", "end")),
        "CREATE INDEX documents_status ON documents(status)",
        "CREATE INDEX documents_subject ON documents(subject)",
        "CREATE INDEX documents_source_type ON documents(source_type)",
    ])


@migration
def pg002_semantic_layer(db: Connection) -> None:
    """Semantic layer for analytics: assets, their vectors and the join graph."""
    _run(db, [
        f"""CREATE TABLE semantic_assets (
    kind {T} NOT NULL CHECK (kind IN ('table', 'metric', 'term', 'join', 'example', 'rule')),
    id {T} NOT NULL,
    status {T},
    body {T} NOT NULL,
    source {T} NOT NULL,
    content_hash {T} NOT NULL,
    ingested_at {T},
    PRIMARY KEY (kind, id)
)""",
        f"""CREATE TABLE semantic_joins (
    id {T} PRIMARY KEY,
    left_table {T} NOT NULL,
    right_table {T} NOT NULL,
    on_clause {T} NOT NULL,
    fanout {T} NOT NULL CHECK (fanout IN ('low', 'high'))
)""",
        "CREATE INDEX semantic_joins_left ON semantic_joins(left_table)",
        "CREATE INDEX semantic_joins_right ON semantic_joins(right_table)",
        f"""CREATE TABLE semantic_vectors (
    key {T} NOT NULL,
    embedder {T} NOT NULL,
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BYTEA NOT NULL CHECK (octet_length(blob) = 4 * dim),
    PRIMARY KEY (key, embedder)
)""",
        "INSERT INTO meta (key, value) VALUES ('semantic_generation', 0)",
    ])


@migration
def pg003_people(db: Connection) -> None:
    """People, their aliases and access grants. ``documents.subject`` is not a foreign
    key to ``people``: records may name a subject before (or without) a people file."""
    _run(db, [
        f"CREATE TABLE people (id {T} PRIMARY KEY, name {T} NOT NULL, aliases {T} NOT NULL)",
        f"""CREATE TABLE access_grants (
    reader {T} NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    subject {T} NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    PRIMARY KEY (reader, subject)
)""",
        "CREATE INDEX access_grants_subject ON access_grants(subject)",
    ])


@migration
def pg004_api_keys(db: Connection) -> None:
    """The service's API keys: only a hash of each key is kept, never the key.

    ``"user"`` is quoted: USER is a reserved word in PostgreSQL.
    """
    _run(db, [
        f"""CREATE TABLE api_keys (
    id {T} PRIMARY KEY,
    digest {T} NOT NULL UNIQUE,
    "user" {T} NOT NULL,
    admin BOOLEAN NOT NULL,
    created_at {T} NOT NULL,
    revoked_at {T}
)""",
    ])


@migration
def pg005_search(db: Connection) -> None:
    """Search inside the database: chunk vectors as pgvector values and BM25 postings.

    ``vectors.embedding`` holds each blob as a ``vector``; the store's writes give an
    embedder its HNSW index (cosine) once it has more vectors than are searched exactly.
    Terms come from the retrieval layer's tokenizer, so a chunk gets them after it is
    stored: ``chunks.terms_length`` is its number of terms, NULL until then;
    ``chunk_terms`` holds each term's count (``tf``) with the chunk's length, so BM25 reads
    only that index. ``meta`` keeps the count and total length of chunks with terms.

    A search filters by its scope before it ranks, so the fields a scope judges (the
    document's ``subject`` and ``occurred_at``) and the tie order (document id, index) are
    copied onto every chunk and vector row: a search then joins nothing. A document's
    rows are only ever written with it (a changed one is replaced whole), so the copies
    cannot drift.
    """
    scope_columns = f"subject {T}, occurred_start {T}, occurred_end {T}, occurred_gran {T}"
    _run(db, [
        "CREATE EXTENSION IF NOT EXISTS vector",
        "ALTER TABLE vectors ADD COLUMN embedding vector",
        # A row holds its vector twice (blob, embedding): over the 2 kB TOAST threshold,
        # PostgreSQL would move the embedding out of line and every scan would fetch it
        # back. The embedding stays in the row; the blob, read by id only, moves out.
        "ALTER TABLE vectors ALTER COLUMN embedding SET STORAGE PLAIN",
        "ALTER TABLE vectors ALTER COLUMN blob SET STORAGE EXTERNAL",
        f"ALTER TABLE vectors ADD COLUMN doc_id {T}, ADD COLUMN idx INTEGER, "
        + ", ".join(f"ADD COLUMN {c}" for c in scope_columns.split(", ")),
        "ALTER TABLE chunks ADD COLUMN terms_length INTEGER CHECK (terms_length >= 0), "
        + ", ".join(f"ADD COLUMN {c}" for c in scope_columns.split(", ")),
        # Texts out of line: a search joins its best matches to their chunks by seq, and
        # narrow rows keep those lookups on few pages (the update below rewrites every row).
        "ALTER TABLE chunks SET (toast_tuple_target = 128)",
        "UPDATE chunks c SET subject = d.subject, occurred_start = d.occurred_at_start, "
        "occurred_end = d.occurred_at_end, occurred_gran = d.occurred_at_gran "
        "FROM documents d WHERE d.id = c.doc_id",
        "CREATE INDEX chunks_without_terms ON chunks(seq) WHERE terms_length IS NULL",
        f"""CREATE TABLE chunk_terms (
    term {T} NOT NULL,
    seq BIGINT NOT NULL REFERENCES chunks(seq) ON DELETE CASCADE,
    tf REAL NOT NULL CHECK (tf > 0),
    length INTEGER NOT NULL CHECK (length > 0),
    PRIMARY KEY (term, seq) INCLUDE (tf, length)
)""",
        "CREATE INDEX chunk_terms_seq ON chunk_terms(seq)",
        "INSERT INTO meta (key, value) VALUES ('terms_chunks', 0), ('terms_total', 0)",
    ])
    rows = db.execute("SELECT chunk_id, embedder, blob FROM vectors").fetchall()
    with db.cursor() as cur:
        cur.executemany("UPDATE vectors SET embedding = %s::vector "
                        "WHERE chunk_id = %s AND embedder = %s",
                        [(_vector_text(blob), chunk, name) for chunk, name, blob in rows])
    db.execute("UPDATE vectors v SET doc_id = c.doc_id, idx = c.idx, subject = c.subject, "
               "occurred_start = c.occurred_start, occurred_end = c.occurred_end, "
               "occurred_gran = c.occurred_gran FROM chunks c WHERE c.id = v.chunk_id")



@migration
def pg006_token_vectors(db: Connection) -> None:
    """Token vectors of each chunk for late interaction, one matrix per (chunk, model):
    ``rows`` tokens of ``dim`` int8 values, then one float32 scale per token
    (``codec.encode_tokens``). Read by chunk id only, so the blob is kept out of line."""
    _run(db, [
        f"""CREATE TABLE token_vectors (
    chunk_id {T} NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    model {T} NOT NULL,
    "rows" INTEGER NOT NULL CHECK ("rows" >= 0),
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BYTEA NOT NULL CHECK (octet_length(blob) = "rows" * (dim + 4)),
    PRIMARY KEY (chunk_id, model)
)""",
        "ALTER TABLE token_vectors ALTER COLUMN blob SET STORAGE EXTERNAL",
    ])


@migration
def pg007_conditions(db: Connection) -> None:
    """Each document's ``applies_to`` and each person's ``attributes`` (JSON objects; see
    SQLite's m010)."""
    _run(db, [
        f"ALTER TABLE documents ADD COLUMN applies_to {T} NOT NULL DEFAULT '{{}}'",
        f"ALTER TABLE people ADD COLUMN attributes {T} NOT NULL DEFAULT '{{}}'",
    ])


def _vector_text(blob: bytes) -> str:
    """A little-endian float32 blob in pgvector's text form (every value exact)."""
    return "[" + ",".join(map(repr, np.frombuffer(blob, dtype="<f4").tolist())) + "]"

def applied(db: Connection) -> list[str]:
    """Names of the migrations recorded in ``db``, in the order they were applied."""
    if not _has_table(db):
        return []
    rows = db.execute("SELECT name FROM _migrations ORDER BY applied_order").fetchall()
    return [r[0] for r in rows]


def _has_table(db: Connection) -> bool:
    row = db.execute("SELECT to_regclass('_migrations') IS NOT NULL").fetchone()
    return bool(row and row[0])


def migrate(db: Connection, *, upto: str | None = None,
            lock: Callable[[Connection], None] | None = None) -> list[str]:
    """Apply pending migrations (through ``upto`` when given); return the names applied.

    ``db`` must be in autocommit mode: each migration runs in its own transaction with
    its record, after ``lock`` (default: wait for the store's write lock). A database with
    nothing pending is only read, so opening a store never waits for a writer.
    """
    names = [m.__name__ for m in MIGRATIONS]
    if upto is not None and upto not in names:
        raise StoreError(f"unknown migration {upto!r}; choose one of the registered names")
    done = set(applied(db))
    wanted = names if upto is None else names[:names.index(upto) + 1]
    pending = [m for m in MIGRATIONS if m.__name__ in wanted and m.__name__ not in done]
    out = [fn.__name__ for fn in pending if _apply(db, fn, lock or _wait_for_lock)]
    unknown = set(applied(db)) - set(names)
    if unknown:
        log.warning("database has migrations this chronorag does not know: %s; "
                    "it was written by a newer version", sorted(unknown))
    return out


def _wait_for_lock(db: Connection) -> None:
    db.execute(f"SELECT pg_advisory_xact_lock({LOCK_KEY})")


def _apply(db: Connection, fn: Migration, lock: Callable[[Connection], None]) -> bool:
    name = fn.__name__
    db.execute("BEGIN")
    try:
        lock(db)
        db.execute(f"CREATE TABLE IF NOT EXISTS _migrations (name {T} PRIMARY KEY, "
                   f"applied_at {T} NOT NULL, applied_order BIGSERIAL)")
        # Checked under the lock: another process may have just applied it.
        seen = db.execute("SELECT 1 FROM _migrations WHERE name = %s", (name,)).fetchone()
        if seen is None:
            fn(db)
            db.execute("INSERT INTO _migrations (name, applied_at) VALUES (%s, %s)",
                       (name, datetime.now(UTC).isoformat()))
        db.execute("COMMIT")
    except StoreError:
        db.execute("ROLLBACK")
        raise
    except Exception as exc:
        db.execute("ROLLBACK")
        raise StoreError(
            f"schema migration {name} failed ({exc}); the database was left as it was "
            f"before {name}. Restore a backup or report the error with this message."
        ) from exc
    if seen is None:
        log.info("applied store migration %s", name)
    return seen is None
