"""BM25 keyword retrieval over chunk texts (English and Chinese).

The retriever searches the store's persistent index (``retrieve.snapshot``), which is
updated with the chunks added since it was built rather than rebuilt in every process.
``Bm25Index`` indexes a list of chunks in memory with ``bm25s`` (the reference the
persistent index is checked against, and the index of passages cut on the fly). BM25 in
memory was chosen over SQLite FTS5 by measurement (benchmarks/keyword_index.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chronorag.deps import import_module
from chronorag.model import Chunk, Hit, Query
from chronorag.retrieve.index import top_k
from chronorag.retrieve.scope import Scope
from chronorag.retrieve.snapshot import Indexes
from chronorag.retrieve.terms import document_terms, query_terms

__all__ = ["Bm25Index", "KeywordRetriever", "document_terms", "query_terms"]


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

    def __init__(self, indexes: Indexes) -> None:
        self._indexes = indexes

    def retrieve(self, query: Query, *, limit: int, scope: Scope | None = None) -> list[Hit]:
        """Up to ``limit`` hits inside ``scope``, best first, ``scores={"bm25": s}`` (also
        their ``score``, the order). Rows outside the scope score zero before the cut, so
        a hidden chunk can neither be returned nor push a visible one out."""
        rows = self._indexes.rows()
        found = rows.keyword.search(query.content or query.text, limit=limit,
                                    mask=rows.catalog.mask(scope), rank=rows.catalog.rank)
        ids = [rows.catalog.ids[r] for r, _ in found]
        chunks = self._indexes.chunks(ids)
        return [Hit(chunk=chunks[i], score=score, scores={"bm25": score})
                for i, (_, score) in zip(ids, found, strict=True) if i in chunks]
