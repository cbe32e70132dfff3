"""Which candidates are relevant enough to compete on time (the gated rule's gate)."""

from __future__ import annotations

from collections.abc import Sequence

from chronorag.model import Hit

_JUDGES = ("rerank", "judge")
"""The score each relevance model leaves: the cross-encoder's logit, the multilingual
judge's vote (``rank.rerank_windows``)."""


def near_best(hits: Sequence[Hit], relevance: Sequence[float], *, gate: float) -> list[bool]:
    """Which hits are relevant enough to compete on time: ``relevance`` at least ``gate``
    × the best one's.

    The cross-encoder (English pairs) and the multilingual judge (a passage in another
    script) score on scales that are not one: a sigmoid of the model's logit against
    retrieval's calibrated levels. A passage judged by the other model than the best
    passage is therefore compared with it on the scale both share, the dense retriever's
    calibrated relevance (``dense_relevance``), when both have one.
    """
    if not hits:
        return []
    top = max(range(len(hits)), key=lambda i: relevance[i])
    best = relevance[top] or 1.0
    leader = _judged_by(hits[top])
    leader_dense = hits[top].scores.get("dense_relevance", 0.0)
    out = []
    for hit, value in zip(hits, relevance, strict=True):
        model = _judged_by(hit)
        if (leader and model and model != leader and leader_dense > 0
                and "dense_relevance" in hit.scores):
            out.append(hit.scores["dense_relevance"] >= gate * leader_dense)
        else:
            out.append(value >= gate * best)
    return out


def _judged_by(hit: Hit) -> str:
    return next((name for name in _JUDGES if name in hit.scores), "")
