"""The generator over HTTP: recorded llama.cpp responses carrying chosen texts, so each
validation rule and each endpoint failure is tested on the real wire format."""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronorag.answer.generate import messages_for, write_answer
from chronorag.answer.llm import Completion, Generator, Message
from chronorag.answer.openai_chat import OpenAIChat, completions_url
from chronorag.flags import Flag
from chronorag.model import Answer, AnswerStatus, Understanding

from .recorded_llm import RecordedLLM, Reply
from .test_decide import ev

NOW = datetime(2026, 11, 5, 9, 0, tzinfo=UTC)
Q = "How many days do I have to return an item?"
NEW = ev("policy-2026", "Customers may return items within 30 days of delivery.",
         valid_from="2026-11-01T00:00:00+00:00", title="Return policy 2026")
OLD = ev("policy-2025", "Customers may return items within 45 days.", applicable=False,
         flags=("superseded",), valid_from="2025-01-01T00:00:00+00:00",
         valid_to="2026-11-01T00:00:00+00:00")
SOON = ev("policy-2027", "From 1 January 2027 the window is 60 days.", applicable=False,
          flags=("not_yet_valid",), valid_from="2027-01-01T00:00:00+00:00")
ANSWER = Answer(Q, NOW, NOW, Understanding(Q, Q), AnswerStatus.ANSWERED, "30 days",
                evidence=(NEW, OLD), upcoming=(SOON,))


def written(reply: Reply, answer: Answer = ANSWER, **options: Any) -> Answer:
    with RecordedLLM(reply) as llm:
        return write_answer(answer, llm=OpenAIChat(llm.url, **options), tz=UTC)


def generation(answer: Answer) -> dict[str, Any]:
    info: dict[str, Any] = answer.to_json()["generation"]
    return info


def test_an_accepted_answer_replaces_the_short_answer() -> None:
    text = "You have 30 days from delivery [policy-2026]."
    out = written(Reply(text))
    assert (out.status, out.answer, out.flags) == (AnswerStatus.ANSWERED, text, ())
    info = generation(out)
    assert info["used"] is True and info["cited"] == ["policy-2026"]
    assert info["model"] == "SmolLM2-135M-Instruct" and info["problems"] == []
    assert info["extractive"] == {"status": "answered", "answer": "30 days"}
    assert out.evidence == ANSWER.evidence and out.upcoming == ANSWER.upcoming


@pytest.mark.parametrize(("text", "rule"), [
    ("You have 30 days [policy-2031].", "unknown_citation"),
    ("You have 31 days [policy-2026].", "number_not_in_evidence"),
    ("You have 45 days [policy-2025].", "cited_not_applicable"),
    ("From 1 January 2027 you have 60 days [policy-2027].", "cited_not_applicable"),
    ("You have 30 days.", "no_citation"),
])
def test_a_rejected_answer_is_uncertain_and_keeps_the_extractive_one(text: str,
                                                                    rule: str) -> None:
    out = written(Reply(text))
    assert out.status is AnswerStatus.UNCERTAIN
    assert out.answer == "30 days" and out.flags == (Flag.GENERATED_ANSWER_REJECTED,)
    info = generation(out)
    assert info["used"] is False and info["text"] == text
    assert rule in [p["rule"] for p in info["problems"]]


def test_an_uncertain_answer_stays_uncertain() -> None:
    unsure = replace(ANSWER, status=AnswerStatus.UNCERTAIN, flags=("owners_disagree",))
    out = written(Reply("You have 30 days [policy-2026]."), unsure)
    assert out.status is AnswerStatus.UNCERTAIN
    assert out.answer == "You have 30 days [policy-2026]." and out.flags == ("owners_disagree",)


def test_nothing_found_is_not_sent_to_the_model() -> None:
    empty = replace(ANSWER, status=AnswerStatus.NOT_FOUND, answer=None, evidence=(),
                    upcoming=())
    with RecordedLLM(Reply("invented [x]")) as llm:
        out = write_answer(empty, llm=OpenAIChat(llm.url), tz=UTC)
        assert llm.requests == []
    assert (out.status, out.answer) == (AnswerStatus.NOT_FOUND, None)
    assert generation(out)["used"] is False


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/v1"


@pytest.mark.parametrize(("reply", "said"), [
    (Reply(status=500, raw='{"error": {"message": "model crashed"}}'), "HTTP 500"),
    (Reply(raw="{not json"), "not a chat completion"),
    (Reply(raw='{"choices": []}'), "not a chat completion"),
    (Reply(raw='{"choices": [{"message": {"content": null}}]}'), "not a chat completion"),
    (Reply("late [policy-2026]", delay_s=3.0), "no answer within 0.5 s"),
])
def test_endpoint_failures_keep_the_extractive_answer_with_a_flag(reply: Reply,
                                                                 said: str) -> None:
    out = written(reply, timeout_s=0.5)
    assert (out.status, out.answer, out.flags) == (AnswerStatus.ANSWERED, "30 days",
                                                   (Flag.GENERATION_FAILED,))
    info = generation(out)
    assert info["used"] is False and said in info["error"]


def test_an_unreachable_endpoint_is_a_flag_not_a_crash() -> None:
    out = write_answer(ANSWER, llm=OpenAIChat(_closed_port(), timeout_s=2), tz=UTC)
    assert out.flags == (Flag.GENERATION_FAILED,) and "ConnectError" in generation(out)["error"]


def test_streaming_hands_over_each_piece_before_the_check() -> None:
    text = "You have 30 days from delivery [policy-2026]."
    pieces: list[str] = []
    with RecordedLLM(Reply(text)) as llm:
        out = write_answer(ANSWER, llm=OpenAIChat(llm.url), tz=UTC, on_text=pieces.append)
        assert llm.requests[0]["stream"] is True
    assert len(pieces) > 3 and "".join(pieces) == text == out.answer


def test_the_request_carries_times_ids_validity_and_upcoming() -> None:
    with RecordedLLM(Reply("30 days [policy-2026]")) as llm:
        write_answer(ANSWER, llm=OpenAIChat(llm.url, model="smol", api_key="k-1"), tz=UTC)
        body, headers = llm.requests[0], llm.headers[0]
    assert body["model"] == "smol" and body["temperature"] == 0
    assert headers["Authorization"] == "Bearer k-1"
    prompt = body["messages"][1]["content"]
    assert "As of: 2026-11-05T09:00:00+00:00 (asked 2026-11-05T09:00:00+00:00)" in prompt
    assert "[policy-2026] Return policy 2026" in prompt
    assert "applicable: no\nflags: superseded" in prompt
    assert "valid_to: 2026-11-01T00:00:00+00:00" in prompt
    assert "Upcoming versions" in prompt and "policy-2027" in prompt
    assert body["messages"][0]["role"] == "system" and "cite" in body["messages"][0]["content"]


def test_the_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHRONORAG_LLM_KEY", "from-env")
    with RecordedLLM(Reply("30 days [policy-2026]")) as llm:
        chat = OpenAIChat(llm.url)
        write_answer(ANSWER, llm=chat, tz=UTC)
        assert llm.headers[0]["Authorization"] == "Bearer from-env"
        assert "from-env" not in repr(chat)
        assert "model" not in llm.requests[0]


class Raising:
    def complete(self, messages: Sequence[Message], *,
                 on_text: Callable[[str], None] | None = None) -> Completion:
        raise RuntimeError("plug-in bug")


def test_a_failing_plug_in_is_a_flag_not_a_crash() -> None:
    assert isinstance(Raising(), Generator)
    out = write_answer(ANSWER, llm=Raising(), tz=UTC)
    assert out.flags == (Flag.GENERATION_FAILED,)
    assert "RuntimeError: plug-in bug" in generation(out)["error"]


def test_completions_urls() -> None:
    assert completions_url("http://h:8080") == "http://h:8080/v1/chat/completions"
    assert completions_url("http://h:8080/v1/") == "http://h:8080/v1/chat/completions"
    assert completions_url("https://h/api/v1/chat/completions") == \
        "https://h/api/v1/chat/completions"
    assert completions_url("http://h:11434/v1") == "http://h:11434/v1/chat/completions"
    for bad in ("h:8080", "ftp://h/v1", "", "http://"):
        with pytest.raises(ValueError, match="not an http"):
            completions_url(bad)


class Fixed:
    """A generator that writes a given text (in-process: the property needs speed)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def complete(self, messages: Sequence[Message], *,
                 on_text: Callable[[str], None] | None = None) -> Completion:
        return Completion(self.text)


_IDS = st.sampled_from(["policy-2026", "policy-2025", "policy-2027", "policy-2026#0", "x"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.text(max_size=40), _IDS.map(lambda i: f"[{i}]")), max_size=8))
def test_no_used_answer_cites_a_version_that_does_not_apply(parts: list[str]) -> None:
    out = write_answer(ANSWER, llm=Fixed(" ".join(parts)), tz=UTC)
    info = generation(out)
    applicable = {e.doc_id for e in out.evidence if e.applicable} | {
        e.chunk_id for e in out.evidence if e.applicable}
    if info["used"]:
        assert set(info["cited"]) <= applicable and info["cited"]
        assert out.status is AnswerStatus.ANSWERED
    else:
        assert out.answer == "30 days" and out.status is AnswerStatus.UNCERTAIN


def test_messages_name_every_item() -> None:
    text = messages_for(ANSWER)[1]["content"]
    assert all(f"{e.doc_id}" in text for e in (NEW, OLD, SOON))
