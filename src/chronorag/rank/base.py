"""Plug-in point of ranking, and how a ranking stage reads an earlier stage's score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

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
