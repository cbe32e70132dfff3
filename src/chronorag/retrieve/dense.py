"""Dense retrieval: embed the question, cosine search over the stored chunk vectors."""

from __future__ import annotations

import threading

import numpy as np

from chronorag.model import Hit, Query
from chronorag.retrieve.base import Calibration, Embedder
from chronorag.retrieve.scope import Scope
from chronorag.retrieve.snapshot import Indexes
from chronorag.retrieve.tokenize import is_mostly_cjk
from chronorag.store.search import Found


def relevance(cosine: float, calibration: Calibration) -> float:
    """``cosine`` mapped to [0, 1] by ``calibration`` (clipped at both ends)."""
    low, high = calibration
    value = (cosine - low) / (high - low)
    return min(max(value, 0.0), 1.0) if value == value else 0.0  # NaN cosine: no relevance


class DenseRetriever:
    """Nearest chunks to ``query.content`` by cosine of ``embedder`` vectors.

    Vectors come from the store's persistent index (``retrieve.snapshot``): the stored
    vectors, memory-mapped, with an approximate graph on large stores.
    """

    name = "dense"

    def __init__(self, indexes: Indexes, embedder: Embedder) -> None:
        self._indexes = indexes
        self.embedder = embedder
        # Whether a chunk is mostly CJK, by id (its calibration depends on it); counting a
        # hundred candidates' words on every question would cost ~3 ms. Cleared with
        # each generation, since a re-ingested document may keep its chunk ids.
        self._cjk: tuple[int, dict[str, bool]] = (-1, {})
        self._lock = threading.Lock()

    def retrieve(self, query: Query, *, limit: int, scope: Scope | None = None) -> list[Hit]:
        """Up to ``limit`` hits inside ``scope``, best first, with ``scores={"dense":
        cosine}`` (also their ``score``, the order) and ``dense_relevance``: the cosine
        mapped to [0, 1] by the embedder's calibration for the scripts of the question and
        the passage. Only rows inside the scope are scored."""
        found = self._nearest(query, limit=limit, scope=scope)
        if not found:
            return []
        return self._hits(query, found)

    def _nearest(self, query: Query, *, limit: int, scope: Scope | None) -> Found:
        """``(chunk id, cosine)`` of the nearest chunks inside ``scope``, best first."""
        rows = self._indexes.rows()
        index = self._indexes.vectors(self.embedder.name, dim=self.embedder.dim, rows=rows)
        mask = rows.catalog.mask(scope)
        if limit <= 0 or not index.present.any() or (mask is not None and not mask.any()):
            return []
        found = index.search(self._question(query), limit=limit, mask=mask,
                             rank=rows.catalog.rank)
        return [(rows.catalog.ids[r], score) for r, score in found]

    def _question(self, query: Query) -> np.ndarray:
        return self.embedder.embed([query.content or query.text], kind="query")[0]

    def _hits(self, query: Query, found: Found) -> list[Hit]:
        chunks = self._indexes.chunks([i for i, _ in found])
        # The script the reranker goes by too: the whole question, not just its content words.
        question_cjk = is_mostly_cjk(query.text)
        cjk = self._scripts(self._indexes.store.generation())
        hits = []
        for chunk_id, score in found:
            if chunk_id not in chunks:  # a chunk deleted since the index was read
                continue
            chunk = chunks[chunk_id]
            if chunk_id not in cjk:
                cjk[chunk_id] = is_mostly_cjk(chunk.text)
            calibration = self.embedder.scale.pair(question_cjk=question_cjk,
                                                   passage_cjk=cjk[chunk_id])
            hits.append(Hit(chunk=chunk, score=score,
                            scores={"dense": score,
                                    "dense_relevance": relevance(score, calibration)}))
        return hits

    def _scripts(self, generation: int) -> dict[str, bool]:
        with self._lock:
            if self._cjk[0] != generation:
                self._cjk = (generation, {})
            return self._cjk[1]
