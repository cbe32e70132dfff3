"""The four engines (and keyword) behind one protocol: ``search(request) -> EngineResult``.

R ``terms`` binds business terms exactly; V ``dense`` and ``keyword`` search asset
descriptions; D ``examples`` returns approved past question -> SQL pairs above a cosine
threshold; G ``graph`` walks joins from the assets the others found. Every engine judges
assets at ``request.as_of``: superseded, expired, draft and retired assets never come out.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from chronorag.retrieve.base import Embedder
from chronorag.retrieve.index import top_k
from chronorag.retrieve.tokenize import tokenize
from chronorag.semantic import store as sstore
from chronorag.semantic.index import SEARCHABLE, LayerIndex
from chronorag.semantic.model import (
    Candidate,
    EngineResult,
    ExampleMatch,
    JoinPath,
    SemanticRequest,
    key_of,
)
from chronorag.semantic.terms import TermMatcher
from chronorag.store.base import LayerStore

_APPROVED = frozenset({"approved", "certified"})


class SemanticEngine(Protocol):
    """A retrieval engine over the semantic layer."""

    name: str

    def search(self, request: SemanticRequest) -> EngineResult:
        """What this engine finds for ``request`` (judged at ``request.as_of``)."""
        ...


class QueryVectors:
    """Embeds each distinct query text once, even when two engines ask at the same time."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._done: dict[str, np.ndarray] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, text: str) -> np.ndarray:
        """The unit query vector of ``text``."""
        with self._guard:
            lock = self._locks.setdefault(text, threading.Lock())
        with lock:
            if text not in self._done:
                self._done[text] = self.embedder.embed([text], kind="query")[0]
            return self._done[text]


class TermEngine:
    """R: exact terms and synonyms -> one binding per term, resolved at ``as_of``."""

    name = "terms"

    def __init__(self, index: LayerIndex, matcher: TermMatcher) -> None:
        self._index = index
        self._matcher = matcher

    def search(self, request: SemanticRequest) -> EngineResult:
        """Bindings for the terms of ``request.question``, left to right."""
        bindings = self._matcher.bind(request.question, as_of=request.as_of)
        candidates = tuple(Candidate(key_of(b.asset_type, b.asset_id), 1.0, self.name)
                           for b in bindings)
        return EngineResult(self.name, candidates=candidates, bindings=tuple(bindings))


def _query_text(request: SemanticRequest) -> str:
    text = request.content or request.question
    return f"{text} {request.expansion}".strip()


class DenseEngine:
    """V: cosine between the question and stored asset-description vectors."""

    name = "dense"

    def __init__(self, index: LayerIndex, vectors: QueryVectors) -> None:
        self._index = index
        self._vectors = vectors

    def search(self, request: SemanticRequest) -> EngineResult:
        """Applicable assets with cosine >= ``options.dense_min``, best first."""
        keys, matrix = self._index.vectors_for(SEARCHABLE)
        if not keys:
            return EngineResult(self.name)
        sims = matrix @ self._vectors.get(_query_text(request))
        return EngineResult(self.name, candidates=_best(
            self._index, keys, sims, request, floor=request.options.dense_min, engine=self.name))


class KeywordEngine:
    """Keyword: BM25 over asset descriptions with the shared EN/ZH tokenizer."""

    name = "keyword"

    def __init__(self, index: LayerIndex) -> None:
        self._index = index

    def search(self, request: SemanticRequest) -> EngineResult:
        """Applicable assets with a positive BM25 score, best first."""
        index = self._index
        if not index.search_keys:
            return EngineResult(self.name)
        ids = index.bm25.get_tokens_ids(tokenize(_query_text(request)))
        if not ids:
            return EngineResult(self.name)
        scores = np.asarray(index.bm25.get_scores_from_ids(ids))
        return EngineResult(self.name, candidates=_best(
            index, list(index.search_keys), scores, request, floor=1e-9, engine=self.name))


class ExampleEngine:
    """D: approved past questions with their SQL, only above the similarity threshold."""

    name = "examples"

    def __init__(self, index: LayerIndex, vectors: QueryVectors) -> None:
        self._index = index
        self._vectors = vectors

    def search(self, request: SemanticRequest) -> EngineResult:
        """Approved, applicable examples with cosine >= ``options.example_threshold``."""
        keys, matrix = self._index.vectors_for(frozenset({"example"}))
        if not keys:
            return EngineResult(self.name)
        # What is asked, not when: the asked time is applied through ``as_of``, and this is
        # the text dense retrieval of the same question embeds (one embedding per ask).
        sims = matrix @ self._vectors.get(request.content or request.question)
        found = []
        for i in np.argsort(-sims, kind="stable"):
            asset = self._index.assets[keys[i]]
            if sims[i] < request.options.example_threshold:
                break
            # Drafts never: an unreviewed query would teach the model a wrong join.
            if asset.status in _APPROVED and self._index.applicable(asset.key,
                                                                     as_of=request.as_of):
                found.append(ExampleMatch(asset.id, asset.body["question"], asset.body["sql"],
                                          float(sims[i]), asset.status))
        return EngineResult(self.name, examples=tuple(found))


class GraphEngine:
    """G: join paths (recursive CTE, depth <= 3) from the tables the other engines found."""

    name = "graph"

    def __init__(self, index: LayerIndex, store: LayerStore) -> None:
        self._index = index
        self._store = store

    def search(self, request: SemanticRequest) -> EngineResult:
        """Paths from each seed table; connecting, low-risk and short paths first."""
        index = self._index
        seeds = list(dict.fromkeys(
            t for key in request.seeds if key in index.assets
            and (t := index.assets[key].table) is not None
            and index.applicable(key_of("table", t), as_of=request.as_of)))
        if not seeds:
            return EngineResult(self.name)
        allowed = [a.id for a in index.assets.values()
                   if a.kind == "join" and index.applicable(a.key, as_of=request.as_of)]
        joins = {a.id: a for a in index.assets.values() if a.kind == "join"}
        paths = sstore.walk_joins(self._store, seeds, allowed=allowed, joins=joins,
                                  depth=request.options.join_depth)
        return EngineResult(self.name, join_paths=tuple(
            rank_paths(paths, seeds, limit=request.options.max_paths)))


def rank_paths(paths: Sequence[JoinPath], seeds: Sequence[str], *, limit: int) -> list[JoinPath]:
    """Deduplicated paths: those joining two seed tables first, then low risk, then short."""
    seed_set = set(seeds)
    best: dict[tuple[frozenset[str], tuple[str, ...]], JoinPath] = {}
    for path in paths:
        connects = path.tables[-1] in seed_set
        marked = JoinPath(path.tables, path.steps, connects)
        # A->B and B->A over the same joins is one path; keep the one starting at a seed
        # listed first so output is stable.
        signature = (frozenset((path.tables[0], path.tables[-1])),
                     tuple(sorted(s.id for s in path.steps)))
        if signature not in best:
            best[signature] = marked
    ordered = sorted(best.values(), key=lambda p: (not p.connects, p.high_steps,
                                                   len(p.steps), p.tables))
    return ordered[:limit]


def _best(index: LayerIndex, keys: Sequence[str], scores: np.ndarray,
          request: SemanticRequest, *, floor: float, engine: str) -> tuple[Candidate, ...]:
    out: list[Candidate] = []
    # Over-fetch: some of the best may not apply at as_of and are dropped below.
    for i in top_k(scores, request.options.candidates * 3):
        if scores[i] < floor or len(out) >= request.options.candidates:
            break
        if index.applicable(keys[i], as_of=request.as_of):
            out.append(Candidate(keys[i], float(scores[i]), engine))
    return tuple(out)

