"""Plug-in point of ranking."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from chronorag.model import Hit, Query


class Reranker(Protocol):
    """Reorders hits; returns new Hit objects with its score added to ``scores``."""

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]: ...
