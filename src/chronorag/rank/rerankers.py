"""Registry of rerankers: ``RERANKERS.create("cross-encoder")``. Nothing loads at import."""

from __future__ import annotations

from chronorag.rank.base import Reranker
from chronorag.rank.rerank_ce import CrossEncoderReranker
from chronorag.rank.rerank_none import NoReranker
from chronorag.rank.rerank_windows import WindowReranker
from chronorag.registry import Registry

RERANKERS: Registry[Reranker] = Registry("reranker")
RERANKERS.add("cross-encoder", CrossEncoderReranker)
RERANKERS.add("none", NoReranker)
RERANKERS.add("windows", WindowReranker)
