"""Every stage writes its own named score and sets ``score`` to what its list is ordered
by; later stages read the names, never ``score`` (see ``chronorag.model.Hit``)."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag import model as m
from chronorag.answer.evidence import to_evidence
from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.errors import ConfigError
from chronorag.flags import Flag
from chronorag.model import (
    Chunk,
    Document,
    Hit,
    Interval,
    Mention,
    Query,
    Sentence,
)
from chronorag.rank.base import Reranker
from chronorag.rank.mrag import MragTemporal
from chronorag.rank.prerank import TimePrerank
from chronorag.rank.rerank_ce import CrossEncoderReranker
from chronorag.rank.rerank_none import NoReranker
from chronorag.rank.rerank_windows import WindowReranker
from chronorag.rank.temporal import ChronoTemporal
from chronorag.rank.temporal_registry import TEMPORAL
from chronorag.rank.validity import ValidityIndex, apply_validity
from chronorag.retrieve.fusion import rrf_fuse

FAST = settings(max_examples=int(os.environ.get("CHRONORAG_PROPERTY_EXAMPLES", "60")),
                deadline=None)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
DOCS = ("d0", "d1", "d2", "d3")
UNIT = st.floats(0.0, 1.0)


def year(start: int, end: int) -> Interval:
    return Interval(datetime(start, 1, 1, tzinfo=UTC), datetime(end + 1, 1, 1, tzinfo=UTC),
                    m.Granularity.YEAR)


@st.composite
def chunks(draw: st.DrawFn, number: int) -> Chunk:
    doc = draw(st.sampled_from(DOCS))
    # Periods up to forty years long: a long one fits less (lower specificity).
    spans = draw(st.lists(st.tuples(st.integers(1970, 2020), st.integers(0, 40)), max_size=3))
    sentences = tuple(
        Sentence(doc, i, i * 30, i * 30 + 25, f"In {a} the club won {i}.",
                 (Mention(str(a), i * 30 + 3, i * 30 + 7, year(a, a + b)),))
        for i, (a, b) in enumerate(spans))
    text = " ".join(s.text for s in sentences) or f"The club, passage {number}."
    return Chunk(f"c{number}", doc, number, 0, len(text), text, sentences)


@st.composite
def retrieved(draw: st.DrawFn) -> list[Hit]:
    """A fused candidate list as retrieval hands it on: best ``rrf`` first."""
    hits = []
    for number in range(draw(st.integers(0, 12))):
        scores = {"rrf": draw(st.floats(0.001, 0.05))}
        if draw(st.booleans()):
            scores |= {"dense": draw(UNIT), "dense_relevance": draw(UNIT)}
        hits.append(Hit(draw(chunks(number)), scores["rrf"], scores))
    return sorted(hits, key=lambda h: -h.score)


@st.composite
def reranked(draw: st.DrawFn) -> list[Hit]:
    """Hits with a ``semantic`` score and a ``score`` no later stage may read."""
    return [Hit(draw(chunks(n)), draw(st.floats(-5.0, 5.0)), {"semantic": draw(UNIT)})
            for n in range(draw(st.integers(0, 10)))]


@st.composite
def queries(draw: st.DrawFn) -> Query:
    relation = draw(st.sampled_from([m.Relation.IN, m.Relation.BEFORE, m.Relation.AFTER,
                                     m.Relation.BETWEEN, m.Relation.NONE]))
    start = draw(st.integers(1970, 2030))
    interval = draw(st.none() | st.just(year(start, start + draw(st.integers(0, 4)))))
    order = draw(st.sampled_from([None, m.Order.FIRST, m.Order.LAST]))
    understanding = m.Understanding("Who won?", "Who won?",
                                  constraint=m.Constraint(relation, order, interval))
    return Query("Who won?", NOW, NOW, understanding)


def fake_logits(question: str, texts: Sequence[str]) -> np.ndarray:
    """Stand-in for the cross-encoder: a fixed logit per text, no model."""
    del question
    return np.array([int.from_bytes(hashlib.blake2b(t.encode(), digest_size=2).digest(),
                                    "little") / 3000.0 - 10.0 for t in texts],
                    dtype=np.float32)


def ids(hits: Sequence[Hit]) -> list[str]:
    return [h.chunk.id for h in hits]


def non_increasing(values: Sequence[Any]) -> bool:
    return all(a >= b for a, b in itertools.pairwise(values))


def constrained(query: Query) -> bool:
    constraint = query.constraint
    return constraint.relation is not m.Relation.NONE and constraint.interval is not None


# --- retrieval --------------------------------------------------------------------------


@FAST
@given(st.lists(st.lists(st.integers(0, 9), unique=True, max_size=8), min_size=1, max_size=3))
def test_fusion_orders_by_rrf_and_keeps_the_retrievers_scores(lists: list[list[int]]) -> None:
    rankings = [[Hit(Chunk(f"c{i}", "d", i, 0, 1, "t"), 1.0 / (r + 1), {f"r{n}": 1.0 / (r + 1)})
                 for r, i in enumerate(found)] for n, found in enumerate(lists)]
    fused = rrf_fuse(rankings, limit=20)
    assert all(h.score == h.scores["rrf"] for h in fused)
    assert non_increasing([h.score for h in fused])
    for n, found in enumerate(lists):
        assert {f"c{i}" for i in found} <= {h.chunk.id for h in fused if f"r{n}" in h.scores}


# --- rerankers --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cross_encoder() -> CrossEncoderReranker:
    reranker = CrossEncoderReranker(model_dir=Path("no-model-needed"), top_n=4)
    reranker.score = fake_logits  # type: ignore[method-assign]
    return reranker


@pytest.fixture(scope="module")
def windows() -> WindowReranker:
    reranker = WindowReranker(top_n=4)
    reranker.model.score = fake_logits  # type: ignore[method-assign]
    return reranker


def assert_judged_then_unjudged(out: Sequence[Hit], incoming: Sequence[Hit], top_n: int) -> None:
    """Judged hits first, ordered by ``score`` = ``semantic``; the rest keep their incoming
    order and ``score``, never above a judged hit on relevance."""
    head, tail = list(out[:top_n]), list(out[top_n:])
    assert all("semantic" in h.scores for h in out)
    assert all(Flag.NOT_RERANKED not in h.flags and h.score == h.scores["semantic"] for h in head)
    assert non_increasing([h.score for h in head])
    assert all(Flag.NOT_RERANKED in h.flags for h in tail)
    assert [(h.chunk.id, h.score) for h in tail] == [(h.chunk.id, h.score)
                                                      for h in incoming[top_n:]]
    floor = min((h.scores["semantic"] for h in head), default=1.0)
    assert all(h.scores["semantic"] <= floor for h in tail)


@FAST
@given(retrieved(), queries())
def test_no_reranker_keeps_order_and_score(hits: list[Hit], query: Query) -> None:
    out = NoReranker().rerank(query, hits)
    assert [(h.chunk.id, h.score) for h in out] == [(h.chunk.id, h.score) for h in hits]
    assert all(0.0 <= h.scores["semantic"] <= 1.0 for h in out)


@FAST
@given(retrieved(), queries())
def test_cross_encoder_orders_judged_hits_by_semantic(
        cross_encoder: CrossEncoderReranker, hits: list[Hit], query: Query) -> None:
    out = cross_encoder.rerank(query, hits)
    assert sorted(ids(out)) == sorted(ids(hits))
    assert_judged_then_unjudged(out, hits, cross_encoder.top_n)


@FAST
@given(retrieved(), queries())
def test_windows_order_judged_hits_by_semantic(
        windows: WindowReranker, hits: list[Hit], query: Query) -> None:
    out = windows.rerank(query, hits)
    assert sorted(ids(out)) == sorted(ids(hits))
    # The pool's order is the search's (late order, pre-rank): the reranker keeps it.
    assert_judged_then_unjudged(out, hits, windows.top_n)


@FAST
@given(retrieved(), queries())
def test_the_time_prerank_puts_the_questions_time_first(hits: list[Hit], query: Query) -> None:
    out = TimePrerank().rerank(query, hits)
    assert sorted(ids(out)) == sorted(ids(hits))
    if query.constraint.interval is None:
        assert [(h.chunk.id, h.score) for h in out] == [(h.chunk.id, h.score) for h in hits]
        return
    expected = ChronoTemporal(fit_weight=1.0).rerank(query, NoReranker().rerank(query, hits))
    # Retrieval's best stays first; behind it, the temporal order.
    first = hits[0].chunk.id if hits else None
    assert ids(out)[:1] == ids(hits)[:1]
    assert ids(out)[1:] == [i for i in ids(expected) if i != first]
    tiers = [h.scores["time_tier"] for h in out[1:] if "time_tier" in h.scores]
    assert non_increasing(tiers)


# --- temporal stage ---------------------------------------------------------------------

SCORERS: dict[str, Reranker] = {
    "gated": ChronoTemporal(), "gated, fit weighed in": ChronoTemporal(fit_weight=1.0),
    "product": ChronoTemporal(mode="product"), "mrag": MragTemporal(),
    "none": TEMPORAL.create("none"),
}


def blended(hits: Sequence[Hit], weight: float = 0.7) -> dict[str, float]:
    """ChronoTemporal's relevance: a passage's semantic shares its page's best."""
    page: dict[str, float] = {}
    for h in hits:
        page[h.chunk.doc_id] = max(page.get(h.chunk.doc_id, 0.0), h.scores["semantic"])
    return {h.chunk.id: (1 - weight) * h.scores["semantic"] + weight * page[h.chunk.doc_id]
            for h in hits}


@FAST
@given(st.sampled_from(sorted(SCORERS)), reranked(), queries())
def test_temporal_stage_names_its_scores_and_orders_by_score(
        name: str, hits: list[Hit], query: Query) -> None:
    out = SCORERS[name].rerank(query, hits)
    assert sorted(ids(out)) == sorted(ids(hits))
    assert all({"semantic", "temporal", "combined"} <= set(h.scores) for h in out)
    if name == "none" or not constrained(query):
        assert [(h.chunk.id, h.score) for h in out] == [(h.chunk.id, h.score) for h in hits]
        assert all(h.scores["combined"] == h.scores["semantic"] for h in out)
        assert all(h.scores["temporal"] == 1.0 for h in out)
    elif name.startswith("gated"):
        assert non_increasing([(h.scores["time_tier"], h.scores.get("time_order", 0.0),
                                h.score) for h in out])
        relevance = blended(hits)
        assert all(h.scores["combined"] == relevance[h.chunk.id] * h.scores["temporal"]
                   for h in out)
    else:
        assert non_increasing([h.score for h in out])
    if name == "mrag" and constrained(query):
        assert all(h.score == h.scores["combined"]
                   == h.scores["semantic"] * h.scores["temporal"] for h in out)


def test_gated_score_is_the_relevance_a_tier_is_ordered_by() -> None:
    """Inside a tier relevance orders (fit_weight=0), so ``score`` follows relevance while
    ``combined`` (relevance × fit) may rise down the list."""
    def passage(cid: str, semantic: float, start: int, end: int) -> Hit:
        sentence = Sentence(cid, 0, 0, 20, f"From {start} to {end}.",
                            (Mention(f"{start}-{end}", 5, 14, year(start, end)),))
        return Hit(Chunk(cid, cid, 0, 0, 20, sentence.text, (sentence,)), 0.0,
                   {"semantic": semantic})

    hits = [passage("long", 0.9, 1980, 2025), passage("short", 0.8, 2006, 2006)]
    query = Query("q", NOW, NOW, m.Understanding("q", "q", constraint=m.Constraint(
        m.Relation.IN, None, year(2006, 2006))))
    out = ChronoTemporal(doc_weight=0.0).rerank(query, hits)
    assert ids(out) == ["long", "short"]
    assert [h.score for h in out] == [1.0, 0.8 / 0.9]
    assert out[0].scores["combined"] < out[1].scores["combined"] == 0.8


def test_temporal_stage_asks_for_the_reranker_score_it_reads() -> None:
    chunk = Chunk("c0", "d0", 0, 0, 4, "text")
    query = Query("q", NOW, NOW, m.Understanding("q", "q"))
    with pytest.raises(ConfigError, match=r"'semantic'.*reranker"):
        ChronoTemporal().rerank(query, [Hit(chunk, 0.5, {"rrf": 0.5})])


# --- validity and evidence --------------------------------------------------------------

SOURCES = {"d0": "forum", "d1": "policy", "d2": "wiki", "d3": None}


@st.composite
def temporal_hits(draw: st.DrawFn) -> list[Hit]:
    """What the temporal stage hands on: ``combined`` near-ties, tiers, and a ``score``."""
    hits = []
    for n in range(draw(st.integers(0, 8))):
        scores = {"combined": draw(st.sampled_from([0.5, 0.505, 0.51, 0.8])),
                  "time_tier": draw(st.sampled_from([-1.0, 0.0, 2.0]))}
        hits.append(Hit(Chunk(f"c{n}", draw(st.sampled_from(DOCS)), n, 0, 1, "t"),
                        draw(UNIT), scores))
    return hits


@FAST
@given(temporal_hits(), st.lists(UNIT, min_size=8, max_size=8))
def test_validity_reads_combined_never_score(hits: list[Hit], other: list[float]) -> None:
    docs = {d: Document(id=d, text="", source_type=s) for d, s in SOURCES.items()}
    index = ValidityIndex.build(docs.values())

    def run(given_hits: list[Hit]) -> list[Hit]:
        return apply_validity(given_hits, documents=docs, index=index, as_of=NOW)[0]

    out = run(hits)
    assert ids(run([replace(h, score=v) for h, v in zip(hits, other, strict=False)])) == ids(out)
    assert {h.chunk.id: h.score for h in out} == {h.chunk.id: h.score for h in hits}


def test_evidence_shows_the_combined_score() -> None:
    chunk = Chunk("c0", "d0", 0, 0, 4, "text")
    hit = Hit(chunk, 0.9, {"semantic": 0.8, "temporal": 0.5, "combined": 0.4})
    item = to_evidence(hit, None)
    assert item.score == 0.4 and item.scores["combined"] == 0.4
    assert to_evidence(Hit(chunk, 0.9, {"semantic": 0.8}), None).score == 0.9


# --- the whole search -------------------------------------------------------------------

CORPUS = [
    {"id": "club", "title": "Club", "text": "In 2001 Anna coached the club. In 2006 Ben "
     "coached the club. In 2012 Carla coached the club."},
    {"id": "town", "title": "Town", "text": "The town built a stadium for the club in 1999."},
]


def test_search_hands_every_stage_score_on_by_name(tmp_path: Path, test_embedders: Any) -> None:
    """Keyword and stand-in dense retrieval, fusion, no model: each stage's name is there."""
    config = replace(get_preset("default"), reranker="none", embedder="test-hash")
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(d) + "\n" for d in CORPUS), encoding="utf-8")
    with Engine(tmp_path / "kb.db", config=config) as engine:
        engine.ingest([corpus], now=NOW)
        query = engine.query("Who coached the club in 2007?", now=NOW)
        hits = engine.retrieve(query, config=config).hits
        answer = engine.ask("Who coached the club in 2007?", now=NOW)
    assert hits
    for hit in hits:
        assert {"bm25", "dense"} & set(hit.scores)
        assert {"rrf", "semantic", "temporal", "combined", "time_tier"} <= set(hit.scores)
    assert all(e.score == e.scores["combined"] for e in answer.evidence)
