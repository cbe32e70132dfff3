"""The ask pipeline below the facade: retrieve -> fuse -> rerank -> temporal -> validity."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from chronorag.config import SearchConfig
from chronorag.errors import ConfigError
from chronorag.model import Document, Hit, Query
from chronorag.rank.base import Reranker
from chronorag.rank.multilingual import MultilingualJudge
from chronorag.rank.rerankers import RERANKERS
from chronorag.rank.temporal_registry import TEMPORAL
from chronorag.rank.validity import ValidityIndex, apply_validity
from chronorag.retrieve.base import Embedder, Retriever
from chronorag.retrieve.dense import DenseRetriever
from chronorag.retrieve.embedders import EMBEDDERS, QueryMemo
from chronorag.retrieve.fusion import rrf_fuse
from chronorag.retrieve.keyword import KeywordRetriever
from chronorag.retrieve.scope import build_scope
from chronorag.store.base import Store

T = TypeVar("T")


@dataclass(frozen=True)
class Ranked:
    """Ranked hits of one query with the documents they come from."""

    hits: tuple[Hit, ...]
    upcoming: tuple[Hit, ...]
    documents: dict[str, Document]
    timings_ms: dict[str, float] = field(default_factory=dict)


class Components:
    """Lazily built, shared components of one store (models load once per process)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._embedders: dict[str, Embedder] = {}
        self._retrievers: dict[str, Retriever] = {}
        self._rerankers: dict[str, Reranker] = {}
        self._validity: tuple[int, ValidityIndex] | None = None
        self._documents: tuple[int, dict[str, Document]] | None = None

    def embedder(self, name: str) -> Embedder:
        """The named embedder, loaded once; each question is embedded once however many
        components ask for its vector."""
        if name not in self._embedders:
            self._embedders[name] = QueryMemo(EMBEDDERS.create(name))
        return self._embedders[name]

    def retriever(self, name: str, config: SearchConfig) -> Retriever:
        factories: dict[str, Callable[[], Retriever]] = {
            "keyword": lambda: KeywordRetriever(self.store),
            "dense": lambda: DenseRetriever(self.store, self.embedder(config.embedder)),
        }
        if name not in factories:
            raise ConfigError(f"unknown retriever {name!r}; choose one of: "
                              f"{', '.join(sorted(factories))}")
        key = f"{name}:{config.embedder}" if name == "dense" else name
        if key not in self._retrievers:
            self._retrievers[key] = factories[name]()
        return self._retrievers[key]

    def reranker(self, name: str, *, top_n: int, judges: tuple[str, ...] = ()) -> Reranker:
        key = f"{name}:{top_n}:{','.join(judges)}"
        if key not in self._rerankers:
            # A second depth costs no second model: rerankers share onnxruntime sessions.
            options: dict[str, object] = {} if name == "none" else {"top_n": top_n}
            if name == "windows":
                options["titles"] = self.title
                options["judge"] = self.judge(judges)
            self._rerankers[key] = RERANKERS.create(name, **options)
        return self._rerankers[key]

    def judge(self, names: tuple[str, ...]) -> MultilingualJudge | None:
        """The multilingual judge of these embedders' stored vectors (None for none)."""
        if not names:
            return None
        return MultilingualJudge(embedders=[self.embedder(n) for n in names],
                                 vectors=self.store)

    def title(self, doc_id: str) -> str:
        """The title of a stored document ("" when unknown): the window rerankers' context."""
        document = self.documents().get(doc_id)
        return document.title if document else ""

    def documents(self) -> dict[str, Document]:
        generation = self.store.generation()
        if self._documents is None or self._documents[0] != generation:
            self._documents = (generation, {d.id: d for d in self.store.documents()})
        return self._documents[1]

    def validity(self) -> ValidityIndex:
        generation = self.store.generation()
        if self._validity is None or self._validity[0] != generation:
            self._validity = (generation, ValidityIndex.build(self.documents().values()))
        return self._validity[1]


# A search reads the store several times (scope, candidates, documents). When another
# process commits in between, those reads can disagree, e.g. a document made private after
# the privacy check; the search is then run again on the new state, a few times at most.
_CONSISTENT_ATTEMPTS = 3


def search(query: Query, *, config: SearchConfig, components: Components) -> Ranked:
    """Run the configured pipeline for one query on one committed state of the store.

    If the store kept changing during every attempt, hits outside what the asker may see
    at the end are dropped, so privacy never rests on a state read earlier.
    """
    store = components.store
    for _ in range(_CONSISTENT_ATTEMPTS):
        generation = store.generation()
        ranked = _search_once(query, config=config, components=components)
        if store.generation() == generation:
            return ranked
    visible = build_scope(store, query, components.documents()).doc_ids
    if visible is None:
        return ranked
    return Ranked(tuple(h for h in ranked.hits if h.chunk.doc_id in visible),
                  tuple(h for h in ranked.upcoming if h.chunk.doc_id in visible),
                  {i: d for i, d in ranked.documents.items() if i in visible},
                  ranked.timings_ms)


def _search_once(query: Query, *, config: SearchConfig, components: Components) -> Ranked:
    timings: dict[str, float] = {}
    # Privacy, the people asked about and event time decide which chunks may be
    # retrieved at all, before any scoring: a hidden chunk must never be scored.
    documents = components.documents()
    scope = _timed(timings, "scope", lambda: build_scope(components.store, query, documents))
    hits = _timed(timings, "retrieve",
                  lambda: _retrieve(query, config, components, scope.chunk_ids))
    reranker = components.reranker(config.reranker, top_n=config.rerank_top,
                                   judges=config.judges)
    # Every candidate goes in: the reranker judges its own ``top_n`` (chosen by
    # ``rerank_top``) and ranks the rest behind them, flagged ``not_reranked``.
    # Stages hand scores on by name (``semantic`` to the temporal stage, ``combined`` to
    # validity; see ``Hit``): ``score`` only records how the last stage ordered its list.
    judged = _timed(timings, "rerank", lambda: reranker.rerank(query, hits))
    scorer = TEMPORAL.create(config.temporal)
    hits = _timed(timings, "temporal", lambda: scorer.rerank(query, judged))
    upcoming: list[Hit] = []
    if config.validity:
        index = components.validity()
        hits, upcoming = _timed(
            timings, "validity",
            lambda: apply_validity(hits, documents=documents, index=index, as_of=query.as_of),
        )
    if scope.doc_ids is not None:  # nothing outside the scope travels further
        documents = {i: documents[i] for i in scope.doc_ids if i in documents}
    return Ranked(tuple(hits), tuple(upcoming), documents, timings)


def _retrieve(query: Query, config: SearchConfig, components: Components,
              allowed: frozenset[str] | None = None) -> list[Hit]:
    rankings = [
        components.retriever(name, config).retrieve(query, limit=config.candidates,
                                                    allowed=allowed)
        for name in config.retrievers
    ]
    if len(rankings) == 1:
        return list(rankings[0])
    weights = dict(config.weights)
    return rrf_fuse(rankings, limit=config.candidates,
                    weights=[weights.get(name, 1.0) for name in config.retrievers])


def _timed(timings: dict[str, float], stage: str, fn: Callable[[], T]) -> T:
    start = time.perf_counter()
    result = fn()
    timings[stage] = (time.perf_counter() - start) * 1000.0
    return result
