"""Named, recorded schema migrations for the SQLite store (in the style of ``llm``).

Each migration is a function registered, in order, with ``@migration``. Its name is
recorded in ``_migrations`` once applied; opening a database applies the pending ones,
each in its own transaction. Never edit a released migration: add a new one.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

from chronorag.errors import StoreError

log = logging.getLogger(__name__)

Migration = Callable[[sqlite3.Connection], None]

MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    """Register ``fn`` as the next migration; its ``__name__`` is its recorded name."""
    if any(m.__name__ == fn.__name__ for m in MIGRATIONS):
        raise ValueError(f"migration {fn.__name__} is registered twice")
    MIGRATIONS.append(fn)
    return fn


def _run(db: sqlite3.Connection, statements: list[str]) -> None:
    # executescript() would COMMIT first; run statements one by one inside our transaction.
    for statement in statements:
        db.execute(statement)


@migration
def m001_initial(db: sqlite3.Connection) -> None:
    """Documents, links, chunks, sentences, vectors and the generation counter.

    The interval columns are spelled out rather than derived from the codec's field list:
    a migration must create the same schema whatever later code declares.
    """
    _run(db, [
        """CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    source_type TEXT,
    status TEXT CHECK (status IN ('approved', 'draft', 'retired')),
    valid_from_start TEXT, valid_from_end TEXT, valid_from_gran TEXT,
    valid_to_start TEXT, valid_to_end TEXT, valid_to_gran TEXT,
    occurred_at_start TEXT, occurred_at_end TEXT, occurred_at_gran TEXT,
    published_at_start TEXT, published_at_end TEXT, published_at_gran TEXT,
    modified_at_start TEXT, modified_at_end TEXT, modified_at_gran TEXT,
    ingested_at TEXT,
    supersedes TEXT NOT NULL,
    derived_from TEXT NOT NULL,
    subject TEXT,
    owner TEXT,
    metadata TEXT NOT NULL,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL
)""",
        """CREATE TABLE links (
    src_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    dst_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('supersedes', 'derived_from')),
    PRIMARY KEY (src_id, dst_id, kind)
)""",
        "CREATE INDEX links_dst ON links(dst_id, kind)",
        "CREATE INDEX links_kind_src ON links(kind, src_id)",
        """CREATE TABLE chunks (
    id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    start INTEGER NOT NULL CHECK (start >= 0),
    "end" INTEGER NOT NULL CHECK ("end" >= start),
    text TEXT NOT NULL,
    UNIQUE (doc_id, idx)
)""",
        """CREATE TABLE sentences (
    chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    start INTEGER NOT NULL CHECK (start >= 0),
    "end" INTEGER NOT NULL CHECK ("end" >= start),
    text TEXT NOT NULL,
    mentions TEXT,
    PRIMARY KEY (chunk_id, idx)
)""",
        "CREATE INDEX sentences_doc ON sentences(doc_id, idx)",
        """CREATE TABLE vectors (
    chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    embedder TEXT NOT NULL,
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BLOB NOT NULL CHECK (length(blob) = 4 * dim),
    PRIMARY KEY (chunk_id, embedder)
)""",
        "CREATE INDEX vectors_embedder ON vectors(embedder)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
        "INSERT INTO meta (key, value) VALUES ('generation', 0)",
    ])


@migration
def m002_filter_indexes(db: sqlite3.Connection) -> None:
    """Indexes for the time, status and subject filters later stages run in SQL."""
    statements = [
        f"CREATE INDEX documents_{f}_{side} ON documents({f}_{side})"
        for f in ("valid_from", "valid_to", "occurred_at")
        for side in ("start", "end")
    ]
    statements += [
        "CREATE INDEX documents_status ON documents(status)",
        "CREATE INDEX documents_subject ON documents(subject)",
        "CREATE INDEX documents_source_type ON documents(source_type)",
    ]
    _run(db, statements)


def applied(db: sqlite3.Connection) -> list[str]:
    """Names of the migrations recorded in ``db``, in the order they were applied."""
    rows = db.execute("SELECT name FROM _migrations ORDER BY rowid").fetchall()
    return [r[0] for r in rows]


def _pending(db: sqlite3.Connection) -> list[str]:
    """Names of the registered migrations ``db`` has not recorded; a read, no lock."""
    done = _recorded(db)
    return [m.__name__ for m in MIGRATIONS if m.__name__ not in done]


def _recorded(db: sqlite3.Connection) -> set[str]:
    """The migrations ``db`` records; none before its first migration made the table."""
    has_table = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                           "AND name = '_migrations'").fetchone() is not None
    return set(applied(db)) if has_table else set()


def _begin(db: sqlite3.Connection) -> None:
    db.execute("BEGIN IMMEDIATE")


def migrate(db: sqlite3.Connection, *, upto: str | None = None,
            begin: Callable[[sqlite3.Connection], None] = _begin) -> list[str]:
    """Apply pending migrations (through ``upto`` when given); return the names applied.

    ``db`` must be in autocommit mode (``isolation_level=None``): each migration runs in
    its own transaction, opened by ``begin``, together with its record. A database with
    nothing pending is only read, so opening a store never waits for a writer.
    """
    if upto is not None and upto not in {m.__name__ for m in MIGRATIONS}:
        raise StoreError(f"unknown migration {upto!r}; choose one of the registered names")
    pending = _pending(db)
    if upto is not None and upto not in pending:
        pending = []
    elif upto is not None:
        pending = pending[:pending.index(upto) + 1]
    done: list[str] = []
    for fn in MIGRATIONS:
        if fn.__name__ in pending and _apply(db, fn, begin):
            done.append(fn.__name__)
    _warn_unknown(db)
    return done


def _apply(db: sqlite3.Connection, fn: Migration,
           begin: Callable[[sqlite3.Connection], None]) -> bool:
    name = fn.__name__
    begin(db)
    try:
        db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, "
                   "applied_at TEXT)")
        # Checked inside the write lock: another process may have just applied it.
        seen = db.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone()
        if seen is None:
            fn(db)
            db.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)",
                       (name, datetime.now(UTC).isoformat()))
        db.execute("COMMIT")
    except Exception as exc:
        db.execute("ROLLBACK")
        raise StoreError(
            f"schema migration {name} failed ({exc}); the database was left as it was "
            f"before {name}. Restore a backup or report the error with this message."
        ) from exc
    if seen is None:
        log.info("applied store migration %s", name)
    return seen is None


def _warn_unknown(db: sqlite3.Connection) -> None:
    unknown = _recorded(db) - {m.__name__ for m in MIGRATIONS}
    if unknown:
        log.warning("database has migrations this chronorag does not know: %s; "
                    "it was written by a newer version", sorted(unknown))


@migration
def m003_semantic_layer(db: sqlite3.Connection) -> None:
    """Semantic layer for analytics: assets, their vectors and the join graph.

    Additive only. Assets of every kind (table, metric, term, join, example, rule) share
    one table keyed by ``(kind, id)``; ``body`` holds the validated entry as JSON. Joins are
    also kept as edges so the graph engine can walk them with a recursive CTE.
    """
    _run(db, [
        """CREATE TABLE semantic_assets (
    kind TEXT NOT NULL CHECK (kind IN ('table', 'metric', 'term', 'join', 'example', 'rule')),
    id TEXT NOT NULL,
    status TEXT,
    body TEXT NOT NULL,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    ingested_at TEXT,
    PRIMARY KEY (kind, id)
)""",
        """CREATE TABLE semantic_joins (
    id TEXT PRIMARY KEY,
    left_table TEXT NOT NULL,
    right_table TEXT NOT NULL,
    on_clause TEXT NOT NULL,
    fanout TEXT NOT NULL CHECK (fanout IN ('low', 'high'))
)""",
        "CREATE INDEX semantic_joins_left ON semantic_joins(left_table)",
        "CREATE INDEX semantic_joins_right ON semantic_joins(right_table)",
        """CREATE TABLE semantic_vectors (
    key TEXT NOT NULL,
    embedder TEXT NOT NULL,
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BLOB NOT NULL CHECK (length(blob) = 4 * dim),
    PRIMARY KEY (key, embedder)
)""",
        "INSERT INTO meta (key, value) VALUES ('semantic_generation', 0)",
    ])


@migration
def m004_people(db: sqlite3.Connection) -> None:
    """People, their aliases and access grants: who may see whose records.

    Additive only. ``documents.subject`` is not a foreign key to ``people``: records may
    name a subject before (or without) a people file, and are then visible to that
    subject and to admins only.
    """
    _run(db, [
        """CREATE TABLE people (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    aliases TEXT NOT NULL
)""",
        """CREATE TABLE access_grants (
    reader TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    subject TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    PRIMARY KEY (reader, subject)
)""",
    ])


@migration
def m005_derivation(db: sqlite3.Connection) -> None:
    """What each document's chunks and vectors were derived with, and store settings.

    ``derivation`` names the chunker version and the embedders, so a document counts as
    unchanged only when its text and both of those match. Existing documents were cut by
    chunker version 1 and embedded by the embedders their vectors are stored under.
    ``settings`` records the store's embedder: the one its vectors were made with.
    """
    _run(db, [
        "ALTER TABLE documents ADD COLUMN derivation TEXT",
        """UPDATE documents SET derivation = 'chunker=1;embedders=' || coalesce((
    SELECT group_concat(embedder, ',') FROM (
        SELECT DISTINCT v.embedder AS embedder FROM vectors v JOIN chunks c ON c.id = v.chunk_id
        WHERE c.doc_id = documents.id ORDER BY v.embedder)), '')""",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """INSERT INTO settings (key, value)
    SELECT 'embedder', min(embedder) FROM vectors HAVING count(DISTINCT embedder) = 1""",
    ])


@migration
def m006_sentence_vectors(db: sqlite3.Connection) -> None:
    """Vectors of each chunk's sentences, one matrix per (chunk, embedder).

    Multilingual relevance is judged on the best sentence of a passage, and embedding
    sentences at question time is far too slow, so ingest stores them: ``rows`` sentences
    of ``dim`` float32 each, in the chunk's sentence order.
    """
    _run(db, [
        """CREATE TABLE sentence_vectors (
    chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    embedder TEXT NOT NULL,
    rows INTEGER NOT NULL CHECK (rows >= 0),
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BLOB NOT NULL CHECK (length(blob) = 4 * rows * dim),
    PRIMARY KEY (chunk_id, embedder)
)""",
    ])


@migration
def m007_chunk_seq(db: sqlite3.Connection) -> None:
    """A stable, increasing number for every stored chunk.

    Persistent search indexes beside the store address chunks by it: a chunk's ``seq``
    never changes (``VACUUM`` may renumber rowids, never a column), and a replaced
    document's chunks get new numbers, so the chunks added or removed since an index was
    built are the numbers it lacks or has too many of. ``meta.chunk_seq`` is the last
    number given out.
    """
    _run(db, [
        "ALTER TABLE chunks ADD COLUMN seq INTEGER",
        "UPDATE chunks SET seq = rowid",
        "CREATE UNIQUE INDEX chunks_seq ON chunks(seq)",
        """INSERT INTO meta (key, value)
    VALUES ('chunk_seq', coalesce((SELECT max(seq) FROM chunks), 0))""",
    ])


@migration
def m008_api_keys(db: sqlite3.Connection) -> None:
    """The service's API keys: only a hash of each key is kept, never the key.

    ``user`` is who the key asks as (privacy rules apply to them); ``admin`` keys may
    write. A revoked key keeps its row, with the moment it was revoked, so ``keys list``
    still shows it.
    """
    _run(db, [
        """CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    user TEXT NOT NULL,
    admin INTEGER NOT NULL CHECK (admin IN (0, 1)),
    created_at TEXT NOT NULL,
    revoked_at TEXT
)""",
    ])


@migration
def m009_token_vectors(db: sqlite3.Connection) -> None:
    """Token vectors of each chunk for late interaction, one matrix per (chunk, model).

    ``rows`` tokens of ``dim`` int8 values each, then one float32 scale per token
    (``codec.encode_tokens``): a chunk holds hundreds of tokens, so a quarter of float32's
    bytes. Written at ingest by the token encoders of the store's search configuration.
    """
    _run(db, [
        """CREATE TABLE token_vectors (
    chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    rows INTEGER NOT NULL CHECK (rows >= 0),
    dim INTEGER NOT NULL CHECK (dim > 0),
    blob BLOB NOT NULL CHECK (length(blob) = rows * (dim + 4)),
    PRIMARY KEY (chunk_id, model)
)""",
    ])


@migration
def m010_conditions(db: sqlite3.Connection) -> None:
    """Applicability beyond time: each document's ``applies_to`` and each person's
    ``attributes``, as JSON objects (``{}``: for everyone, no attributes). The declared
    condition keys are a store setting (``conditions``)."""
    _run(db, [
        "ALTER TABLE documents ADD COLUMN applies_to TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE people ADD COLUMN attributes TEXT NOT NULL DEFAULT '{}'",
    ])
