"""Stores that search their own chunks, so an app server needs no local index.

A store implementing :class:`InStoreSearch` answers nearest-vector and BM25 queries
inside its database, with the query's :class:`~chronorag.store.scope.Scope` applied in
the same statement (a chunk outside it is never scored). Terms are the retrieval layer's
business (its tokenizer, jieba for Chinese): the store only keeps and counts them, and
reports which chunks have none yet (:meth:`InStoreSearch.chunks_without_terms`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from chronorag.store.scope import Scope

Found = list[tuple[str, float]]
"""``(chunk id, score)`` pairs, best first; equal scores in (document id, index) order."""


@runtime_checkable
class InStoreSearch(Protocol):
    """Search inside the store: nearest vectors and BM25 over stored terms."""

    def search_vectors(self, embedder: str, vector: np.ndarray, *, limit: int,
                       scope: Scope | None = None, exact: bool | None = None) -> Found:
        """Chunks nearest ``vector`` by cosine (the score) among ``embedder``'s vectors.

        ``exact`` compares every vector; ``False`` uses the approximate index; ``None``
        lets the store choose by the number of vectors.
        """
        ...

    def search_terms(self, terms: Mapping[str, int], *, limit: int,
                     scope: Scope | None = None, k1: float = 1.5, b: float = 0.75) -> Found:
        """Chunks with a positive BM25 (Lucene variant) score for ``terms`` (each with
        its count in the question); idf and mean length are those of every chunk with
        terms, whatever the scope."""
        ...

    def chunks_without_terms(self, *, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` ``(seq, text)`` of chunks whose terms are not stored yet."""
        ...

    def build_indexes(self) -> list[str]:
        """Build what search needs that is cheaper made at once than row by row (an
        approximate vector index once exact search grows slow); the embedders it built
        indexes for. Cheap when there is nothing to build."""
        ...

    def add_terms(self, rows: Sequence[tuple[int, Sequence[str]]]) -> int:
        """Store each chunk's terms (by seq, repeats counted) unless it already has them
        or is gone; the number of chunks that got terms."""
        ...
