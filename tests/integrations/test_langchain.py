"""chronorag.integrations.langchain: LangChain's standard retriever tests, and the
metadata, privacy and clock of chronorag's evidence carried into LangChain."""

from __future__ import annotations

import asyncio
import importlib
import sys
from datetime import timedelta
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_tests.integration_tests import RetrieversIntegrationTests

from chronorag.conditions import ConditionError
from chronorag.demo import DEMO_NOW
from chronorag.engine import Engine
from chronorag.errors import MissingDependencyError
from chronorag.integrations import base
from chronorag.integrations.base import EVIDENCE_FIELDS
from chronorag.integrations.langchain import ChronoragRetriever

from .conftest import RETURNS

LUNCH = "上周二我几点吃的午饭？"


class TestStandardRetriever(RetrieversIntegrationTests):
    """LangChain's own contract for retrievers, over the demo store."""

    engine: Engine

    @pytest.fixture(autouse=True)
    def _engine(self, demo_rules_engine: Engine) -> None:
        type(self).engine = demo_rules_engine

    @property
    def retriever_constructor(self) -> type[ChronoragRetriever]:
        return ChronoragRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"engine": self.engine, "now": DEMO_NOW}

    @property
    def retriever_query_example(self) -> str:
        return RETURNS


def test_documents_are_the_evidence_best_first(demo_rules_engine: Engine) -> None:
    docs = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=5).invoke(RETURNS)
    answer = demo_rules_engine.ask(RETURNS, now=DEMO_NOW, k=5).to_json()
    evidence = answer["evidence"][:5]
    assert len(docs) == len(evidence) == 5
    for doc, item in zip(docs, evidence, strict=True):
        assert doc.page_content == item["text"]
        assert doc.metadata == {**{f: item[f] for f in EVIDENCE_FIELDS},
                                "answer_status": answer["status"], "answer": answer["answer"]}
    # The version in force on DEMO_NOW; returns-2026 applies from 1 December.
    assert docs[0].metadata["doc_id"] == "returns-2024"


def test_as_of_is_passed_on(demo_rules_engine: Engine) -> None:
    later = DEMO_NOW + timedelta(days=30)
    docs = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, as_of=later).invoke(RETURNS)
    expected = demo_rules_engine.ask(RETURNS, now=DEMO_NOW, as_of=later).to_json()["evidence"]
    assert [d.metadata["chunk_id"] for d in docs] == [e["chunk_id"] for e in expected][:5]


def test_a_record_of_another_user_never_appears(demo_rules_engine: Engine) -> None:
    question = "妈妈上周四几点去的医院？"
    for user in (None, "me"):
        docs = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW,
                                  user=user).invoke(question)
        assert "rec-006" not in {d.metadata["doc_id"] for d in docs}
    # The record is there for its subject: the filter, not the search, kept it out above.
    own = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, user="mom").invoke(question)
    assert own[0].metadata["doc_id"] == "rec-006"
    assert own[0].metadata["answer_status"] == "answered"


def test_without_a_user_no_personal_record_appears(demo_rules_engine: Engine) -> None:
    docs = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=10).invoke(LUNCH)
    assert not [d for d in docs if d.metadata["source_type"] == "record"]


def test_a_fixed_now_resolves_relative_time(demo_rules_engine: Engine) -> None:
    lunch = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, user="me", k=1)
    doc = lunch.invoke(LUNCH)[0]
    assert (doc.metadata["doc_id"], doc.metadata["answer"]) == ("rec-001", "12:30")


def test_now_none_reads_the_clock_at_each_call(demo_rules_engine: Engine,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    moments = iter([DEMO_NOW, DEMO_NOW + timedelta(days=7)])
    monkeypatch.setattr(base, "system_now", lambda: next(moments))
    lunch = ChronoragRetriever(engine=demo_rules_engine, user="me", k=1)
    # Asked a week later, last Tuesday is 2026-11-24 (rec-003) instead of 11-17 (rec-001).
    assert [lunch.invoke(LUNCH)[0].metadata["doc_id"]
            for _ in range(2)] == ["rec-001", "rec-003"]


def test_ainvoke_equals_invoke(demo_rules_engine: Engine) -> None:
    retriever = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=3)
    docs = asyncio.run(retriever.ainvoke(RETURNS, k=2))
    assert all(isinstance(d, Document) for d in docs)
    assert docs == retriever.invoke(RETURNS, k=2)


def test_constructor_takes_keywords_only(demo_rules_engine: Engine) -> None:
    with pytest.raises(TypeError):
        ChronoragRetriever(demo_rules_engine)  # type: ignore[misc]


def test_without_langchain_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "chronorag.integrations.langchain")
    for name in [m for m in sys.modules if m.partition(".")[0] == "langchain_core"]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'chronorag\[langchain\]'"):
        importlib.import_module("chronorag.integrations.langchain")


def test_the_engines_own_model_is_not_asked(demo_rules_engine: Engine) -> None:
    from chronorag.answer.openai_chat import OpenAIChat

    from ..answer.recorded_llm import RecordedLLM, Reply

    with RecordedLLM(Reply("You have 45 days [returns-2024].")) as llm:
        demo_rules_engine.llm = OpenAIChat(llm.url)
        try:
            docs = ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW, k=2).invoke(RETURNS)
        finally:
            demo_rules_engine.llm = None
        assert llm.requests == []
    assert docs and "generation" not in docs[0].metadata
    assert docs[0].metadata["answer"] != "You have 45 days [returns-2024]."


def test_the_askers_attributes_are_passed_on(demo_rules_engine: Engine) -> None:
    # The demo store declares no condition: an asker's attribute is refused, so it arrived.
    with pytest.raises(ConditionError, match="'region' is not declared"):
        ChronoragRetriever(engine=demo_rules_engine, now=DEMO_NOW,
                           context={"region": "EU"}).invoke(RETURNS)
