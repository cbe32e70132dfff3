"""SQLite store write and read speed against raw sqlite3 on the same rows, in one process.

    python benchmarks/store_codec.py [--docs 500] [--rounds 5]

The batch is tests/store/test_store_codec_perf.py's synthetic corpus: 500 documents x 7
chunks = 3,500 chunks, 15,050 sentences with time mentions, 512-d vectors. Each round
writes it once with ``SQLiteStore.write`` and once, as the baseline, with raw sqlite3: the
same rows, encoded before the clock starts, into tables without keys, constraints or
indexes (same WAL / synchronous=NORMAL file, one transaction, one executemany a table).
Reads: ``store.chunks()`` + ``store.vectors()`` (decoded into chunks, sentences, mentions
and a float32 matrix) against plain SELECTs of the same columns and ``np.frombuffer``.
Rounds alternate the two on fresh files; the table shows medians. The ratio is the cost
of validation, encoding, constraints, indexes and decoding over SQLite itself.

Budgets (a write of this batch under 2 s, its read under 1 s) were timing asserts in the
test suite; they live here because they flake on a busy machine.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from chronorag.store import PreparedDocument, SQLiteStore, codec

ROOT = Path(__file__).resolve().parents[1]
EMBEDDER = "e5"
WRITE_BUDGET_S, READ_BUDGET_S = 2.0, 1.0
RAW_SCHEMA = [
    f"CREATE TABLE documents ({', '.join(codec.DOC_COLUMNS)})",
    'CREATE TABLE chunks (id, doc_id, idx, start, "end", text)',
    'CREATE TABLE sentences (chunk_id, idx, doc_id, start, "end", text, mentions)',
    "CREATE TABLE vectors (chunk_id, embedder, dim, blob)",
]


def raw_rows(batch: Sequence[PreparedDocument]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows the store writes, encoded with its own codec (outside the timed part)."""
    rows: dict[str, list[tuple[Any, ...]]] = {"documents": [], "chunks": [], "sentences": [],
                                               "vectors": []}
    for p in batch:
        rows["documents"].append(codec.document_row(p.document, p.content_hash))
        chunk_rows, sentence_rows = codec.chunk_rows(p.chunks)
        rows["chunks"].extend(chunk_rows)
        rows["sentences"].extend(sentence_rows)
        matrix = np.ascontiguousarray(p.vectors[EMBEDDER], dtype="<f4")
        rows["vectors"].extend((c.id, EMBEDDER, matrix.shape[1], matrix[i].tobytes())
                               for i, c in enumerate(p.chunks))
    return rows


def raw_write(path: Path, rows: dict[str, list[tuple[Any, ...]]]) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    for statement in RAW_SCHEMA:
        conn.execute(statement)
    started = time.perf_counter()
    conn.execute("BEGIN IMMEDIATE")
    for table, table_rows in rows.items():
        marks = ", ".join("?" * len(table_rows[0]))
        conn.executemany(f"INSERT INTO {table} VALUES ({marks})", table_rows)
    conn.execute("COMMIT")
    seconds = time.perf_counter() - started
    conn.close()
    return seconds


def raw_read(path: Path) -> tuple[float, int, int, tuple[int, ...]]:
    conn = sqlite3.connect(path)
    started = time.perf_counter()
    chunks = conn.execute('SELECT id, doc_id, idx, start, "end", text FROM chunks').fetchall()
    sentences = conn.execute('SELECT chunk_id, idx, doc_id, start, "end", text, mentions '
                             "FROM sentences").fetchall()
    vectors = conn.execute("SELECT chunk_id, dim, blob FROM vectors WHERE embedder = ?",
                           (EMBEDDER,)).fetchall()
    matrix = np.frombuffer(b"".join(r[2] for r in vectors), dtype="<f4").reshape(
        len(vectors), vectors[0][1])
    seconds = time.perf_counter() - started
    conn.close()
    return seconds, len(chunks), len(sentences), matrix.shape


def store_write(path: Path, batch: list[PreparedDocument]) -> float:
    with SQLiteStore(path) as store:
        started = time.perf_counter()
        store.write(batch)
        return time.perf_counter() - started


def store_read(path: Path) -> tuple[float, int, int, tuple[int, ...]]:
    with SQLiteStore(path) as store:
        started = time.perf_counter()
        chunks = store.chunks()
        ids, matrix = store.vectors(EMBEDDER)
        seconds = time.perf_counter() - started
    assert len(ids) == len(chunks)
    return seconds, len(chunks), sum(len(c.sentences) for c in chunks), matrix.shape


def _median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=500, help="documents (7 chunks each)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests" / "store"))
    from test_store_codec_perf import synthetic_batch  # the test suite's corpus

    batch = synthetic_batch(args.docs)
    rows = raw_rows(batch)
    times: dict[str, list[float]] = {"raw write": [], "store write": [], "raw read": [],
                                     "store read": []}
    shapes: set[tuple[Any, ...]] = set()
    runs: list[tuple[str, str, Callable[[Path], float]]] = [
        ("raw write", "raw read", lambda p: raw_write(p, rows)),
        ("store write", "store read", lambda p: store_write(p, batch)),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for write_key, read_key, write in runs:
                path = Path(tmp) / f"{write_key.split()[0]}-{round_}.db"
                times[write_key].append(write(path))
                read = raw_read if read_key == "raw read" else store_read
                seconds, *counts = read(path)
                times[read_key].append(seconds)
                shapes.add(tuple(counts))
    if len(shapes) != 1:
        raise SystemExit(f"raw and store reads disagree: {sorted(shapes)}")
    n_chunks, n_sentences, matrix_shape = shapes.pop()
    print(f"{args.docs} documents, {n_chunks} chunks, {n_sentences} sentences, vectors "
          f"{matrix_shape[0]} x {matrix_shape[1]}; median of {args.rounds} rounds\n")
    print("| operation | raw sqlite3 s (baseline) | SQLiteStore s | ratio store/raw "
          "| budget s |\n|---|---|---|---|---|")
    for op, budget in (("write", WRITE_BUDGET_S), ("read", READ_BUDGET_S)):
        raw, store = _median(times[f"raw {op}"]), _median(times[f"store {op}"])
        verdict = "ok" if store < budget else "OVER"
        print(f"| {op} | {raw:.3f} | {store:.3f} | {store / raw:.1f} | "
              f"{budget:.0f} ({verdict}) |")


if __name__ == "__main__":
    main()
