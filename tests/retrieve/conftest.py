"""A tiny in-memory store implementing the Store protocol (the store is not under test)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np
import pytest

from chronorag.model import Chunk, Document, Query, Understanding
from chronorag.store.base import ChunkRow, PreparedDocument, WriteReport


class MemoryStore:
    """Chunks and vectors in dicts; ``generation`` bumps on every write."""

    def __init__(self) -> None:
        self._chunks: dict[str, Chunk] = {}
        self._seqs: dict[str, int] = {}
        self._vectors: dict[str, dict[str, np.ndarray]] = {}
        self._generation = 0

    def add_texts(self, texts: dict[str, str], *, embedder=None) -> None:
        """Store one single-chunk document per (id, text); embed them when asked."""
        chunks = [Chunk(id=f"{doc_id}#0", doc_id=doc_id, index=0, start=0, end=len(text),
                        text=text) for doc_id, text in texts.items()]
        for chunk in chunks:
            self._chunks[chunk.id] = chunk
            self._seqs[chunk.id] = len(self._seqs) + 1 + max(self._seqs.values(), default=0)
        if embedder is not None:
            matrix = embedder.embed([c.text for c in chunks])
            rows = self._vectors.setdefault(embedder.name, {})
            for chunk, row in zip(chunks, matrix, strict=True):
                rows[chunk.id] = row
        self._generation += 1

    def write(self, batch: Sequence[PreparedDocument], *, force: bool = False) -> WriteReport:
        raise NotImplementedError

    def documents(self, ids: Sequence[str] | None = None) -> list[Document]:
        return []

    def chunks(self, ids: Sequence[str] | None = None) -> list[Chunk]:
        if ids is None:
            return [self._chunks[k] for k in sorted(self._chunks)]
        return [self._chunks[i] for i in ids if i in self._chunks]

    def vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        rows = self._vectors.get(embedder, {})
        ids = sorted(rows)
        if not ids:
            return [], np.zeros((0, 0), dtype=np.float32)
        return ids, np.array([rows[i] for i in ids], dtype=np.float32)

    def chunk_seqs(self) -> np.ndarray:
        return np.array(sorted(self._seqs.values()), dtype=np.int64)

    def chunk_summary(self) -> tuple[int, int, int]:
        seqs = self.chunk_seqs()
        return (len(seqs), int(seqs.sum()), int(seqs.max(initial=0)))

    def chunk_rows(self, seqs: Sequence[int]) -> list[ChunkRow]:
        by_seq = {s: self._chunks[i] for i, s in self._seqs.items()}
        return [ChunkRow(s, c.id, c.doc_id, c.index, c.text, None, None)
                for s in sorted(seqs) if (c := by_seq.get(s)) is not None]

    def chunk_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]:
        rows = self._vectors.get(embedder, {})
        return {i: rows[i] for i in ids if i in rows}

    def generation(self) -> int:
        return self._generation

    def close(self) -> None:
        pass


def make_query(text: str, content: str | None = None) -> Query:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    understanding = Understanding(question=text, content=text if content is None else content)
    return Query(text=text, now=now, as_of=now, understanding=understanding)


@pytest.fixture()
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture(scope="session")
def use_embedder():
    from chronorag.retrieve.embedders import EMBEDDERS

    return EMBEDDERS.create("use-m3")


@pytest.fixture(name="make_query")
def make_query_fixture():
    return make_query
