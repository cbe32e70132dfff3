"""Plug-in point of ranking, and how a ranking stage reads an earlier stage's score."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from chronorag.errors import ConfigError
from chronorag.model import Hit, Query

# Which kind of component writes each score a later stage depends on (names: ``Hit``).
_WRITERS = {"semantic": "reranker", "temporal": "temporal scorer",
            "combined": "temporal scorer"}


class Reranker(Protocol):
    """Reorders hits; returns new Hit objects with its score added to ``scores``.

    A reranker sets ``scores["semantic"]`` on every hit; a temporal scorer (registered in
    ``TEMPORAL``, same protocol) sets ``scores["temporal"]`` and ``scores["combined"]``.
    """

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]: ...


def named_score(hit: Hit, name: str) -> float:
    """``hit.scores[name]``; when missing, the error names the component that owes it."""
    try:
        return hit.scores[name]
    except KeyError:
        writer = _WRITERS.get(name, "earlier stage")
        raise ConfigError(
            f"chunk {hit.chunk.id} has no {name!r} score: the {writer} before this stage "
            f"must set scores[{name!r}] (see chronorag.model.Hit); use a registered one or "
            "fix the plug-in") from None


def rarity(saying: int, of: int) -> float:
    """How much a word tells apart ``of`` texts when ``saying`` of them say it:
    ``log(1 + of / (1 + saying))``, an inverse document frequency that stays positive
    when every text says it (the subject they are all about weighs least, not nothing)."""
    return math.log(1.0 + of / (1.0 + saying))


def zscores(values: Sequence[float]) -> np.ndarray | None:
    """``values`` as z-scores, for a signal that votes beside others in units of its own
    spread; None when they do not differ (a spread of rounding error only): such a signal
    says no value more than another."""
    array = np.asarray(values, dtype=float)
    centre, spread = float(array.mean()), float(array.std())
    if spread <= 1e-9 * max(1.0, abs(centre)):
        return None
    return (array - centre) / spread
