"""Semantic retrieval: R, V, keyword and D in parallel, then G; grading and one widening.

Threads, not processes: the dense and example engines spend their time in numpy/ONNX
(which release the GIL); the term and keyword engines are mostly Python and overlap little.
``benchmarks/semantic_engines.py`` measures what the parallel stage actually saves.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from chronorag.retrieve.base import Embedder
from chronorag.semantic.engines import (
    DenseEngine,
    ExampleEngine,
    GraphEngine,
    KeywordEngine,
    QueryVectors,
    SemanticEngine,
    TermEngine,
)
from chronorag.semantic.index import LayerIndex, load_index
from chronorag.semantic.model import (
    Binding,
    Candidate,
    EngineResult,
    ExampleMatch,
    JoinPath,
    SemanticOptions,
    SemanticRequest,
    key_of,
)
from chronorag.semantic.terms import TermMatcher
from chronorag.store.base import LayerStore

PARALLEL: tuple[str, ...] = ("terms", "dense", "keyword", "examples")
"""Engines of the parallel stage; ``graph`` runs after them on what they found."""

MEDIUM_DENSE = 0.5
"""Dense cosine that alone makes retrieval ``medium`` (no binding needed)."""


@dataclass(frozen=True)
class Retrieval:
    """What the engines found for one question, graded, with per-engine timings."""

    bindings: tuple[Binding, ...]
    candidates: tuple[Candidate, ...]
    examples: tuple[ExampleMatch, ...]
    join_paths: tuple[JoinPath, ...]
    grade: str
    corrective: Mapping[str, Any]
    timings_ms: Mapping[str, float] = field(default_factory=dict)


def grade(bindings: Sequence[Binding], examples: Sequence[ExampleMatch],
          candidates: Sequence[Candidate], *, weak_dense: float = 0.3) -> str:
    """``high``: a metric or column is bound, or an approved example matched; ``medium``:
    some binding, a dense cosine >= 0.5, or a keyword hit with a cosine >= ``weak_dense``
    (the options' ``dense_min``, lowered when widened); ``low``: nothing trustworthy."""
    if examples or any(b.asset_type in ("metric", "column") for b in bindings):
        return "high"
    dense = max((c.score for c in candidates if c.engine == "dense"), default=0.0)
    keyword = any(c.engine == "keyword" for c in candidates)
    if bindings or dense >= MEDIUM_DENSE or (keyword and dense >= weak_dense):
        return "medium"
    return "low"


class SemanticSearcher:
    """The engines over one store's semantic layer (snapshot taken at construction).

    ``index`` and ``matcher`` are built from the store unless given; a long-lived
    ``SemanticLayer`` passes the ones it keeps for the current layer generation.
    """

    def __init__(self, store: LayerStore, embedder: Embedder, *,
                 options: SemanticOptions | None = None, parallel: bool = True,
                 index: LayerIndex | None = None, matcher: TermMatcher | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.options = options or SemanticOptions()
        self.parallel = parallel
        self.index = index or load_index(store, embedder=embedder.name)
        self.matcher = matcher or TermMatcher(self.index)

    def engines(self, vectors: QueryVectors) -> dict[str, SemanticEngine]:
        """Fresh engines sharing ``vectors`` (one embedding per distinct query text)."""
        return {"terms": TermEngine(self.index, self.matcher),
                "dense": DenseEngine(self.index, vectors),
                "keyword": KeywordEngine(self.index),
                "examples": ExampleEngine(self.index, vectors),
                "graph": GraphEngine(self.index, self.store)}

    def retrieve(self, question: str, *, content: str, as_of: datetime,
                 engines: Sequence[str] = PARALLEL, corrective: bool = True) -> Retrieval:
        """Run the engines; on a ``low`` grade widen once (when ``corrective``)."""
        request = SemanticRequest(question, content, as_of, self.options)
        first = self._round(request, engines)
        initial = grade(first.bindings, first.examples, first.candidates,
                        weak_dense=self.options.dense_min)
        if initial != "low" or not corrective:
            return replace(first, grade=initial, corrective={"initial_grade": initial,
                                                             "retried": False, "actions": []})
        expansion = self.matcher.expansion(question, as_of=as_of)
        wide = self.options.widened()
        second = self._round(replace(request, options=wide, expansion=" ".join(expansion)),
                             engines)
        actions = [f"lowered thresholds (example {wide.example_threshold}, dense "
                   f"{wide.dense_min})", f"more candidates ({wide.candidates})"]
        if expansion:
            actions.append("expanded synonyms: " + ", ".join(expansion))
        final = grade(second.bindings, second.examples, second.candidates,
                      weak_dense=wide.dense_min)
        timings = {**{f"first_{k}": v for k, v in first.timings_ms.items()},
                   **second.timings_ms}
        return replace(second, grade=final, timings_ms=timings, corrective={
            "initial_grade": initial, "retried": True, "actions": actions,
            "expanded_terms": expansion, "final_grade": final})

    def _round(self, request: SemanticRequest, names: Sequence[str]) -> Retrieval:
        engines = self.engines(QueryVectors(self.embedder))
        started = time.perf_counter()
        results = run_stage([engines[n] for n in names if n in PARALLEL], request,
                            parallel=self.parallel)
        timings = {f"{r.engine}_ms": r.elapsed_ms for r in results.values()}
        timings["parallel_ms"] = (time.perf_counter() - started) * 1000.0
        bindings = tuple(b for r in results.values() for b in r.bindings)
        candidates = tuple(c for r in results.values() for c in r.candidates)
        examples = tuple(e for r in results.values() for e in r.examples)
        graph = _timed(engines["graph"],
                       replace(request, seeds=_seeds(bindings, candidates, examples, self.index)))
        timings["graph_ms"] = graph.elapsed_ms
        return Retrieval(bindings, candidates, examples, graph.join_paths, "", {}, timings)


def run_stage(engines: Sequence[SemanticEngine], request: SemanticRequest, *,
              parallel: bool = True) -> dict[str, EngineResult]:
    """Run ``engines`` on ``request`` (concurrently when ``parallel``), results by name."""
    if not parallel or len(engines) < 2:
        return {e.name: _timed(e, request) for e in engines}
    with ThreadPoolExecutor(max_workers=len(engines),
                            thread_name_prefix="chronorag-semantic") as pool:
        futures = {e.name: pool.submit(_timed, e, request) for e in engines}
        return {name: f.result() for name, f in futures.items()}


def _timed(engine: SemanticEngine, request: SemanticRequest) -> EngineResult:
    started = time.perf_counter()
    result = engine.search(request)
    return replace(result, elapsed_ms=(time.perf_counter() - started) * 1000.0)


def _seeds(bindings: Sequence[Binding], candidates: Sequence[Candidate],
           examples: Sequence[ExampleMatch], index: LayerIndex) -> tuple[str, ...]:
    """Where the graph walk starts: bound assets; without any, the best search hits and
    the tables an approved example's SQL names."""
    if bindings:
        return tuple(key_of(b.asset_type, b.asset_id) for b in bindings)
    best = sorted((c for c in candidates if c.engine in ("dense", "keyword")),
                  key=lambda c: -c.score)[:3]
    named = [a.key for a in index.assets.values() if a.kind == "table"
             and any(a.id in e.sql for e in examples)]
    return tuple(dict.fromkeys([*(c.key for c in best), *named]))
