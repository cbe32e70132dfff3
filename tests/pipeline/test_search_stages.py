"""The pool's order is a stage of the search, not of a reranker: whatever reranker is
configured, built-in or plug-in, receives the candidates late-ordered and pre-ranked."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import ClassVar

import pytest

from chronorag.config import get_preset
from chronorag.demo import DEMO_NOW
from chronorag.engine import Engine
from chronorag.model import Asking, Hit, Query
from chronorag.rank.prerank import TimePrerank
from chronorag.rank.rerank_none import NoReranker
from chronorag.rank.rerankers import RERANKERS, RerankContext

QUESTION = "How many days did I have to return an item in 2024?"


class Recording:
    """A plug-in reranker that keeps the order of every pool it is given."""

    name = "recording"
    pools: ClassVar[list[list[Hit]]] = []

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        Recording.pools.append(list(hits))
        return NoReranker().rerank(query, hits)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Recording]]:
    def factory(*, context: RerankContext) -> Recording:
        return Recording()
    monkeypatch.setitem(RERANKERS._factories, "recording", factory)
    Recording.pools = []
    yield Recording


def test_a_plug_in_reranker_receives_the_pool_pre_ranked(demo_rules_engine: Engine,
                                                          recording: type[Recording]) -> None:
    base = replace(demo_rules_engine.config, reranker="recording", late="", prerank="")
    query = demo_rules_engine.query(QUESTION, Asking(now=DEMO_NOW))
    assert query.constraint.interval is not None
    plain = demo_rules_engine.retrieve(query, config=base)
    ranked = demo_rules_engine.retrieve(query, config=replace(base, prerank="time"))
    retrieval, prerank = recording.pools
    assert "prerank" in ranked.timings_ms and "prerank" not in plain.timings_ms
    expected = TimePrerank().rerank(query, retrieval)
    assert [h.chunk.id for h in prerank] == [h.chunk.id for h in expected]
    # The demo's 2024 versions move up: the stage did reorder.
    assert [h.chunk.id for h in prerank] != [h.chunk.id for h in retrieval]


def test_each_pool_stage_runs_only_when_configured(demo_rules_engine: Engine) -> None:
    query = demo_rules_engine.query(QUESTION, Asking(now=DEMO_NOW))
    config = replace(demo_rules_engine.config, late="", prerank="")
    ranked = demo_rules_engine.retrieve(query, config=config)
    assert "prerank" not in ranked.timings_ms and "late" not in ranked.timings_ms
    ranked = demo_rules_engine.retrieve(query, config=replace(config, prerank="time"))
    assert "prerank" in ranked.timings_ms and "late" not in ranked.timings_ms


def test_pre_ranks_joined_by_plus_run_in_turn(demo_rules_engine: Engine,
                                              recording: type[Recording]) -> None:
    base = replace(demo_rules_engine.config, reranker="recording", late="", prerank="time")
    query = demo_rules_engine.query(QUESTION, Asking(now=DEMO_NOW))
    demo_rules_engine.retrieve(query, config=base)
    demo_rules_engine.retrieve(query, config=replace(base, prerank="time+names"))
    timed, both = recording.pools
    # An English question names nothing in Latin letters that "names" would act on.
    assert [h.chunk.id for h in both] == [h.chunk.id for h in timed]
    assert get_preset("default").prerank == "time+names"
