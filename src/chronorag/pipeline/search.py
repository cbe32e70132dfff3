"""The ask pipeline below the facade: retrieve -> fuse -> rerank -> temporal -> validity ->
conditions."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar, cast

from chronorag.config import SearchConfig
from chronorag.errors import ConfigError
from chronorag.flags import Flag
from chronorag.model import Document, Hit, Query
from chronorag.pipeline.across import other_script_passages
from chronorag.pipeline.named import Titles, spelled_elsewhere, titled_elsewhere
from chronorag.rank.applies import apply_conditions
from chronorag.rank.base import Reranker
from chronorag.rank.late import TOKEN_ENCODERS, LateOrder, TokenEncoder
from chronorag.rank.multilingual import MultilingualJudge
from chronorag.rank.prerank import PRERANKS
from chronorag.rank.rerank_ce import unjudged
from chronorag.rank.rerankers import RERANKERS, RerankContext
from chronorag.rank.temporal_registry import TEMPORAL
from chronorag.rank.validity import ValidityIndex, apply_validity
from chronorag.retrieve.base import Embedder, Retriever
from chronorag.retrieve.dense import DenseRetriever
from chronorag.retrieve.embedders import EMBEDDERS, QueryMemo
from chronorag.retrieve.fusion import rrf_fuse
from chronorag.retrieve.in_store import (
    StoreDenseRetriever,
    StoreKeywordRetriever,
    searches_itself,
)
from chronorag.retrieve.keyword import KeywordRetriever
from chronorag.retrieve.scope import Scope, build_scope, told_window
from chronorag.retrieve.snapshot import Indexes
from chronorag.store.base import CorpusStore, PeopleStore
from chronorag.store.search import InStoreSearch
from chronorag.understand.entities import subjects_of

T = TypeVar("T")


class SearchStore(CorpusStore, PeopleStore, Protocol):
    """What a search reads: documents, their vectors and chunk rows, and who may see
    them (never the store's API keys or semantic layer)."""


@dataclass(frozen=True)
class Ranked:
    """Ranked hits of one query with the documents they come from."""

    hits: tuple[Hit, ...]
    upcoming: tuple[Hit, ...]
    documents: dict[str, Document]
    timings_ms: dict[str, float] = field(default_factory=dict)


class Components:
    """Lazily built, shared components of one store (models load once per process)."""

    def __init__(self, store: SearchStore, *, indexes: Indexes | None = None) -> None:
        self.store = store
        self.indexes = indexes or Indexes(store)
        self._embedders: dict[str, Embedder] = {}
        self._retrievers: dict[str, Retriever] = {}
        self._rerankers: dict[tuple[str, int, float | None, tuple[str, ...]], Reranker] = {}
        self._token_encoders: dict[str, TokenEncoder] = {}
        self._late: dict[str, LateOrder] = {}
        self._preranks: dict[str, Reranker] = {}
        # Per generation: documents read so far (metadata only; None: not stored) and the
        # links between documents, read once.
        self._known: tuple[int, dict[str, Document | None]] = (-1, {})
        self._links: tuple[int, dict[str, set[str]]] | None = None
        self._titles: tuple[int, Titles] | None = None

    def embedder(self, name: str) -> Embedder:
        """The named embedder, loaded once; each question is embedded once however many
        components ask for its vector."""
        if name not in self._embedders:
            self._embedders[name] = QueryMemo(EMBEDDERS.create(name))
        return self._embedders[name]

    def in_store(self, config: SearchConfig) -> bool:
        """Whether ``config`` has the retrievers search inside the store."""
        if config.index == "store" and not searches_itself(self.store):
            raise ConfigError("this store cannot search itself (index 'store' needs a "
                              "PostgreSQL store); use index 'local' or 'auto'")
        return config.index != "local" and searches_itself(self.store)

    def missing_vectors(self, config: SearchConfig) -> tuple[int, int]:
        """Chunks without a vector of ``config``'s embedder, and chunks in all."""
        name = config.embedder
        if self.in_store(config):
            chunks = self.store.chunk_summary()[0]  # one count, not every table's
            return chunks - self.store.vector_counts().get(name, 0), chunks
        # The vector index the dense retriever is about to read knows which rows lack a
        # vector: no count over the store's tables.
        present = self.indexes.vectors(name, dim=self.embedder(name).dim).present
        return int(len(present) - present.sum()), len(present)

    def retriever(self, name: str, config: SearchConfig) -> Retriever:
        factories: dict[str, Callable[[], Retriever]] = {
            "keyword": lambda: KeywordRetriever(self.indexes),
            "dense": lambda: DenseRetriever(self.indexes, self.embedder(config.embedder)),
        }
        in_store = self.in_store(config)
        if in_store:
            store = cast(InStoreSearch, self.store)
            factories = {
                "keyword": lambda: StoreKeywordRetriever(store, self.indexes),
                "dense": lambda: StoreDenseRetriever(store, self.indexes,
                                                     self.embedder(config.embedder)),
            }
        if name not in factories:
            raise ConfigError(f"unknown retriever {name!r}; choose one of: "
                              f"{', '.join(sorted(factories))}")
        key = f"{name}:{config.embedder}" if name == "dense" else name
        key += ":store" if in_store else ""
        if key not in self._retrievers:
            self._retrievers[key] = factories[name]()
        return self._retrievers[key]

    def reranker(self, config: SearchConfig) -> Reranker:
        """The reranker of ``config`` (its name, depth, stopping level and judges)."""
        key = (config.reranker, config.rerank_top, config.rerank_enough, config.judges)
        if key not in self._rerankers:
            # A second depth costs no second model: rerankers share onnxruntime sessions.
            context = RerankContext(top_n=config.rerank_top, enough=config.rerank_enough,
                                    titles=self.title, judge=self.judge(config.judges),
                                    kin=self.kin)
            self._rerankers[key] = RERANKERS.create(config.reranker, context=context)
        return self._rerankers[key]

    def late_order(self, name: str) -> LateOrder:
        """The late-interaction order of this token encoder over the stored vectors."""
        if name not in self._late:
            self._late[name] = LateOrder(encoder=self.token_encoder(name), vectors=self.store)
        return self._late[name]

    def prerank(self, name: str) -> Reranker:
        """The pre-rank of this name (``rank.prerank.PRERANKS``), one per components."""
        if name not in self._preranks:
            self._preranks[name] = PRERANKS.create(name)
        return self._preranks[name]

    def token_encoder(self, name: str) -> TokenEncoder:
        """The token encoder of this name, one per components."""
        if name not in self._token_encoders:
            self._token_encoders[name] = TOKEN_ENCODERS.create(name)
        return self._token_encoders[name]

    def judge(self, names: tuple[str, ...]) -> MultilingualJudge | None:
        """The multilingual judge of these embedders' stored vectors (None for none)."""
        if not names:
            return None
        return MultilingualJudge(embedders=[self.embedder(n) for n in names],
                                 vectors=self.store)

    def title(self, doc_id: str) -> str:
        """The title of a stored document ("" when unknown): the window rerankers' context."""
        document = self.documents_for([doc_id]).get(doc_id)
        return document.title if document else ""

    def titles(self) -> Titles:
        """Every stored document's title by id, read once per generation."""
        generation = self.store.generation()
        if self._titles is None or self._titles[0] != generation:
            self._titles = (generation, Titles.of({d.id: d.title for d in
                                                   self.store.documents(text=False)}))
        return self._titles[1]

    def documents_for(self, ids: Iterable[str]) -> dict[str, Document]:
        """The stored documents of these ids (metadata only: ranking never reads their
        text), read once per generation; ids not stored are left out."""
        generation = self.store.generation()
        if self._known[0] != generation or len(self._known[1]) > _DOCUMENTS_KEPT:
            self._known = (generation, {})
        known = self._known[1]
        wanted = list(dict.fromkeys(ids))
        missing = [i for i in wanted if i not in known]
        if missing:
            found = {d.id: d for d in self.store.documents(missing, text=False)}
            known.update((i, found.get(i)) for i in missing)
        return {i: d for i in wanted if (d := known[i]) is not None}

    def kin(self, read: set[str], unread: set[str]) -> set[str]:
        """Those of the ``unread`` documents a reranker must judge beside the ``read``,
        since the answer weighs them against the best by their own relevance: versions
        (linked by ``supersedes`` or ``derived_from``, either way, transitively); another
        owner's source (a parallel view); a source of another type (its authority prior
        may win a near-tie); and, when any of them applies to some askers only, every one
        (the rules for other askers, its variants)."""
        documents = self.documents_for(read | unread)
        if any(d.applies_to for d in documents.values()):
            return set(unread)
        linked = self.versions(read)
        seen = [documents[i] for i in read if i in documents]
        types = {d.source_type for d in seen}
        owners = {d.owner for d in seen if d.owner}

        def weighed(doc_id: str) -> bool:
            doc = documents.get(doc_id)
            return doc is None or doc_id in linked or doc.source_type not in types or \
                bool(doc.owner and owners - {doc.owner})

        return {i for i in unread if weighed(i)}

    def validity_for(self, ids: Iterable[str]) -> tuple[ValidityIndex, dict[str, Document]]:
        """The validity index of these documents and of every document linked to them
        (``supersedes``, ``derived_from``, either way, transitively): a verdict depends on
        its linked documents only, so this judges them as an index of the whole store would."""
        component = self.versions(ids)
        documents = self.documents_for(component)
        return ValidityIndex.build(documents.values()), documents

    def versions(self, ids: Iterable[str]) -> set[str]:
        """These documents and every one linked to them (``supersedes``, ``derived_from``,
        either way, transitively), from the store's links read once per generation."""
        generation = self.store.generation()
        if self._links is None or self._links[0] != generation:
            graph: dict[str, set[str]] = {}
            for src, dst, _ in self.store.links():
                graph.setdefault(src, set()).add(dst)
                graph.setdefault(dst, set()).add(src)
            self._links = (generation, graph)
        graph = self._links[1]
        seen = set(ids)
        frontier = [i for i in seen if i in graph]
        while frontier:
            node = frontier.pop()
            for other in graph[node] - seen:
                seen.add(other)
                frontier.append(other)
        return seen


_DOCUMENTS_KEPT = 50_000


# A search reads the store several times (scope, candidates, documents). When another
# process commits in between, those reads can disagree, e.g. a document made private after
# the privacy check; the search is then run again on the new state, a few times at most.
_CONSISTENT_ATTEMPTS = 3


def search(query: Query, *, config: SearchConfig, components: Components) -> Ranked:
    """Run the configured pipeline for one query on one committed state of the store.

    If the store kept changing during every attempt, what the last one found is checked
    against the store once more, so privacy never rests on a state read earlier.
    """
    store = components.store
    for _ in range(_CONSISTENT_ATTEMPTS):
        generation = store.generation()
        ranked = _search_once(query, config=config, components=components)
        if store.generation() == generation:
            return ranked
    return _visible(ranked, query, build_scope(query, store.people()), store)


def _search_once(query: Query, *, config: SearchConfig, components: Components) -> Ranked:
    timings: dict[str, float] = {}
    # Privacy, the people asked about and event time decide which chunks may be
    # retrieved at all, before any scoring: a hidden chunk must never be scored.
    scope = _timed(timings, "scope", lambda: build_scope(query, components.store.people()))
    hits = _timed(timings, "retrieve", lambda: _candidates(query, config, components, scope))
    components.documents_for(h.chunk.doc_id for h in hits)  # one read for every title
    reranker = components.reranker(config)
    # Every candidate goes in: the reranker judges its own ``top_n`` (chosen by
    # ``rerank_top``) and ranks the rest behind them, flagged ``not_reranked``.
    # Stages hand scores on by name (``semantic`` to the temporal stage, ``combined`` to
    # validity; see ``Hit``): ``score`` only records how the last stage ordered its list.
    # Every stage keeps every candidate, so one index judges validity before and after.
    validity = components.validity_for(h.chunk.doc_id for h in hits) if config.validity \
        else None
    live, past = (_split_past(hits, validity[0], query, top_n=config.rerank_top)
                  if validity is not None and config.reranker != "none" else (hits, []))
    ordered = _pool_order(query, config, components, timings)
    pool = ordered(live)
    judged = _timed(timings, "rerank", lambda: _behind(
        reranker.rerank(query, pool), past,
        read=lambda: reranker.rerank(query, ordered(hits)), min_semantic=config.min_semantic))
    scorer = TEMPORAL.create(config.temporal)
    hits = _timed(timings, "temporal", lambda: scorer.rerank(query, judged))
    upcoming: list[Hit] = []
    found = [h.chunk.doc_id for h in hits]
    if validity is not None:
        index, documents = validity
        hits, upcoming = _timed(
            timings, "validity",
            lambda: apply_validity(hits, documents=documents, index=index, as_of=query.as_of),
        )
    else:
        documents = components.documents_for(found)
    hits, upcoming = apply_conditions(hits, upcoming, documents=documents,
                                      context=query.context)
    ranked = Ranked(tuple(hits), tuple(upcoming), documents, timings)
    return _visible(ranked, query, scope, components.store)


def _visible(ranked: Ranked, query: Query, scope: Scope, store: PeopleStore) -> Ranked:
    """``ranked`` with only what the store's own privacy rule (in SQL) and the scope
    admit; its ``documents`` are those of the hits, so nothing else travels further."""
    found = sorted({h.chunk.doc_id for h in (*ranked.hits, *ranked.upcoming)})
    # The SQL rule keeps only records about the people asked about; a scope that also
    # admits public documents checks that itself (``scope.admits``).
    visible = store.visible_doc_ids(
        query.user, admin=query.admin, among=found,
        subjects=None if scope.public else subjects_of(query.understanding.entities))
    # Privacy and the people asked about are rules; the event window only gathered
    # candidates (see ``_candidates``) and removes nothing.
    admits = replace(scope, window=None).admits
    documents = {i: ranked.documents[i] for i in found if i in ranked.documents
                 and (visible is None or i in visible) and admits(ranked.documents[i])}
    return Ranked(tuple(h for h in ranked.hits if h.chunk.doc_id in documents),
                  tuple(h for h in ranked.upcoming if h.chunk.doc_id in documents),
                  documents, ranked.timings_ms)


def _candidates(query: Query, config: SearchConfig, components: Components,
                scope: Scope) -> list[Hit]:
    """Candidates by relevance, never cut by the question's time alone.

    A record's ``occurred_at`` is when it was written, not always when its event was:
    "Lost my job yesterday", said on 20 January, answers a question about the 19th. So
    the event window is no filter: what is relevant is gathered from every time, and a
    time-aware pipeline fuses in what is relevant among the records that may tell of the
    window, said in it or soon after (``told_window``; on a long timeline of alike
    records, the asked day's record may rank too low among all of them to be gathered).
    The temporal stage then judges each by the times its text states. A pipeline that
    does not judge time (``temporal="none"``, the plain baselines) sees no window at all.
    """
    unbounded = replace(scope, window=None)
    everything = _retrieve(query, config, components, unbounded)
    fused = everything
    if scope.window is not None and config.temporal != "none":
        inside = _retrieve(query, config, components,
                           replace(scope, window=told_window(scope.window)))
        # Nothing dated by occurred_at: the window changed nothing.
        if [h.chunk.id for h in inside] != [h.chunk.id for h in everything]:
            fused = rrf_fuse([inside, everything], limit=config.candidates)
    if not config.names_depth or "dense" not in config.retrievers:
        return fused
    dense = components.retriever("dense", config)

    # Both the spelled names and the titled documents may read the deep dense list: once.
    @functools.lru_cache(maxsize=1)
    def deeper(depth: int) -> Sequence[Hit]:
        return dense.retrieve(query, limit=depth, scope=unbounded)

    spelled = spelled_elsewhere(query, fused, depth=config.names_depth,
                                limit=config.candidates, deeper=deeper)
    spelled = other_script_passages(query, spelled, titles=components.titles(),
                                    deeper=deeper, depth=config.names_depth)
    return titled_elsewhere(query, spelled, titles=components.titles(), deeper=deeper,
                            depth=config.names_depth, limit=config.candidates,
                            versions=components.versions)


def _retrieve(query: Query, config: SearchConfig, components: Components,
              scope: Scope | None = None) -> list[Hit]:
    rankings = [
        components.retriever(name, config).retrieve(query, limit=config.candidates,
                                                    scope=scope)
        for name in config.retrievers
    ]
    if len(rankings) == 1:
        return list(rankings[0])
    weights = dict(config.weights)
    return rrf_fuse(rankings, limit=config.candidates,
                    weights=[weights.get(name, 1.0) for name in config.retrievers])


def _pool_order(query: Query, config: SearchConfig, components: Components,
                timings: dict[str, float]) -> Callable[[list[Hit]], list[Hit]]:
    """The stages that order the reranker's pool before it reads its first few: the
    late-interaction order (``config.late``), then the pre-rank (``config.prerank``)."""
    def ordered(hits: list[Hit]) -> list[Hit]:
        if config.late:
            late = components.late_order(config.late)
            hits = _timed(timings, "late", lambda: late.order(query.text, hits))
        if config.prerank:
            preranks = [components.prerank(name) for name in config.prerank.split("+")]
            hits = _timed(timings, "prerank", lambda: _in_turn(preranks, query, hits))
        return hits
    return ordered


def _in_turn(preranks: Sequence[Reranker], query: Query, hits: list[Hit]) -> list[Hit]:
    for prerank in preranks:
        hits = prerank.rerank(query, hits)
    return hits


def _split_past(hits: list[Hit], index: ValidityIndex, query: Query, *,
                top_n: int) -> tuple[list[Hit], list[Hit]]:
    """Candidates whose document can neither answer at ``as_of`` nor come up after it
    (superseded, expired, draft, retired: certain rules) kept out of the reranker's few
    slots when the others fill them: four chunks of last year's policy, as relevant as
    this year's, took the slots of the version in force, which then went unjudged and
    unanswered. They stay in the list, behind the judged ones and flagged
    ``not_reranked``, for the evidence."""
    past = {d for d in {h.chunk.doc_id for h in hits}
            if not (v := index.judge(d, as_of=query.as_of)).applicable
            and Flag.NOT_YET_VALID not in v.flags}
    live = [h for h in hits if h.chunk.doc_id not in past]
    if not past or len(live) < top_n:
        return hits, []
    return live, [h for h in hits if h.chunk.doc_id in past]


def _behind(judged: list[Hit], past: list[Hit], *, read: Callable[[], list[Hit]],
            min_semantic: float) -> list[Hit]:
    """``past`` after the reranker's list, unjudged, never above a hit it judged; when no
    judged hit is relevant, every candidate read as before (``read``), so the answer can
    say the only relevant sources no longer apply (``no_applicable_evidence``)."""
    if not past:
        return judged
    if all(float(h.scores.get("semantic", 0.0)) < min_semantic for h in judged):
        return read()
    floor = min((float(h.scores.get("semantic", 0.0)) for h in judged), default=0.0)
    return [*judged, *unjudged(past, floor=floor)]


def _timed(timings: dict[str, float], stage: str, fn: Callable[[], T]) -> T:
    start = time.perf_counter()
    result = fn()
    timings[stage] = (time.perf_counter() - start) * 1000.0
    return result
