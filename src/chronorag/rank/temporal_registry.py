"""Temporal scorers, registered by name like every other component."""

from __future__ import annotations

from collections.abc import Sequence

from chronorag.model import Hit, Query
from chronorag.rank.base import Reranker, named_score
from chronorag.rank.mrag import MragTemporal
from chronorag.rank.rerank_none import with_scores
from chronorag.rank.temporal import ChronoTemporal
from chronorag.registry import Registry

TEMPORAL: Registry[Reranker] = Registry("temporal scorer")


class NoTemporal:
    """Keeps the semantic order and ``score``: time plays no part (``temporal`` 1.0,
    ``combined`` = ``semantic``)."""

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        return [with_scores(h, temporal=1.0, combined=named_score(h, "semantic"))
                for h in hits]


TEMPORAL.add("none", NoTemporal)
TEMPORAL.add("mrag", MragTemporal)
TEMPORAL.add("chronorag", ChronoTemporal)
TEMPORAL.add("product", lambda: ChronoTemporal(mode="product"))
