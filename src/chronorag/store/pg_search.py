"""Search inside PostgreSQL: pgvector nearest neighbours and BM25 over stored postings.

Both searches apply the query's scope in their own statement (a ``WHERE`` on the scope
columns each chunk and vector row copies from its document), so a chunk outside it is
never scored and cannot push a visible one out.
Equal scores are ordered by (document id, chunk index), as the in-memory indexes order
them. BM25 is the Lucene variant ``bm25s`` computes (idf ``ln(1 + (N - df + .5) /
(df + .5))``, term part ``tf / (tf + k1 (1 - b + b len / mean len))``), in float64.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from chronorag.store.codec import encode_time
from chronorag.store.scope import Scope
from chronorag.store.search import Found

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[Any]
else:
    Connection = Any

EXACT_UP_TO = 250_000
"""Up to this many vectors of an embedder every one is compared; above it the HNSW index
answers. The in-memory index's threshold, so both backends give the same answers wherever
it searches exactly. Measured at 98k chunks (benchmarks/README.md §17): exact, ``ask`` p50
1.14 × SQLite's with the same answers; HNSW, 0.92 × but 75% of answers the same on the
hashed-word test vectors, whose near-ties are a hard case for a graph."""

_BUILD_MEMORY = "512MB"  # maintenance_work_mem for building an HNSW index: the graph fits

log = logging.getLogger(__name__)

# The HNSW graph (pgvector's m, ef_construction) and its search depth (pgvector's largest
# ef_search). On the hashed-word vectors of benchmarks/scale_corpus.py at 98k chunks, a hard
# case for graphs (many near-ties): recall@100 against exact 0.966 in 16 ms, against 0.708
# at depth 200 and 0.578 with pgvector's default graph (m 16, 64); built in 63 s.
_GRAPH = (32, 128)
_EF_SEARCH = 1000


def vector_text(vector: np.ndarray) -> str:
    """``vector`` in pgvector's text form; float32 values print exactly."""
    return "[" + ",".join(map(repr, np.asarray(vector, dtype=np.float32).tolist())) + "]"


def scope_where(scope: Scope | None, table: str) -> tuple[str, list[Any]]:
    """`` AND`` conditions for ``scope`` on the scope columns of ``table`` (an alias of
    ``chunks`` or ``vectors``, which copy their document's), and their parameters: the
    rule of :meth:`Scope.admits` in SQL."""
    if scope is None or not scope.restricts:
        return "", []
    t = table
    where: list[str] = []
    params: list[Any] = []
    if scope.readable is not None:
        where.append(f"({t}.subject IS NULL OR {t}.subject = ANY(%s::text[]))")
        params.append(sorted(scope.readable))
    if scope.about is not None:
        where.append(f"({t}.subject = ANY(%s::text[]) OR (%s AND {t}.subject IS NULL))")
        params.extend([sorted(scope.about), scope.public])
    window = scope.window
    if window is not None:
        sides = []
        if window.start is not None:
            sides.append(f"({t}.occurred_end IS NULL OR {t}.occurred_end > %s)")
            params.append(encode_time(window.start))
        if window.end is not None:
            sides.append(f"({t}.occurred_start IS NULL OR {t}.occurred_start < %s)")
            params.append(encode_time(window.end))
        if sides:  # no occurred_at (gran NULL): unaffected
            where.append(f"({t}.occurred_gran IS NULL OR ({' AND '.join(sides)}))")
    return "".join(f" AND {w}" for w in where), params


# -- vectors ------------------------------------------------------------------------------

def index_name(embedder: str) -> str:
    """The HNSW index of one embedder's vectors (names may hold any character)."""
    return "vectors_hnsw_" + hashlib.sha256(embedder.encode()).hexdigest()[:16]


def build_indexes(conn: Connection) -> list[str]:
    """HNSW indexes for the embedders past the exact-search size that have none; their
    names. Below that size an index would go unused and slow every insert; built once
    over every vector, it then follows each insert."""
    built = []
    for embedder, dim, count in conn.execute(
            "SELECT embedder, min(dim), count(*) FROM vectors GROUP BY embedder").fetchall():
        if count > EXACT_UP_TO and ensure_vector_index(conn, embedder, int(dim)):
            built.append(embedder)
    return built


def ensure_vector_index(conn: Connection, embedder: str, dim: int) -> bool:
    """The embedder's HNSW index (cosine, over ``embedding`` as ``vector(dim)``); whether
    it had to be built."""
    name = index_name(embedder)
    found = conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()
    if found and found[0] is not None:
        return False
    from psycopg import sql

    log.info("building the HNSW index of %s vectors (once)", embedder)
    conn.execute("SELECT set_config('maintenance_work_mem', %s, true)", (_BUILD_MEMORY,))
    conn.execute(sql.SQL(
        "CREATE INDEX IF NOT EXISTS {} ON vectors USING hnsw "
        "((embedding::vector({})) vector_cosine_ops) WITH (m = {}, ef_construction = {}) "
        "WHERE embedder = {}").format(
            sql.Identifier(name), sql.Literal(int(dim)), sql.Literal(_GRAPH[0]),
            sql.Literal(_GRAPH[1]), sql.Literal(embedder)))
    return True


def nearest(conn: Connection, embedder: str, vector: np.ndarray, *, limit: int,
            scope: Scope | None, exact: bool) -> Found:
    """Chunks nearest ``vector`` (cosine), inside ``scope``; in a transaction."""
    from psycopg import sql

    cond, params = scope_where(scope, "v")
    text = vector_text(vector)
    if exact:
        # Stored vectors are unit length, so the inner product is the cosine, computed as
        # the in-memory index computes it (a dot product, no renormalising). The cut
        # keeps every row tied with the last, which the outer order then breaks.
        rows = conn.execute(
            "SELECT chunk_id, score FROM (SELECT v.chunk_id, v.doc_id, v.idx, "
            f"-(v.embedding <#> %s::vector) AS score FROM vectors v WHERE v.embedder = %s"
            f"{cond} ORDER BY v.embedding <#> %s::vector FETCH FIRST %s ROWS WITH TIES) x "
            "ORDER BY score DESC, doc_id, idx LIMIT %s",
            [text, embedder, *params, text, limit, limit]).fetchall()
        return [(r[0], float(r[1])) for r in rows]
    dim = sql.Literal(len(vector))
    conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(_EF_SEARCH),))
    if cond:
        # A filter drops candidates the graph found: keep walking it until ``limit`` pass.
        conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
    distance = sql.SQL("v.embedding::vector({d}) <=> %s::vector({d})").format(d=dim)
    ann = sql.SQL(
        "SELECT chunk_id, score FROM (SELECT v.chunk_id, v.doc_id, v.idx, "
        "1 - ({dist}) AS score FROM vectors v "
        f"WHERE v.embedder = {{name}}{cond} ORDER BY {{dist}} LIMIT %s) x "
        "ORDER BY score DESC, doc_id, idx").format(dist=distance, name=sql.Literal(embedder))
    rows = conn.execute(ann, [text, *params, text, limit]).fetchall()
    return [(r[0], float(r[1])) for r in rows]


def vector_count(conn: Connection, embedder: str) -> int:
    row = conn.execute("SELECT count(*) FROM vectors WHERE embedder = %s",
                       (embedder,)).fetchone()
    return int(row[0]) if row else 0


# -- terms --------------------------------------------------------------------------------

_BM25 = """WITH q(term, times) AS (SELECT * FROM unnest(%s::text[], %s::int[])),
df AS (SELECT t.term, count(*)::float8 AS df FROM chunk_terms t
       JOIN q ON t.term = q.term COLLATE "C" GROUP BY t.term),
s AS (SELECT t.seq, sum(q.times * ln(1 + (%s - df.df + 0.5) / (df.df + 0.5)) * t.tf
                        / (t.tf + %s * (1 - %s + %s * t.length / %s))) AS score
      FROM chunk_terms t JOIN q ON t.term = q.term COLLATE "C"
      JOIN df ON df.term = t.term GROUP BY t.seq),
top AS (SELECT seq, score FROM s WHERE score > 0
        ORDER BY score DESC FETCH FIRST %s ROWS WITH TIES)
SELECT c.id, top.score, (TRUE{cond}) FROM top JOIN chunks c ON c.seq = top.seq
ORDER BY top.score DESC, c.doc_id, c.idx"""

# Candidates read per admitted chunk wanted, first; each later round reads 8 times more.
_FIRST_READ, _GROWTH = 4, 8


def bm25(conn: Connection, terms: Mapping[str, int], *, limit: int, scope: Scope | None,
         k1: float, b: float) -> Found:
    """Chunks with a positive BM25 score for ``terms``, inside ``scope``.

    Scoring reads only the postings; joining every match to its chunk for the scope would
    cost more than the scores (5k matches: 6 ms to score, 58 ms to join, measured at 98k
    chunks). So the best matches are judged first, and more only while too few are
    admitted. The cut keeps every match tied with the last, so no admitted chunk scoring
    as high as one returned is left out.
    """
    chunks, total = term_totals(conn)
    if not chunks or not terms or limit <= 0:
        return []
    cond, cond_params = scope_where(scope, "c")
    words = sorted(terms)
    # Positional: ``b`` twice for ``(1 - b + b len / avg)``.
    params = [words, [int(terms[w]) for w in words], float(chunks), k1, b, b,
              total / chunks]
    statement = _BM25.format(cond=cond)
    read = _FIRST_READ * limit if cond else limit
    while True:
        rows = conn.execute(statement, [*params, read, *cond_params]).fetchall()
        admitted = [(r[0], float(r[1])) for r in rows if r[2]]
        if len(admitted) >= limit or len(rows) < read:  # enough, or every match judged
            return admitted[:limit]
        read *= _GROWTH


def term_totals(conn: Connection) -> tuple[int, int]:
    """The number of chunks with terms and their total length."""
    rows = dict(conn.execute("SELECT key, value FROM meta WHERE key IN "
                             "('terms_chunks', 'terms_total')").fetchall())
    return int(rows.get("terms_chunks", 0)), int(rows.get("terms_total", 0))


def without_terms(conn: Connection, limit: int) -> list[tuple[int, str]]:
    rows = conn.execute("SELECT seq, text FROM chunks WHERE terms_length IS NULL "
                        "ORDER BY seq LIMIT %s", (limit,)).fetchall()
    return [(int(r[0]), r[1]) for r in rows]


def add_terms(conn: Connection, rows: Sequence[tuple[int, Sequence[str]]]) -> int:
    """Terms of chunks that have none yet (inside the caller's write transaction)."""
    lengths = {int(seq): len(terms) for seq, terms in rows}
    got = conn.execute(
        "UPDATE chunks SET terms_length = x.len FROM unnest(%s::bigint[], %s::int[]) "
        "AS x(seq, len) WHERE chunks.seq = x.seq AND chunks.terms_length IS NULL "
        "RETURNING chunks.seq", (list(lengths), list(lengths.values()))).fetchall()
    fresh = {int(r[0]) for r in got}
    with conn.cursor() as cur, cur.copy(
            "COPY chunk_terms (term, seq, tf, length) FROM STDIN") as copy:
        for seq, terms in rows:
            if int(seq) in fresh:
                counts: dict[str, int] = {}
                for term in terms:
                    counts[term] = counts.get(term, 0) + 1
                for term, tf in counts.items():
                    copy.write_row((term, int(seq), float(tf), len(terms)))
    _shift_totals(conn, len(fresh), sum(lengths[s] for s in fresh))
    return len(fresh)


def forget_terms(conn: Connection, doc_ids: Sequence[str]) -> None:
    """Take the chunks of these documents out of the totals (before they are deleted)."""
    row = conn.execute("SELECT count(terms_length), coalesce(sum(terms_length), 0) "
                       "FROM chunks WHERE doc_id = ANY(%s::text[])", (list(doc_ids),)
                       ).fetchone()
    if row and row[0]:
        _shift_totals(conn, -int(row[0]), -int(row[1]))


def _shift_totals(conn: Connection, chunks: int, length: int) -> None:
    conn.execute("UPDATE meta SET value = value + CASE key WHEN 'terms_chunks' THEN %s "
                 "ELSE %s END WHERE key IN ('terms_chunks', 'terms_total')",
                 (chunks, length))
