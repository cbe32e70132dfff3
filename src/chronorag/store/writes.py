"""Inserting prepared documents into SQLite (inside the caller's write transaction):
the counterpart of ``pg_writes``, with rows from the same :mod:`chronorag.store.codec`."""

from __future__ import annotations

import sqlite3
from typing import Any

import numpy as np

from chronorag.store import codec
from chronorag.store import rows as rows_sql
from chronorag.store.base import PreparedDocument

_INSERT_CHUNK = f"INSERT INTO chunks ({codec.CHUNK_COLUMNS}, seq) VALUES (?, ?, ?, ?, ?, ?, ?)"
_INSERT_SENTENCE = f"INSERT INTO sentences ({codec.SENTENCE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"


def insert_documents(conn: sqlite3.Connection, todo: list[PreparedDocument]) -> None:
    """Insert documents with their links, chunks (numbered), sentences and vectors."""
    docs: list[tuple[Any, ...]] = []
    links: list[tuple[str, str, str]] = []
    chunks: list[tuple[Any, ...]] = []
    sentences: list[tuple[Any, ...]] = []
    vectors: dict[str, list[tuple[str, str, int, bytes]]] = {}
    sentence_vectors: list[tuple[str, str, int, int, bytes]] = []
    token_vectors: list[tuple[str, str, int, int, bytes]] = []
    for p in todo:
        doc = p.document
        docs.append(codec.document_row(doc, p.content_hash))
        links.extend((doc.id, dst, "supersedes") for dst in doc.supersedes)
        links.extend((doc.id, dst, "derived_from") for dst in doc.derived_from)
        c_rows, s_rows = codec.chunk_rows(p.chunks)
        chunks.extend(c_rows)
        sentences.extend(s_rows)
        for name, matrix in p.vectors.items():
            arr = np.ascontiguousarray(matrix, dtype="<f4")
            vectors.setdefault(name, []).extend(
                (c.id, name, arr.shape[1], arr[i].tobytes()) for i, c in enumerate(p.chunks)
            )
        sentence_vectors.extend(codec.sentence_vector_rows(p))
        token_vectors.extend(codec.token_vector_rows(p))
    marks = ", ".join("?" * len(codec.DOC_COLUMNS))
    conn.executemany(
        f"INSERT INTO documents ({', '.join(codec.DOC_COLUMNS)}) VALUES ({marks})", docs)
    conn.executemany("UPDATE documents SET derivation = ? WHERE id = ?",
                     [(p.derivation, p.document.id) for p in todo])
    conn.executemany("INSERT OR IGNORE INTO links VALUES (?, ?, ?)", links)
    seqs = rows_sql.next_seqs(conn, len(chunks))
    conn.executemany(_INSERT_CHUNK, [(*row, seq) for row, seq in zip(chunks, seqs,
                                                                      strict=True)])
    conn.executemany(_INSERT_SENTENCE, sentences)
    for name, rows in vectors.items():
        _check_dim(conn, name, {r[2] for r in rows})
        conn.executemany("INSERT INTO vectors VALUES (?, ?, ?, ?)", rows)
    conn.executemany("INSERT INTO sentence_vectors VALUES (?, ?, ?, ?, ?)",
                     sentence_vectors)
    conn.executemany("INSERT INTO token_vectors VALUES (?, ?, ?, ?, ?)", token_vectors)


def _check_dim(conn: sqlite3.Connection, embedder: str, dims: set[int]) -> None:
    row = conn.execute("SELECT dim FROM vectors WHERE embedder = ? LIMIT 1",
                       (embedder,)).fetchone()
    codec.check_dims(embedder, dims, None if row is None else row[0])
