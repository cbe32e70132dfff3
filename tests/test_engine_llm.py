"""``Engine(llm=...)`` on the demo corpus with the validity rules: whatever the model
writes, no answer that is used cites a superseded, upcoming or draft version."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from chronorag.answer.openai_chat import OpenAIChat
from chronorag.demo import DEMO_NOW
from chronorag.engine import Engine
from chronorag.flags import Flag

from .answer.recorded_llm import RecordedLLM, Reply

RETURNS = "How many days do I have to return an item?"
LATER = DEMO_NOW.replace(month=12, day=20)


def ask(engine: Engine, text: str, *, now: datetime = DEMO_NOW, **options: Any
        ) -> dict[str, Any]:
    with RecordedLLM(Reply(text)) as llm:
        engine.llm = OpenAIChat(llm.url)
        try:
            payload: dict[str, Any] = engine.ask(RETURNS, now=now, k=5, **options).to_json()
        finally:
            engine.llm = None
    return payload


@pytest.mark.parametrize(("text", "now"), [
    ("You have 21 days [returns-2026].", DEMO_NOW),  # upcoming on 25 November
    ("You have 45 days [returns-2024].", LATER),  # superseded on 20 December
    ("You have 14 days [returns-draft].", DEMO_NOW),  # a draft never applies
    ("You have 45 days [returns-faq].", LATER),  # a copy of the superseded policy
])
def test_a_version_that_does_not_apply_is_never_the_answer(demo_rules_engine: Engine,
                                                          text: str, now: datetime) -> None:
    payload = ask(demo_rules_engine, text, now=now)
    assert payload["generation"]["used"] is False
    assert payload["status"] == "uncertain" and Flag.GENERATED_ANSWER_REJECTED in payload["flags"]
    assert payload["answer"] == payload["generation"]["extractive"]["answer"]


@pytest.mark.parametrize(("text", "now"), [
    ("You have 45 days from delivery [returns-2024].", DEMO_NOW),
    ("Since 1 December 2026 you have 21 days [returns-2026].", LATER),
])
def test_the_version_in_force_may_be_cited(demo_rules_engine: Engine, text: str,
                                           now: datetime) -> None:
    extractive = demo_rules_engine.ask(RETURNS, now=now, k=5).to_json()
    payload = ask(demo_rules_engine, text, now=now)
    assert payload["generation"]["used"] is True, payload["generation"]
    assert payload["answer"] == text and payload["status"] == extractive["status"]
    assert payload["evidence"] == extractive["evidence"]
    assert payload["upcoming"] == extractive["upcoming"]


def test_without_llm_nothing_changes(demo_rules_engine: Engine) -> None:
    answer = demo_rules_engine.ask(RETURNS, now=DEMO_NOW)
    assert "generation" not in answer.to_json()
    assert demo_rules_engine.generate(answer) is answer


def test_generate_false_leaves_the_model_out(demo_rules_engine: Engine) -> None:
    with RecordedLLM(Reply("45 days [returns-2024]")) as llm:
        demo_rules_engine.llm = OpenAIChat(llm.url)
        try:
            answer = demo_rules_engine.ask(RETURNS, now=DEMO_NOW, generate=False)
        finally:
            demo_rules_engine.llm = None
        assert llm.requests == [] and "generation" not in answer.to_json()


def test_an_engine_takes_the_endpoint_url(tmp_path: Any) -> None:
    with Engine(tmp_path / "kb.db", llm="http://127.0.0.1:9/v1") as engine:
        assert isinstance(engine.llm, OpenAIChat)
        assert engine.llm.url == "http://127.0.0.1:9/v1/chat/completions"
