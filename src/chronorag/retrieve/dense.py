"""Dense retrieval: embed the question, cosine search over stored chunk vectors."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from chronorag.model import Hit, Query
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.index import ExactIndex
from chronorag.retrieve.tokenize import is_mostly_cjk
from chronorag.store.base import Store

Calibration = tuple[float, float]
"""Cosine range (low, high) mapped linearly to relevance [0, 1]."""


def relevance(cosine: float, calibration: Calibration) -> float:
    """``cosine`` mapped to [0, 1] by ``calibration`` (clipped at both ends)."""
    low, high = calibration
    value = (cosine - low) / (high - low)
    return min(max(value, 0.0), 1.0) if value == value else 0.0  # NaN cosine: no relevance


def pair_calibration(embedder: object, *, question_cjk: bool,
                     passage_cjk: bool) -> Calibration:
    """The embedder's cosine range for a (question script, passage script) pair.

    A multilingual embedder does not place every language pair on one scale (e5 cosines of
    two unrelated Chinese texts sit above those of two unrelated English ones), so one
    range would let an unrelated Chinese page pass for relevant. ``pair_calibrations``
    (keyed by ``(question_cjk, passage_cjk)``) overrides ``calibration`` per pair.
    """
    base: Calibration = getattr(embedder, "calibration", (0.0, 1.0))
    pairs: Mapping[tuple[bool, bool], Calibration] = getattr(
        embedder, "pair_calibrations", None) or {}
    return pairs.get((question_cjk, passage_cjk), base)


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
        # Whether a chunk is mostly CJK, by id (its calibration depends on it); counting a
        # hundred candidates' letters on every question would cost ~15 ms. Cleared with
        # the index, since a re-ingested document may keep its chunk ids.
        self._cjk: dict[str, bool] = {}

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
                self._cjk = {}
            return self._index

    def retrieve(self, query: Query, *, limit: int,
                 allowed: frozenset[str] | None = None) -> list[Hit]:
        """Up to ``limit`` hits, best first, with ``scores={"dense": cosine}`` (also their
        ``score``, the order) and ``dense_relevance``: the cosine mapped to [0, 1] by the
        embedder's calibration for the scripts of the question and the passage."""
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
        # The script the reranker goes by too: the whole question, not just its content words.
        question_cjk = is_mostly_cjk(query.text)
        hits = []
        for chunk_id, score in found:
            if chunk_id not in chunks:  # a chunk deleted since the vectors were read
                continue
            chunk = chunks[chunk_id]
            if chunk_id not in self._cjk:
                self._cjk[chunk_id] = is_mostly_cjk(chunk.text)
            calibration = pair_calibration(self.embedder, question_cjk=question_cjk,
                                           passage_cjk=self._cjk[chunk_id])
            hits.append(Hit(chunk=chunk, score=score,
                            scores={"dense": score,
                                    "dense_relevance": relevance(score, calibration)}))
        return hits
