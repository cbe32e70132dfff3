"""BM25 keyword retrieval over chunk texts (English and Chinese), kept in memory.

The index is built from ``store.chunks()`` on the first query and rebuilt whenever
``store.generation()`` changes. ``bm25s`` in memory was chosen over SQLite FTS5 by
measurement (benchmarks/keyword_index.py, results in benchmarks/results/retrieval.md).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chronorag.deps import import_module
from chronorag.model import Chunk, Hit, Query
from chronorag.retrieve.index import top_k
from chronorag.retrieve.pinyin import joined_names, with_pinyin
from chronorag.retrieve.tokenize import normalize, tokenize
from chronorag.store.base import Store


def document_terms(text: str) -> list[str]:
    """The terms a chunk is indexed under: its words, and the pinyin of its Chinese names."""
    return with_pinyin(tokenize(text))


def query_terms(text: str) -> list[str]:
    """The terms a question searches for: as a chunk's, plus neighbouring Latin words that
    spell one Chinese name ("Zhang Wei" -> "zhangwei")."""
    return document_terms(text) + joined_names(normalize(text))


@dataclass(frozen=True)
class Bm25Index:
    """A BM25 (Lucene variant) index over a fixed list of chunks."""

    chunks: tuple[Chunk, ...]
    model: object  # bm25s.BM25; typed loosely because bm25s ships no type hints

    @classmethod
    def build(cls, chunks: Sequence[Chunk], *, k1: float = 1.5, b: float = 0.75) -> Bm25Index:
        """Tokenize and index ``chunks``."""
        bm25s = import_module("bm25s")
        model = bm25s.BM25(k1=k1, b=b, method="lucene")
        corpus = [document_terms(c.text) for c in chunks]
        if chunks:
            model.index(corpus, show_progress=False)
        return cls(chunks=tuple(chunks), model=model)

    def search(self, text: str, *, limit: int,
               allowed: frozenset[str] | None = None) -> list[tuple[Chunk, float]]:
        """Chunks with a positive BM25 score for ``text``, best first.

        ``allowed`` (chunk ids) masks every other chunk to a zero score inside bm25s
        (``weight_mask``), so a hidden chunk can never be returned.
        """
        if not self.chunks or limit <= 0 or (allowed is not None and not allowed):
            return []
        model = self.model
        ids = model.get_tokens_ids(query_terms(text))  # type: ignore[attr-defined]
        if not ids:
            return []
        mask = None
        if allowed is not None:
            mask = np.fromiter((c.id in allowed for c in self.chunks), dtype=np.float32,
                               count=len(self.chunks))
        scores = np.asarray(model.get_scores_from_ids(  # type: ignore[attr-defined]
            ids, weight_mask=mask))
        return [
            (self.chunks[i], float(scores[i])) for i in top_k(scores, limit) if scores[i] > 0
        ]


class KeywordRetriever:
    """BM25 retriever over every chunk of a store; matches ``query.content``.

    ``query.content`` is the question without its time expression: dates in the question
    would otherwise pull in any chunk that mentions the same year.
    """

    name = "bm25"

    def __init__(self, store: Store, *, k1: float = 1.5, b: float = 0.75) -> None:
        self._store = store
        self._k1 = k1
        self._b = b
        self._index: Bm25Index | None = None
        self._generation: int | None = None
        self._lock = threading.Lock()

    def index(self) -> Bm25Index:
        """The current index, (re)built when the store's generation changed."""
        generation = self._store.generation()
        with self._lock:
            if self._index is None or generation != self._generation:
                self._index = Bm25Index.build(self._store.chunks(), k1=self._k1, b=self._b)
                self._generation = generation
            return self._index

    def retrieve(self, query: Query, *, limit: int,
                 allowed: frozenset[str] | None = None) -> list[Hit]:
        """Up to ``limit`` hits among ``allowed`` chunks, best first, ``scores={"bm25": s}``
        (also their ``score``, the order)."""
        text = query.content or query.text
        return [
            Hit(chunk=chunk, score=score, scores={"bm25": score})
            for chunk, score in self.index().search(text, limit=limit, allowed=allowed)
        ]
