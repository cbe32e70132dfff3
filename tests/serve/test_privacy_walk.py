"""Every endpoint, every kind of key: no record denied to a key's user appears in any
response, error or metric.

"Denied" comes from the corpus files alone: a record with a ``subject`` is visible to that
subject and to the readers people.json grants it to (``{READER: [SUBJECT, ...]}``). An
admin key may write, read the review and fetch any document by id; its questions follow
its user's privacy like any key's.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from serving import CASES, Served

from chronorag.demo import demo_corpus

_FAMILY = [json.loads(line) for line in (CASES / "people" / "records.jsonl")
           .read_text(encoding="utf-8").splitlines() if line]
_DEMO = [json.loads(line) for line in (demo_corpus() / "records.jsonl")
         .read_text(encoding="utf-8").splitlines() if line]
RECORDS = _FAMILY + _DEMO
ACCESS: dict[str, list[str]] = json.loads(
    (CASES / "people" / "people.json").read_text(encoding="utf-8"))["access"]
KEYS = ("admin", "me", "mom", "dad", "stranger", "revoked")
USERS = {"admin": "me", "me": "me", "mom": "mom", "dad": "dad", "stranger": "stranger",
         "revoked": None}
QUESTIONS = ["上周二我几点吃的午饭？", "爸爸上周二几点吃的午饭？", "妈妈上周四几点去的医院？",
             "What did Amy eat last Tuesday?", "奶奶的血压是多少？", "Qiang coffee",
             "How many days do I have to return an item?", "dad-lunch-1117"]


def denied(user: str | None) -> list[dict[str, Any]]:
    readable = set() if user is None else {user, *ACCESS.get(user, [])}
    return [r for r in RECORDS if r.get("subject") and r["subject"] not in readable]


def _windows(text: str, size: int = 8) -> set[str]:
    return {text[i:i + size] for i in range(max(len(text) - size + 1, 1))}


def assert_no_denied(output: str, user: str | None, *, asked: str = "",
                     others: str = "") -> None:
    """No id of a denied record, nor a piece of its text that no visible document
    (``others``: the texts of everything else stored) or the request itself holds."""
    visible = " ".join(r["text"] for r in RECORDS if r not in denied(user)) + asked + others
    for record in denied(user):
        assert record["id"] not in output.replace(asked, ""), record["id"]
        leaked = [w for w in _windows(record["text"]) if w in output and w not in visible]
        assert not leaked, (record["id"], leaked[:3])


def _walk(client: httpx.Client) -> list[tuple[httpx.Response, str]]:
    """Each reading endpoint's response and what the request itself said."""
    responses = [(client.post("/v1/ask", json={"question": q, "k": 10}), q)
                 for q in QUESTIONS]
    responses.append((client.post("/v1/context", json={"question": "华东 GMV 趋势"}), ""))
    responses.append((client.get("/v1/time", params={"expression": "上周二"}), ""))
    responses.append((client.post("/v1/time/extract", json={"text": "上周二和昨天"}), ""))
    responses.append((client.get("/v1/whoami"), ""))
    return responses


def _writes(client: httpx.Client, record_id: str) -> list[httpx.Response]:
    """Each writing endpoint, as a key that may not write would try it."""
    return [client.delete(f"/v1/documents/{record_id}"),
            client.post("/v1/people", content=b'{"people": [], "access": {}}'),
            client.post("/v1/documents?name=x.jsonl", content=b'{"id": "x", "text": "t"}\n',
                        headers={"Content-Type": "application/x-ndjson"})]


def _public_texts(served: Served) -> str:
    ids = {r["id"] for r in RECORDS}
    return " ".join(d.text for d in served.service.reader.store.documents() if d.id not in ids)


@pytest.mark.parametrize("kind", KEYS)
def test_no_denied_record_in_any_response(fast_served: Served, kind: str) -> None:
    user = USERS[kind]
    others = _public_texts(fast_served)
    with fast_served.client(fast_served.keys[kind]) as client:
        for response, asked in _walk(client):
            assert response.status_code == (401 if kind == "revoked" else 200), response.text
            assert_no_denied(response.text, user, asked=asked, others=others)
        for record in RECORDS:
            response = client.get(f"/v1/documents/{record['id']}")
            if kind == "revoked":
                assert response.status_code == 401
            elif kind == "admin" or record not in denied(user):
                assert response.json()["text"] == record["text"]
            else:
                assert response.status_code == 403, (kind, record["id"])
                assert_no_denied(response.text, user, asked=record["id"])
            assert "Traceback" not in response.text
        review = client.get("/v1/review")
        if kind != "admin":
            assert review.status_code in (401, 403)
            assert_no_denied(review.text, user)
            for record in denied(user)[:3]:
                for response in _writes(client, record["id"]):
                    assert response.status_code in (401, 403), response.text
                    assert_no_denied(response.text, user, asked=record["id"])


def test_a_hidden_record_and_a_missing_one_are_refused_alike(fast_served: Served) -> None:
    hidden = denied("stranger")[0]["id"]
    with fast_served.client(fast_served.keys["stranger"]) as client:
        a = client.get(f"/v1/documents/{hidden}").json()["error"]
        b = client.get("/v1/documents/no-such-document").json()["error"]
    assert a["message"].replace(hidden, "ID") == b["message"].replace("no-such-document", "ID")


def test_metrics_count_endpoints_and_name_no_record(fast_served: Served) -> None:
    with fast_served.client(fast_served.keys["stranger"]) as client:
        for record in RECORDS:
            client.get(f"/v1/documents/{record['id']}")
        client.post("/v1/ask", json={"question": "爸爸上周二几点吃的午饭？"})
    text = httpx.get(f"{fast_served.url}/metrics").text
    assert 'endpoint="/v1/documents/{doc_id:path}"' in text
    assert 'chronorag_requests_total{endpoint="/v1/ask",method="POST",status="200"}' in text
    assert 'chronorag_errors_total{endpoint="/v1/documents/{doc_id:path}",status="403"}' \
        in text
    assert "chronorag_request_seconds_bucket" in text
    for record in RECORDS:
        assert record["id"] not in text
    assert "午饭" not in text and "stranger" not in text
