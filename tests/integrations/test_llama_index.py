"""chronorag.integrations.llama_index: chronorag's evidence as LlamaIndex nodes, with its
metadata, privacy and clock."""

from __future__ import annotations

import asyncio
import importlib
import sys
from datetime import timedelta

import pytest
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from chronorag.conditions import ConditionError
from chronorag.demo import DEMO_NOW
from chronorag.engine import Engine
from chronorag.errors import MissingDependencyError
from chronorag.integrations import base
from chronorag.integrations.base import EVIDENCE_FIELDS
from chronorag.integrations.llama_index import ChronoragRetriever

from .conftest import RETURNS

LUNCH = "上周二我几点吃的午饭？"


def test_nodes_are_the_evidence_best_first(demo_rules_engine: Engine) -> None:
    nodes = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=5).retrieve(RETURNS)
    answer = demo_rules_engine.ask(RETURNS, now=DEMO_NOW, k=5).to_json()
    evidence = answer["evidence"][:5]
    assert len(nodes) == len(evidence) == 5
    for hit, item in zip(nodes, evidence, strict=True):
        assert isinstance(hit, NodeWithScore) and isinstance(hit.node, TextNode)
        assert (hit.node.text, hit.node.node_id, hit.score) == (
            item["text"], item["chunk_id"], item["score"])
        assert hit.node.metadata == {**{f: item[f] for f in EVIDENCE_FIELDS},
                                     "answer_status": answer["status"],
                                     "answer": answer["answer"]}


@pytest.mark.parametrize("k", [1, 3])
def test_k_nodes(demo_rules_engine: Engine, k: int) -> None:
    retriever = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=k)
    assert len(retriever.retrieve(RETURNS)) == k


def test_a_query_bundle_is_accepted(demo_rules_engine: Engine) -> None:
    retriever = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=3)
    assert retriever.retrieve(QueryBundle(RETURNS)) == retriever.retrieve(RETURNS)


def test_a_record_of_another_user_never_appears(demo_rules_engine: Engine) -> None:
    question = "妈妈上周四几点去的医院？"
    for user in (None, "me"):
        nodes = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW,
                                   user=user).retrieve(question)
        assert "rec-006" not in {n.node.metadata["doc_id"] for n in nodes}
    own = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, user="mom").retrieve(question)
    assert own[0].node.metadata["doc_id"] == "rec-006"


def test_a_fixed_now_and_as_of(demo_rules_engine: Engine) -> None:
    lunch = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, user="me", k=1)
    assert lunch.retrieve(LUNCH)[0].node.metadata["answer"] == "12:30"
    later = DEMO_NOW + timedelta(days=30)
    nodes = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW,
                               as_of=later).retrieve(RETURNS)
    expected = demo_rules_engine.ask(RETURNS, now=DEMO_NOW, as_of=later).to_json()["evidence"]
    assert [n.node.node_id for n in nodes] == [e["chunk_id"] for e in expected][:5]


def test_now_none_reads_the_clock_at_each_call(demo_rules_engine: Engine,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    moments = iter([DEMO_NOW, DEMO_NOW + timedelta(days=7)])
    monkeypatch.setattr(base, "system_now", lambda: next(moments))
    lunch = ChronoragRetriever(engine=demo_rules_engine, user="me", k=1)
    assert [lunch.retrieve(LUNCH)[0].node.metadata["doc_id"]
            for _ in range(2)] == ["rec-001", "rec-003"]


def test_aretrieve_equals_retrieve(demo_rules_engine: Engine) -> None:
    retriever = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=3)
    assert asyncio.run(retriever.aretrieve(RETURNS)) == retriever.retrieve(RETURNS)


def test_constructor_takes_keywords_only(demo_rules_engine: Engine) -> None:
    with pytest.raises(TypeError):
        ChronoragRetriever(demo_rules_engine)  # type: ignore[misc]


def test_without_llama_index_the_error_names_the_extra(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "chronorag.integrations.llama_index")
    for name in [m for m in sys.modules if m.partition(".")[0] == "llama_index"]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'chronorag\[llamaindex\]'"):
        importlib.import_module("chronorag.integrations.llama_index")


def test_the_askers_attributes_are_passed_on(demo_rules_engine: Engine) -> None:
    # The demo store declares no condition: an asker's attribute is refused, so it arrived.
    with pytest.raises(ConditionError, match="'region' is not declared"):
        ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW,
                           context={"region": "EU"}).retrieve(RETURNS)
