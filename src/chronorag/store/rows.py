"""SQL of the chunk numbering (migration ``m007_chunk_seq``) that search indexes read.

Every inserted chunk takes the next number of ``meta.chunk_seq``; an index built beside
the store compares its numbers with ``common.chunk_seqs`` to find what was added or
removed since, and reads only those chunks (:func:`chunk_rows`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from chronorag.store.base import ChunkRow
from chronorag.store.common import decode_chunk_rows

_ROWS = """SELECT c.seq, c.id, c.doc_id, c.idx, c.text, d.subject,
    d.occurred_at_start, d.occurred_at_end, d.occurred_at_gran
    FROM chunks c JOIN documents d ON d.id = c.doc_id
    WHERE c.seq IN (SELECT value FROM json_each(?)) ORDER BY c.seq"""


def next_seqs(conn: sqlite3.Connection, count: int) -> range:
    """Reserve ``count`` chunk numbers (inside the caller's write transaction)."""
    last = int(conn.execute("SELECT value FROM meta WHERE key = 'chunk_seq'").fetchone()[0])
    conn.execute("UPDATE meta SET value = ? WHERE key = 'chunk_seq'", (last + count,))
    return range(last + 1, last + count + 1)


def chunk_rows(conn: sqlite3.Connection, seqs: Sequence[int]) -> list[ChunkRow]:
    """The chunks numbered ``seqs`` with their documents' subject and event time."""
    rows = conn.execute(_ROWS, (json.dumps([int(s) for s in seqs]),)).fetchall()
    return decode_chunk_rows(rows)
