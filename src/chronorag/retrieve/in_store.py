"""Retrievers that search inside the store, for stores that can (PostgreSQL).

An app server then keeps no index of its own: a new process answers its first question
without reading every chunk, and every process sees each commit at once. The scores are
those of the in-memory retrievers (cosine; BM25 as ``bm25s`` computes it) and so is the
tie order; the scope is applied inside the store's query.

The store keeps terms but does not make them: chunks get their terms from this layer's
tokenizer (:func:`index_terms`) after they are committed, which ingest does after every
batch. Until then a chunk is found by its vector only.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

import numpy as np

from chronorag.errors import StoreError
from chronorag.model import Hit, Query
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.dense import DenseRetriever
from chronorag.retrieve.scope import Scope
from chronorag.retrieve.snapshot import Indexes
from chronorag.retrieve.terms import document_terms, query_terms
from chronorag.store.search import Found, InStoreSearch

log = logging.getLogger(__name__)

_TERMS_BATCH = 2000


def searches_itself(store: object) -> bool:
    """Whether ``store`` searches its own chunks (see :class:`InStoreSearch`)."""
    return isinstance(store, InStoreSearch)


def complete_search(store: InStoreSearch) -> int:
    """Make every chunk searchable: terms for those without (:func:`index_terms`), and
    the store's vector indexes once they pay (``build_indexes``); the chunks indexed."""
    done = index_terms(store)
    for embedder in store.build_indexes():
        log.info("built the approximate vector index of %s", embedder)
    return done


def index_terms(store: InStoreSearch, *, batch: int = _TERMS_BATCH) -> int:
    """Give every chunk without stored terms its terms; the number of chunks given them.

    Each batch is one transaction; another process doing the same at once is harmless
    (a chunk that already has terms keeps them).
    """
    done = 0
    previous: list[int] = []
    while True:
        todo = store.chunks_without_terms(limit=batch)
        seqs = [seq for seq, _ in todo]
        if not todo or seqs == previous:
            return done
        done += store.add_terms([(seq, document_terms(text)) for seq, text in todo])
        previous = seqs


class StoreKeywordRetriever:
    """BM25 over the terms the store keeps; matches ``query.content`` as
    :class:`~chronorag.retrieve.keyword.KeywordRetriever` does."""

    name = "bm25"

    def __init__(self, store: InStoreSearch, indexes: Indexes) -> None:
        self._store = store
        self._indexes = indexes  # for its cache of chunks by id only
        self._complete_at = -1
        self._lock = threading.Lock()

    def retrieve(self, query: Query, *, limit: int, scope: Scope | None = None) -> list[Hit]:
        """Up to ``limit`` hits inside ``scope``, best first, ``scores={"bm25": s}``."""
        terms = Counter(query_terms(query.content or query.text))
        if limit <= 0 or not terms:
            return []
        self._complete()
        found = self._store.search_terms(terms, limit=limit, scope=scope)
        chunks = self._indexes.chunks([i for i, _ in found])
        return [Hit(chunk=chunks[i], score=score, scores={"bm25": score})
                for i, score in found if i in chunks]


    def _complete(self) -> None:
        """Index the terms of chunks stored without them (copied in by ``migrate``, or
        an ingest cut off between a batch and its terms), once per generation: keyword
        search must not silently miss a chunk. A store that refuses writes (a read
        replica) keeps searching what has terms, with a warning."""
        generation = self._indexes.store.generation()
        with self._lock:
            if self._complete_at == generation:
                return
            try:
                added = index_terms(self._store)
            except StoreError as exc:
                log.warning("keyword search misses chunks stored without search terms "
                            "until a writer indexes them (chronorag ingest does): %s", exc)
            else:
                if added:
                    log.info("indexed the search terms of %d chunks", added)
            self._complete_at = generation


class StoreDenseRetriever(DenseRetriever):
    """Nearest chunks by cosine, searched by the store (exactly up to its threshold,
    from its HNSW index above); hits as :class:`DenseRetriever` makes them."""

    def __init__(self, store: InStoreSearch, indexes: Indexes, embedder: Embedder) -> None:
        super().__init__(indexes, embedder)
        self._store = store

    def _nearest(self, query: Query, *, limit: int, scope: Scope | None) -> Found:
        if limit <= 0:
            return []
        vector = np.asarray(self._question(query), dtype=np.float32)
        return self._store.search_vectors(self.embedder.name, vector, limit=limit,
                                          scope=scope)
