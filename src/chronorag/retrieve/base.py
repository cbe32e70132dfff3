"""Plug-in points of retrieval: retrievers, embedders, vector indexes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from chronorag.model import Hit, Query
from chronorag.retrieve.scope import Scope


class Retriever(Protocol):
    """Finds candidate chunks for a query, best first."""

    def retrieve(self, query: Query, *, limit: int, scope: Scope | None = None) -> list[Hit]:
        """Hits inside ``scope`` (``None``: every chunk); nothing outside it is scored."""
        ...


class Embedder(Protocol):
    """Turns texts into unit vectors. ``name`` keys stored vectors."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        """float32 matrix (len(texts), dim) of L2-normalised rows; kind: passage|query."""
        ...
