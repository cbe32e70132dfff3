"""The semantic layer as an engine component (registered as ``"semantic"``).

One instance lives as long as its engine: it keeps the layer's index and term matcher for
the current layer generation, so a question costs no rebuild, and a store without a layer
costs one counter read per question.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import tzinfo
from os import PathLike
from typing import Any

from chronorag.model import Query
from chronorag.retrieve.base import Embedder
from chronorag.semantic.context import SemanticContext
from chronorag.semantic.index import LayerIndex, load_index
from chronorag.semantic.ingest import LayerClaim, claim_layers
from chronorag.semantic.model import SemanticOptions
from chronorag.semantic.pipeline import SemanticSearcher
from chronorag.semantic.terms import TermMatcher
from chronorag.store.base import LayerStore

_ASK_ENGINES = ("terms", "examples")
"""What ``ask`` runs: exact terms and approved examples (the graph follows from them)."""


class SemanticLayer:
    """Binds business terms, approved examples and join paths for ``ask``; takes layer
    files (.yaml/.yml/.json) out of an ingest."""

    name = "semantic"

    def __init__(self, *, store: LayerStore, embedder: Callable[[], Embedder]) -> None:
        self._store = store
        self._embedder = embedder
        self._lock = threading.Lock()
        self._snapshot: tuple[tuple[int, str], LayerIndex, TermMatcher] | None = None

    def searcher(self, *, options: SemanticOptions | None = None,
                 parallel: bool = True) -> SemanticSearcher | None:
        """The engines over the current layer; None when the store holds no layer."""
        generation = self._store.layer_generation()
        if generation == 0:
            return None
        embedder = self._embedder()
        stamp = (generation, embedder.name)
        with self._lock:
            if self._snapshot is None or self._snapshot[0] != stamp:
                index = load_index(self._store, embedder=embedder.name)
                self._snapshot = (stamp, index, TermMatcher(index))
            _, index, matcher = self._snapshot
        if not index.assets:
            return None
        return SemanticSearcher(self._store, embedder, options=options, parallel=parallel,
                                index=index, matcher=matcher)

    def extend(self, query: Query) -> dict[str, Any] | None:
        """Bindings, join paths and approved examples for ``query``; None without a layer."""
        searcher = self.searcher()
        if searcher is None:
            return None
        found = searcher.retrieve(query.text, content=query.content, as_of=query.as_of,
                                  engines=_ASK_ENGINES, corrective=False)
        return SemanticContext(found.bindings, found.join_paths, found.examples).to_json()

    def claim(self, paths: Sequence[str | PathLike[str]], *, tz: tzinfo) -> LayerClaim:
        """The layer files among ``paths``, validated against the stored layer."""
        return claim_layers(self._store, paths, tz=tz)
