"""Reciprocal rank fusion (Cormack et al., 2009) of several rankings of chunks."""

from __future__ import annotations

import math
from collections.abc import Sequence

from chronorag.model import Hit


def rrf_fuse(
    rankings: Sequence[Sequence[Hit]], *, k: int = 60, limit: int,
    weights: Sequence[float] | None = None,
) -> list[Hit]:
    """Merge rankings: each hit earns ``w / (k + rank)`` (rank from 1) per ranking it is in.

    ``weights`` (one per ranking, default all 1.0) lets a stronger retriever count more:
    on TimeQA, bm25 at weight 1 pulls multilingual-e5 results down (see
    benchmarks/results/retrieval.md).

    Hits are identified by chunk id. The fused hit keeps every score of its inputs
    (``bm25``, ``dense``, ...) and adds ``rrf``, which is also its ``score`` (the order).
    The result does not depend on the order of ``rankings``: sums use ``math.fsum``
    (exact, so order free) and ties are broken by chunk id.
    """
    if k < 0:
        raise ValueError(f"rrf k must be >= 0, got {k}")
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights given for {len(rankings)} rankings")
    contributions: dict[str, list[float]] = {}
    members: dict[str, list[Hit]] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        seen: set[str] = set()
        for rank, hit in enumerate(ranking, start=1):
            chunk_id = hit.chunk.id
            if chunk_id in seen:  # a ranking listing a chunk twice counts it once
                continue
            seen.add(chunk_id)
            contributions.setdefault(chunk_id, []).append(weight / (k + rank))
            members.setdefault(chunk_id, []).append(hit)
    fused = {chunk_id: math.fsum(parts) for chunk_id, parts in contributions.items()}
    order = sorted(fused, key=lambda chunk_id: (-fused[chunk_id], chunk_id))[: max(limit, 0)]
    return [_merge(members[chunk_id], fused[chunk_id]) for chunk_id in order]


def _merge(hits: Sequence[Hit], rrf: float) -> Hit:
    """One hit from the copies of a chunk found by several retrievers."""
    scores: dict[str, float] = {}
    # Sorting by score names makes the merge independent of the rankings' order when two
    # retrievers report the same score name.
    for hit in sorted(hits, key=lambda h: sorted(h.scores.items())):
        for name, value in hit.scores.items():
            scores.setdefault(name, value)
    scores["rrf"] = rrf
    best = [h.best_sentence for h in hits if h.best_sentence is not None]
    return Hit(
        chunk=hits[0].chunk,
        score=rrf,
        scores=scores,
        best_sentence=min(best) if best else None,
        flags=tuple(sorted({flag for h in hits for flag in h.flags})),
        applicable=all(h.applicable for h in hits),
    )
