"""The served answers with the shipped models: exactly the engine's, for every asker."""

from __future__ import annotations

import json

import pytest
from serving import SHANGHAI, Served

from chronorag.demo import DEMO_NOW, QUESTIONS
from chronorag.engine import Engine

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("question", [q for q, _ in QUESTIONS])
def test_served_answer_is_the_engines(served: Served, question: str) -> None:
    with served.client(served.user_key) as client:
        got = client.post("/v1/ask", json={"question": question, "k": 3}).json()
    with Engine(served.db, tz=SHANGHAI) as engine:
        direct = engine.ask(question, now=DEMO_NOW, user="me", k=3).to_json()
    assert got == json.loads(json.dumps(direct, ensure_ascii=False))


def test_a_first_person_policy_question_reaches_the_policy(served: Served) -> None:
    # Every key asks as its user; "I" alone must not narrow the search to their records.
    with served.client(served.user_key) as client:
        got = client.post("/v1/ask", json={
            "question": "How many days do I have to return an item?"}).json()
        later = client.post("/v1/ask", json={
            "question": "How many days do I have to return an item?",
            "as_of": "2026-12-20T10:00:00"}).json()
    assert got["status"] == "answered" and "45" in got["answer"]
    assert got["evidence"][0]["doc_id"] == "returns-2024"
    assert [u["doc_id"] for u in got["upcoming"]] == ["returns-2026"]
    assert "21" in later["answer"] and later["evidence"][0]["doc_id"] == "returns-2026"
