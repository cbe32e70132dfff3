"""The MRAG recipe (arXiv:2412.15540), reimplemented from its description as a baseline.

Years are found by a regex; a sentence's temporal score follows a linear curve from 0.6
(50 years away) to 1.0 (at the constraint's boundary) on the constraint's side, and 0.5
outside it or with no year. Sentence score = semantic × temporal; a passage ranks by its
best sentence. The semantic score of a sentence is its passage's reranker score: the
paper reranks sentences with its own model, which we do not have on a CPU budget.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chronorag.model import Hit, Query, Relation
from chronorag.rank.base import named_score
from chronorag.rank.rerank_none import with_scores

_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


def year_score(year: int, *, relation: Relation, lo: int | None, hi: int | None) -> float:
    """MRAG's temporal curve for one year against a constraint's year bounds."""
    if relation in (Relation.BEFORE, Relation.UNTIL) and hi is not None:
        return _curve(hi - year) if year <= hi else 0.5
    if relation in (Relation.AFTER, Relation.SINCE) and lo is not None:
        return _curve(year - lo) if year >= lo else 0.5
    if lo is not None and hi is not None:
        return 1.0 if lo <= year <= hi else 0.5
    return 0.5


def _curve(distance: int) -> float:
    return max(0.6, 1.0 - 0.4 * min(distance, 50) / 50.0)


class MragTemporal:
    """Sentence score = semantic × temporal; passages by their best sentence.

    Reads ``scores["semantic"]``; writes ``temporal`` and ``combined`` (semantic ×
    temporal), which is also ``score``, the order. Without a time constraint the order
    and ``score`` stay and ``combined`` is ``semantic``.
    """

    name = "mrag"

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        constraint = query.constraint
        interval = constraint.interval
        if interval is None or constraint.relation is Relation.NONE:
            return [with_scores(h, temporal=1.0, combined=named_score(h, "semantic"))
                    for h in hits]
        lo = interval.start.year if interval.start else None
        hi = (interval.end.year - (1 if interval.end.month == 1 and interval.end.day == 1
                                   else 0)) if interval.end else None
        rescored = []
        for hit in hits:
            semantic = named_score(hit, "semantic")
            best, best_index = 0.5, None
            for sentence in hit.chunk.sentences:
                years = [int(y) for y in _YEAR.findall(sentence.text)]
                score = max((year_score(y, relation=constraint.relation, lo=lo, hi=hi)
                             for y in years), default=0.5)
                if best_index is None or score > best:
                    best, best_index = score, sentence.index
            rescored.append(replace(
                with_scores(hit, order=semantic * best, temporal=best, combined=semantic * best),
                best_sentence=best_index))
        rescored.sort(key=lambda h: h.score, reverse=True)
        return rescored
