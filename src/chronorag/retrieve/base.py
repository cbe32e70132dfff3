"""Plug-in points of retrieval: retrievers, embedders, vector indexes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

import numpy as np

from chronorag.model import Hit, Query
from chronorag.retrieve.scope import Scope


class Retriever(Protocol):
    """Finds candidate chunks for a query, best first."""

    def retrieve(self, query: Query, *, limit: int, scope: Scope | None = None) -> list[Hit]:
        """Hits inside ``scope`` (``None``: every chunk); nothing outside it is scored."""
        ...


Calibration = tuple[float, float]
"""Cosine range (low, high) mapped linearly to relevance [0, 1]."""


@dataclass(frozen=True)
class CosineScale:
    """How an embedder's cosines read as relevance, part of its declared interface: the
    retriever maps cosines to relevance and a judge weighs votes with it, so an embedder
    that left it out would abstain wrongly, silently.

    ``calibration``: the cosine range mapped to relevance [0, 1]. ``pairs``: the range of
    a (question mostly CJK, passage mostly CJK) pair where a multilingual model places it
    elsewhere (else ``calibration``). ``spread``: the standard deviation of
    question-passage cosines over retrieval candidates, the unit a judge divides this
    model's cosines by (else a fifth of the range: e5's range is about five spreads wide).
    """

    calibration: Calibration = (0.0, 1.0)
    pairs: Mapping[tuple[bool, bool], Calibration] = field(
        default_factory=lambda: MappingProxyType({}))
    spread: float | None = None

    def pair(self, *, question_cjk: bool, passage_cjk: bool) -> Calibration:
        """The cosine range of this (question script, passage script) pair."""
        return self.pairs.get((question_cjk, passage_cjk), self.calibration)

    def unit(self) -> float:
        """The cosine difference one vote of a judge counts as."""
        if self.spread:
            return float(self.spread)
        low, high = self.calibration
        return (high - low) / 5.0


class Embedder(Protocol):
    """Turns texts into unit vectors. ``name`` keys stored vectors; ``scale`` says how its
    cosines read as relevance (``CosineScale()``: the identity range, no pair ranges)."""

    name: str
    dim: int
    scale: CosineScale

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        """float32 matrix (len(texts), dim) of L2-normalised rows; kind: passage|query."""
        ...
