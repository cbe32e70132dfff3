"""Dense retrieval: embed the question, cosine search over stored chunk vectors."""

from __future__ import annotations

import threading

from chronorag.model import Hit, Query
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.index import ExactIndex
from chronorag.store.base import Store


class DenseRetriever:
    """Nearest chunks to ``query.content`` by cosine of ``embedder`` vectors.

    Vectors come from ``store.vectors(embedder.name)`` (written at ingest); the index is
    loaded on first use and reloaded when ``store.generation()`` changes.
    """

    name = "dense"

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self._store = store
        self.embedder = embedder
        self._index: ExactIndex | None = None
        self._generation: int | None = None
        self._lock = threading.Lock()

    def _relevance(self, cosine: float) -> float:
        low, high = getattr(self.embedder, "calibration", (0.0, 1.0))
        return min(max((cosine - low) / (high - low), 0.0), 1.0)

    def index(self) -> ExactIndex:
        """The current vector index, reloaded when the store's generation changed."""
        generation = self._store.generation()
        with self._lock:
            if self._index is None or generation != self._generation:
                ids, matrix = self._store.vectors(self.embedder.name)
                if len(ids) == 0:
                    matrix = matrix.reshape(0, self.embedder.dim)
                self._index = ExactIndex(ids, matrix)
                self._generation = generation
            return self._index

    def retrieve(self, query: Query, *, limit: int,
                 allowed: frozenset[str] | None = None) -> list[Hit]:
        """Up to ``limit`` hits, best first, with ``scores={"dense": cosine}`` (also their
        ``score``, the order) and ``dense_relevance``: the cosine mapped to [0, 1] by the
        embedder's calibration."""
        index = self.index()
        if allowed is not None:
            # Only the allowed rows (chunk ids) are scored, so a hidden chunk can neither
            # be returned nor push a visible one out of the top ``limit``.
            index = index.subset(allowed)
        if len(index) == 0 or limit <= 0:
            return []
        text = query.content or query.text
        vector = self.embedder.embed([text], kind="query")[0]
        found = index.search(vector, limit=limit)
        chunks = {c.id: c for c in self._store.chunks([chunk_id for chunk_id, _ in found])}
        return [
            Hit(chunk=chunks[chunk_id], score=score,
                scores={"dense": score, "dense_relevance": self._relevance(score)})
            for chunk_id, score in found
            if chunk_id in chunks  # a chunk deleted since the vectors were read
        ]
