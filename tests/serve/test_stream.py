"""``POST /v1/ask/stream`` and ``/v1/ask`` with an llm, over a real server and a replaying
llama.cpp endpoint: the events and their order, the final answer equal to ``/v1/ask``'s,
errors before and after the stream starts, privacy, and a slow model off the turn."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from serving import NOW, SHANGHAI, Limits, Served, running
from test_privacy_walk import QUESTIONS, RECORDS, USERS, assert_no_denied

from chronorag.answer.llm import Generator
from chronorag.answer.openai_chat import OpenAIChat
from chronorag.serve.service import Service

from ..answer.recorded_llm import RecordedLLM, Reply
from ..conftest import NO_MODEL_RULES

QUESTION = "How many days do I have to return an item?"
# Validity rules on (supersession decides what may be cited), no model to load.
VALID = NO_MODEL_RULES
# At NOW (2026-11-25) the 2024 policy applies: 45 days. From 2026-12-01 the 2026 edition
# supersedes it (21 days), so on 2026-12-20 citing returns-2024 is citing a dead rule.
ACCEPTED = "You have 45 days from delivery to return an unused item [returns-2024]."
SUPERSEDED = "You have 45 days to return an item [returns-2024]."
Events = list[tuple[str, Any]]


def parse_sse(text: str) -> Events:
    """``(event, data as JSON)`` of each event of a ``text/event-stream`` body, by the
    WHATWG rules: fields up to a blank line, ``data`` lines joined, comments skipped."""
    events: Events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = "message", []
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
        if data:
            events.append((name, json.loads("\n".join(data))))
    return events


def stream(client: httpx.Client, body: dict[str, Any]) -> Events:
    with client.stream("POST", "/v1/ask/stream", json=body) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-cache"
        assert response.headers["x-accel-buffering"] == "no"
        text = response.read().decode("utf-8")
    events = parse_sse(text)
    # One data line per event: every payload is JSON on a single line.
    assert text.count("\ndata: ") + text.startswith("data: ") == len(events), text
    return events


def names(events: Events) -> list[str]:
    return [name for name, _ in events]


def without_ms(answer: dict[str, Any]) -> dict[str, Any]:
    # The model's time is measured per request; everything else must be equal.
    generation = {k: v for k, v in answer.get("generation", {}).items() if k != "ms"}
    return {**answer, "generation": generation} if "generation" in answer else answer


@contextmanager
def serving(base: Served, llm: Generator | None, *, read_s: float = 30.0
            ) -> Iterator[Served]:
    """A server over ``base``'s store and keys whose answers ``llm`` writes."""
    service = Service(str(base.db), tz=SHANGHAI, config=VALID, llm=llm)
    try:
        with running(service, clock=lambda: NOW, limits=Limits(read_s=read_s)) as url:
            yield Served(url, service, base.db, base.keys)
    finally:
        service.close()


@contextmanager
def with_model(base: Served, reply: Any) -> Iterator[tuple[Served, RecordedLLM]]:
    with RecordedLLM(reply) as llm, serving(base, OpenAIChat(llm.url, timeout_s=20)) as s:
        yield s, llm


def test_without_an_llm_the_stream_is_the_evidence_then_the_answer(
        fast_served: Served) -> None:
    with serving(fast_served, None) as served, served.client(served.user_key) as client:
        events = stream(client, {"question": QUESTION, "k": 3})
        asked = client.post("/v1/ask", json={"question": QUESTION, "k": 3}).json()
    assert names(events) == ["evidence", "answer"]
    assert events[1][1] == asked == events[0][1]
    assert "generation" not in asked and asked["answer"] == "45 days"


def test_an_accepted_answer_streams_as_the_model_writes_it(fast_served: Served) -> None:
    with with_model(fast_served, Reply(ACCEPTED)) as (served, llm), \
            served.client(served.user_key) as client:
        events = stream(client, {"question": QUESTION})
        asked = client.post("/v1/ask", json={"question": QUESTION}).json()
    assert names(events) == ["evidence", *["delta"] * len(ACCEPTED.split(" ")), "answer"]
    evidence, answer = events[0][1], events[-1][1]
    assert "generation" not in evidence and evidence["answer"] == "45 days"
    deltas = "".join(data["text"] for name, data in events if name == "delta")
    assert deltas == answer["generation"]["text"] == answer["answer"] == ACCEPTED
    assert answer["generation"]["used"] is True and answer["status"] == "answered"
    assert without_ms(answer) == without_ms(asked)  # /v1/ask: the same, with generation
    assert [r["stream"] for r in llm.requests] == [True, False]


def test_a_rejected_answer_keeps_the_extractive_one(fast_served: Served) -> None:
    body = {"question": QUESTION, "as_of": "2026-12-20T10:00:00"}
    with with_model(fast_served, Reply(SUPERSEDED)) as (served, _), \
            served.client(served.user_key) as client:
        events = stream(client, body)
        asked = client.post("/v1/ask", json=body).json()
    evidence, answer = events[0][1], events[-1][1]
    assert names(events)[-1] == "answer" and evidence["answer"] == "21 days"
    assert answer["status"] == "uncertain" and answer["answer"] == evidence["answer"]
    assert "generated_answer_rejected" in answer["flags"]
    assert answer["generation"]["used"] is False
    assert "returns-2024" in json.dumps(answer["generation"]["problems"])
    assert without_ms(answer) == without_ms(asked)


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_endpoint_that_is_down_still_ends_with_the_answer(fast_served: Served) -> None:
    down = OpenAIChat(f"http://127.0.0.1:{_closed_port()}/v1", timeout_s=5)
    with serving(fast_served, down) as served, served.client(served.user_key) as client:
        events = stream(client, {"question": QUESTION})
    assert names(events) == ["evidence", "answer"]
    evidence, answer = events[0][1], events[-1][1]
    assert "generation_failed" in answer["flags"] and "error" in answer["generation"]
    assert (answer["status"], answer["answer"]) == (evidence["status"], evidence["answer"])


def _json_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]["code"] == code


def test_refusals_before_the_stream_are_json_not_streams(fast_served: Served) -> None:
    with with_model(fast_served, Reply(ACCEPTED)) as (served, llm):
        with httpx.Client(base_url=served.url, timeout=120.0) as anonymous:
            _json_error(anonymous.post("/v1/ask/stream", json={"question": QUESTION}),
                        401, "unauthorized")
        with served.client(served.keys["revoked"]) as client:
            _json_error(client.post("/v1/ask/stream", json={"question": QUESTION}),
                        401, "unauthorized")
        with served.client(served.user_key) as client:
            _json_error(client.post("/v1/ask/stream", json={"question": ""}),
                        422, "invalid_request")
            _json_error(client.post("/v1/ask/stream", json={"question": QUESTION,
                                                            "user": "mom"}),
                        422, "invalid_request")
    assert llm.requests == []
    with serving(fast_served, None, read_s=0.000001) as busy, \
            busy.client(busy.user_key) as client:
        _json_error(client.post("/v1/ask/stream", json={"question": QUESTION}),
                    503, "timeout")


def test_a_failure_after_the_start_ends_the_stream_with_an_error_event(
        fast_served: Served, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals /home/x/check.py")

    with with_model(fast_served, Reply(ACCEPTED)) as (served, _), \
            served.client(served.user_key) as client:
        monkeypatch.setattr(served.service, "generate", broken)
        events = stream(client, {"question": QUESTION})
        assert client.get("/healthz").status_code == 200
    assert names(events) == ["evidence", "error"]
    error = events[-1][1]["error"]
    assert (error["status"], error["code"]) == (500, "internal")
    assert "RuntimeError" in error["message"] and "secret" not in json.dumps(events)
    assert "secret internals" in caplog.text


def _echo(body: dict[str, Any]) -> Reply:
    # The "model" writes back everything it was shown: the stream then carries the
    # whole prompt, and a record the asker may not see would show in it.
    return Reply(" ".join(m["content"] for m in body["messages"]))


@pytest.mark.parametrize("kind", ["admin", "me", "mom", "dad", "stranger"])
def test_a_stream_carries_no_record_denied_to_its_asker(fast_served: Served,
                                                        kind: str) -> None:
    others = " ".join(d.text for d in fast_served.service.reader.store.documents()
                      if d.id not in {r["id"] for r in RECORDS})
    with with_model(fast_served, _echo) as (served, llm), \
            served.client(served.keys[kind]) as client:
        for question in QUESTIONS:
            with client.stream("POST", "/v1/ask/stream",
                               json={"question": question, "k": 10}) as response:
                text = response.read().decode("utf-8")
            assert parse_sse(text)[-1][0] == "answer", text[-300:]
            assert_no_denied(text, USERS[kind], asked=question, others=others)
    assert_no_denied(json.dumps(llm.requests, ensure_ascii=False), USERS[kind],
                     asked=" ".join(QUESTIONS), others=others)
    assert len(llm.requests) >= 1


def test_a_slow_model_does_not_hold_up_the_next_question(fast_served: Served) -> None:
    slow = "How long does standard shipping take?"

    def reply(body: dict[str, Any]) -> Reply:
        prompt = body["messages"][-1]["content"]
        return Reply(ACCEPTED, delay_s=1.5 if slow in prompt else 0.0)

    with with_model(fast_served, reply) as (served, _), \
            served.client(served.user_key) as client:
        started = time.monotonic()
        with client.stream("POST", "/v1/ask/stream", json={"question": slow}) as response:
            lines = response.iter_lines()
            assert next(lines) == "event: evidence"
            next(lines), next(lines)  # its data, the blank line: the turn is over
            other = client.post("/v1/ask", json={"question": QUESTION}).json()
            answered = time.monotonic() - started
            rest = parse_sse("\n".join(lines))
        finished = time.monotonic() - started
    assert other["generation"]["used"] is True and other["answer"] == ACCEPTED
    assert rest[-1][0] == "answer"
    assert finished >= 1.5 and answered < finished - 0.5, (answered, finished)


def test_a_client_that_leaves_mid_answer_frees_the_server(
        fast_served: Served, caplog: pytest.LogCaptureFixture) -> None:
    def reply(body: dict[str, Any]) -> Reply:
        return Reply(ACCEPTED, delay_s=1.0 if body.get("stream") else 0.0)

    with with_model(fast_served, reply) as (served, _):
        with served.client(served.user_key) as client, \
                client.stream("POST", "/v1/ask/stream", json={"question": QUESTION}) as r:
            assert next(r.iter_lines()) == "event: evidence"
        with served.client(served.user_key) as client:
            started = time.monotonic()
            answer = client.post("/v1/ask", json={"question": QUESTION}).json()
            assert time.monotonic() - started < 1.0  # the turn was not left held
            assert answer["answer"] == ACCEPTED
            time.sleep(1.2)  # the abandoned generation ends meanwhile
            assert client.get("/healthz").status_code == 200
        metrics = httpx.get(f"{served.url}/metrics").text
    assert ('chronorag_requests_total{endpoint="/v1/ask/stream",method="POST",'
            'status="200"} 1.0') in metrics
    assert "Traceback" not in caplog.text and "internal error" not in caplog.text


def test_the_stream_is_in_the_openapi_document(fast_served: Served) -> None:
    spec = httpx.get(f"{fast_served.url}/openapi.json").json()
    operation = spec["paths"]["/v1/ask/stream"]["post"]
    assert operation["tags"] == ["ask"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"] \
        .endswith("/AskBody")


@pytest.mark.slow
def test_a_real_model_streams_and_its_answer_is_checked(fast_served: Served,
                                                        smollm2_url: str) -> None:
    model = OpenAIChat(smollm2_url, max_tokens=60, timeout_s=120)
    with serving(fast_served, model) as served, served.client(served.user_key) as client:
        events = stream(client, {"question": QUESTION, "as_of": "2026-12-20"})
    assert names(events)[0] == "evidence" and names(events)[-1] == "answer"
    answer = events[-1][1]
    info = answer["generation"]
    assert info["model"] == "SmolLM2-135M-Instruct" and "error" not in info
    assert "".join(data["text"] for name, data in events if name == "delta") == info["text"]
    applicable = {e["doc_id"] for e in answer["evidence"] if e["applicable"]}
    if info["used"]:
        assert set(info["cited"]) <= applicable and answer["answer"] == info["text"].strip()
    else:
        assert answer["status"] == "uncertain"
        assert answer["answer"] == events[0][1]["answer"]  # the extractive one
