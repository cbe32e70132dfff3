"""Identity reranker and the fallback "semantic" score used when no model can judge."""

from __future__ import annotations

from collections.abc import Sequence

from chronorag.flags import Flag
from chronorag.model import Hit, Query


def fallback_semantics(hits: Sequence[Hit]) -> list[float]:
    """A [0, 1] relevance per hit from retrieval scores alone.

    The relevance a second stage dealt out over the pool in its own order
    (``late_relevance``, ``rank.late``) when the hit has one; otherwise the calibrated
    dense relevance (calibrated by the dense retriever for the scripts of
    question and passage, so an unrelated Chinese page stays as far below the answer
    stage's floor as an unrelated English one; else the dense cosine, negative cosines
    clipped to 0) when the hit has one; otherwise the rrf score divided by the best rrf
    among ``hits``; otherwise the bm25 score clipped to [0, 1]. A hit from a retriever
    none of these names come from has only the value its ranking is ordered by,
    ``score``, clipped.
    """
    top_rrf = max((h.scores["rrf"] for h in hits if "rrf" in h.scores), default=0.0)
    values = []
    for hit in hits:
        if "late_relevance" in hit.scores:
            value = hit.scores["late_relevance"]
        elif "dense_relevance" in hit.scores:
            value = hit.scores["dense_relevance"]
        elif "dense" in hit.scores:
            value = hit.scores["dense"]
        elif "rrf" in hit.scores:
            value = hit.scores["rrf"] / top_rrf if top_rrf > 0 else hit.scores["rrf"]
        elif "bm25" in hit.scores:
            value = hit.scores["bm25"]
        else:
            value = hit.score
        values.append(min(max(float(value), 0.0), 1.0))
    return values


def with_scores(hit: Hit, *, flags: Sequence[Flag] = (), order: float | None = None,
                **scores: float) -> Hit:
    """A copy of ``hit`` with ``scores`` added and ``flags`` appended (no duplicates).

    ``order`` becomes the copy's ``score``, the value the caller's list is ordered by;
    without it the hit keeps its ``score`` (its place comes from the previous order).
    """
    merged_flags = tuple(dict.fromkeys((*hit.flags, *flags)))
    return Hit(
        chunk=hit.chunk,
        score=hit.score if order is None else order,
        scores={**hit.scores, **scores},
        best_sentence=hit.best_sentence,
        flags=merged_flags,
        applicable=hit.applicable,
    )


class NoReranker:
    """Keeps the retrieval order (and so ``score``); sets ``scores["semantic"]`` from
    retrieval scores."""

    name = "none"

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        """The same hits in the same order, each with a ``semantic`` score added."""
        del query  # the order is the retrievers'; the question is not needed
        return [
            with_scores(hit, semantic=value)
            for hit, value in zip(hits, fallback_semantics(hits), strict=True)
        ]
