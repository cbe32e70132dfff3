"""Inserting prepared documents into PostgreSQL (inside the caller's write transaction).

Rows come from :mod:`chronorag.store.codec`, the encoding the SQLite store writes, so a
document reads back the same from either backend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from chronorag.store import codec, pg_search
from chronorag.store import pg_queries as sql
from chronorag.store.base import PreparedDocument

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[Any]
else:
    Connection = Any

_DOC_COLUMNS = (*codec.DOC_COLUMNS, "derivation")
_INSERT_DOC = (f"INSERT INTO documents ({', '.join(_DOC_COLUMNS)}) "
               f"VALUES ({', '.join(['%s'] * len(_DOC_COLUMNS))})")
_INSERT_LINK = "INSERT INTO links VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
_SCOPE = "subject, occurred_start, occurred_end, occurred_gran"
_CHUNKS = f"chunks ({codec.CHUNK_COLUMNS}, {_SCOPE}, seq)"
_SENTENCES = f"sentences ({codec.SENTENCE_COLUMNS})"
_VECTORS = f"vectors (chunk_id, embedder, dim, blob, embedding, doc_id, idx, {_SCOPE})"
_SENTENCE_VECTORS = 'sentence_vectors (chunk_id, embedder, "rows", dim, blob)'
_TOKEN_VECTORS = 'token_vectors (chunk_id, model, "rows", dim, blob)'


class _Rows:
    """The rows of a batch, table by table, in insertion order."""

    def __init__(self, todo: list[PreparedDocument]) -> None:
        self.docs: list[tuple[Any, ...]] = []
        self.links: list[tuple[str, str, str]] = []
        self.chunks: list[tuple[Any, ...]] = []
        self.sentences: list[tuple[Any, ...]] = []
        self.vectors: dict[str, list[tuple[Any, ...]]] = {}
        self.sentence_vectors: list[tuple[str, str, int, int, bytes]] = []
        self.token_vectors: list[tuple[str, str, int, int, bytes]] = []
        for p in todo:
            self._add(p)

    def _add(self, p: PreparedDocument) -> None:
        doc = p.document
        self.docs.append((*codec.document_row(doc, p.content_hash), p.derivation))
        self.links.extend((doc.id, dst, "supersedes") for dst in doc.supersedes)
        self.links.extend((doc.id, dst, "derived_from") for dst in doc.derived_from)
        c_rows, s_rows = codec.chunk_rows(p.chunks)
        # What a search's scope judges, copied onto each row (see pg005_search).
        scope = (doc.subject, *codec.encode_interval(doc.occurred_at))
        self.chunks.extend((*row, *scope) for row in c_rows)
        self.sentences.extend(s_rows)
        for name, matrix in p.vectors.items():
            arr = np.ascontiguousarray(matrix, dtype="<f4")
            self.vectors.setdefault(name, []).extend(
                (c.id, name, arr.shape[1], arr[i].tobytes(), pg_search.vector_text(arr[i]),
                 c.doc_id, c.index, *scope)
                for i, c in enumerate(p.chunks))
        self.sentence_vectors.extend(codec.sentence_vector_rows(p))
        self.token_vectors.extend(codec.token_vector_rows(p))


def insert_documents(conn: Connection, todo: list[PreparedDocument]) -> None:
    """Insert documents with their links, chunks (numbered), sentences and vectors.

    The bulk of a batch (chunks, sentences, vectors) goes in by ``COPY``.
    """
    rows = _Rows(todo)
    seqs = sql.next_seqs(conn, len(rows.chunks)) if rows.chunks else range(0)
    with conn.cursor() as cur:
        cur.executemany(_INSERT_DOC, rows.docs)
        cur.executemany(_INSERT_LINK, rows.links)
        _copy(cur, _CHUNKS, [(*row, seq) for row, seq in zip(rows.chunks, seqs, strict=True)])
        _copy(cur, _SENTENCES, rows.sentences)
        for name, vector_rows in rows.vectors.items():
            dims = {r[2] for r in vector_rows}
            check_dim(conn, name, dims)
            _copy(cur, _VECTORS, vector_rows)
        _copy(cur, _SENTENCE_VECTORS, rows.sentence_vectors)
        _copy(cur, _TOKEN_VECTORS, rows.token_vectors)


def _copy(cur: Any, target: str, rows: list[tuple[Any, ...]]) -> None:
    if rows:
        with cur.copy(f"COPY {target} FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def check_dim(conn: Connection, embedder: str, dims: set[int]) -> None:
    """Refuse vectors of another size than those already stored for ``embedder``."""
    row = conn.execute("SELECT dim FROM vectors WHERE embedder = %s LIMIT 1",
                       (embedder,)).fetchone()
    codec.check_dims(embedder, dims, None if row is None else row[0])
