"""SQL of the chunk numbering (migration ``m007_chunk_seq``) that search indexes read.

Every inserted chunk takes the next number of ``meta.chunk_seq``; an index built beside
the store compares its numbers with :func:`chunk_seqs` to find what was added or removed
since, and reads only those chunks (:func:`chunk_rows`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

import numpy as np

from chronorag.store import codec
from chronorag.store.base import ChunkRow

_ROWS = """SELECT c.seq, c.id, c.doc_id, c.idx, c.text, d.subject,
    d.occurred_at_start, d.occurred_at_end, d.occurred_at_gran
    FROM chunks c JOIN documents d ON d.id = c.doc_id
    WHERE c.seq IN (SELECT value FROM json_each(?)) ORDER BY c.seq"""


def next_seqs(conn: sqlite3.Connection, count: int) -> range:
    """Reserve ``count`` chunk numbers (inside the caller's write transaction)."""
    last = int(conn.execute("SELECT value FROM meta WHERE key = 'chunk_seq'").fetchone()[0])
    conn.execute("UPDATE meta SET value = ? WHERE key = 'chunk_seq'", (last + count,))
    return range(last + 1, last + count + 1)


def chunk_seqs(conn: sqlite3.Connection) -> np.ndarray:
    """Every chunk's number, ascending, read from the index on ``seq`` alone."""
    rows = conn.execute("SELECT seq FROM chunks ORDER BY seq").fetchall()
    return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))


def chunk_rows(conn: sqlite3.Connection, seqs: Sequence[int]) -> list[ChunkRow]:
    """The chunks numbered ``seqs`` with their documents' subject and event time."""
    intervals = codec.IntervalDecoder()
    rows = conn.execute(_ROWS, (json.dumps([int(s) for s in seqs]),)).fetchall()
    return [ChunkRow(seq, cid, doc_id, idx, text, subject, intervals(start, end, gran))
            for seq, cid, doc_id, idx, text, subject, start, end, gran in rows]


def chunk_summary(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """``(count, sum, maximum)`` of the chunk numbers: what an index checks it matches."""
    count, total, top = conn.execute(
        "SELECT count(*), coalesce(sum(seq), 0), coalesce(max(seq), 0) FROM chunks").fetchone()
    return (int(count), int(total), int(top))
