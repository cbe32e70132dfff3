"""What the HTTP API answers, byte for byte against its recordings
(``tests/contract_golden.py``): status line, content type and body of every JSON route,
over a real server on the recorded store with the default pipeline's rules and no
model (``NO_MODEL_RULES``). Each recording starts with ``STATUS CONTENT-TYPE``. Every
answer also conforms to the schema its route declares in /openapi.json, key for key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from pydantic import TypeAdapter
from serving import Limits, Served, make_keys, running

from chronorag.demo import DEMO_NOW, demo_people
from chronorag.serve.responses import ERROR
from chronorag.serve.routes import ANSWER, router
from chronorag.serve.service import Service

from ..conftest import NO_MODEL_RULES
from ..contract_golden import (
    GOLDEN,
    NOW,
    QUESTIONS,
    ZONE,
    Asked,
    build_store,
    check,
    shows,
    without_models,
)

ASKED = [a for a in QUESTIONS if not a.admin]  # an API key never sees as an admin


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("contract") / "kb.db"
    with without_models():
        build_store(db)
        keys = make_keys(db)
        service = Service(str(db), tz=DEMO_NOW.tzinfo, config=NO_MODEL_RULES)  # type: ignore[arg-type]
        try:
            with running(service, clock=lambda: DEMO_NOW,
                         limits=Limits(body_bytes=2 * 1024 * 1024, read_s=60)) as url:
                yield Served(url, service, db, keys)
        finally:
            service.close()


def _key_id(key: str) -> str:
    return key.split("_")[1]  # crk_<id>_<secret>


def declared(method: str, path: str, status: int) -> Any:
    """The schema the route answering ``method path`` declares for ``status``."""
    for route in router.routes:
        assert isinstance(route, APIRoute)
        if method in route.methods and route.path_regex.match(path):
            return route.response_model if status == 200 else ERROR
    raise AssertionError(f"no route {method} {path}")


def conforms(schema: Any, body: str) -> None:
    """``body`` is valid under ``schema`` (no key it does not declare) and reads back as
    it was: the declaration describes exactly what was sent."""
    adapter = TypeAdapter(schema)
    assert adapter.dump_python(adapter.validate_json(body, strict=True), mode="json") == \
        json.loads(body)


def _recorded(server: Served, response: httpx.Response) -> str:
    """Status, content type and body; a key's id (random) said as ``<key id>``. A JSON
    answer of a ``/v1`` route is checked against its declared schema first."""
    request = response.request
    if request.url.path.startswith("/v1/") and not request.url.path.endswith("/stream"):
        conforms(declared(request.method, request.url.path, response.status_code),
                 response.text)
    kind = response.headers.get("content-type", "")
    text = f"{response.status_code} {kind}\n{response.text}"
    for key in server.keys.values():
        text = text.replace(_key_id(key), "<key id>")
    return text


def _ask_body(asked: Asked) -> dict[str, Any]:
    body: dict[str, Any] = {"question": asked.question, "now": NOW, "tz": ZONE}
    if asked.as_of is not None:
        body["as_of"] = asked.as_of
    return body


@pytest.mark.parametrize("asked", ASKED, ids=[a.name for a in ASKED])
def test_ask(server: Served, asked: Asked) -> None:
    with server.client(server.user_key) as client:
        response = client.post("/v1/ask", json=_ask_body(asked))
    assert response.status_code == 200, response.text
    assert shows(asked, response.json()), f"{asked.name} no longer shows {asked.shows}"
    check(f"http/ask_{asked.name}.txt", _recorded(server, response))


def test_ask_stream(server: Served) -> None:
    with server.client(server.user_key) as client:
        response = client.post("/v1/ask/stream", json=_ask_body(QUESTIONS[0]))
    assert response.status_code == 200, response.text
    check("http/ask_stream_en_upcoming.txt", _recorded(server, response))


READS: dict[str, tuple[str, str, str, dict[str, Any] | None]] = {
    # name: (key, method, path, JSON body or query parameters)
    "documents_me": ("me", "GET", "/v1/documents", None),
    "documents_admin": ("admin", "GET", "/v1/documents", None),
    "document": ("me", "GET", "/v1/documents/returns-2026", None),
    "document_headings": ("me", "GET", "/v1/documents/handbook", None),
    "document_own_record": ("me", "GET", "/v1/documents/rec-001", None),
    "document_forbidden": ("me", "GET", "/v1/documents/rec-006", None),
    "document_missing": ("admin", "GET", "/v1/documents/no-such-doc", None),
    "time": ("me", "GET", "/v1/time", {"expression": "上周二", "now": NOW, "tz": ZONE}),
    "time_unreadable": ("me", "GET", "/v1/time", {"expression": "blursday", "now": NOW}),
    "time_extract": ("me", "POST", "/v1/time/extract", {
        "text": "Since 2013 we open every Monday; 上周二 we closed for three days.",
        "now": NOW, "tz": ZONE}),
    "context": ("me", "POST", "/v1/context", {"question": "华东 GMV 趋势", "now": NOW,
                                               "budget": 300}),
    "review": ("admin", "GET", "/v1/review", {"as_of": NOW}),
    "review_not_admin": ("me", "GET", "/v1/review", None),
    "ask_invalid": ("me", "POST", "/v1/ask", {"question": "", "k": 0}),
    "healthz": ("", "GET", "/healthz", None),
}


@pytest.mark.parametrize("name", list(READS))
def test_reads(server: Served, name: str) -> None:
    key, method, path, given = READS[name]
    query, body = (given, None) if method == "GET" else (None, given)
    with server.client(server.keys[key] if key else None) as client:
        response = client.request(method, path, params=query, json=body)
    check(f"http/{name}.txt", _recorded(server, response))


def test_unauthorized(server: Served) -> None:
    with server.client("crk_00000000_forged") as client:
        check("http/unauthorized.txt", _recorded(server, client.get("/v1/whoami")))


def test_whoami(server: Served) -> None:
    key = server.keys["me"]
    with server.client(key) as client:
        response = client.get("/v1/whoami")
    assert response.json()["id"] == _key_id(key)
    check("http/whoami.txt", _recorded(server, response))


def test_writes(server: Served, tmp_path: Path) -> None:
    """People, an upload, a rejected upload and a delete, in that order; the store ends
    as it began."""
    people = demo_people().read_text(encoding="utf-8")
    note = {"id": "contract-note", "title": "Canteen", "text": "The canteen opens at 11:30.",
            "valid_from": "2026-01-01", "owner": "facilities"}
    bad = {"id": "", "text": "no id", "valid_from": "yesterday-ish"}
    ndjson = {"content-type": "application/x-ndjson"}
    with server.client(server.admin_key) as client:
        responses = {
            "people": client.post("/v1/people", content=people.encode("utf-8")),
            "upload": client.post("/v1/documents?name=note.jsonl", headers=ndjson,
                                  content=json.dumps(note).encode("utf-8")),
            "upload_rejected": client.post("/v1/documents?name=bad.jsonl", headers=ndjson,
                                           content=json.dumps(bad).encode("utf-8")),
            "delete": client.delete("/v1/documents/contract-note"),
            "delete_missing": client.delete("/v1/documents/contract-note"),
        }
    assert responses["upload"].status_code == 200, responses["upload"].text
    for name, response in responses.items():
        check(f"http/{name}.txt", _recorded(server, response))


def test_no_recording_is_left_unchecked() -> None:
    """A recording no test produces pins nothing: remove it or check it."""
    produced = {f"ask_{a.name}" for a in ASKED} | set(READS) | {
        "ask_stream_en_upcoming", "unauthorized", "whoami", "people", "upload",
        "upload_rejected", "delete", "delete_missing"}
    assert {p.name for p in (GOLDEN / "http").iterdir()} == {f"{n}.txt" for n in produced}


@pytest.mark.parametrize("surface", ["cli", "mcp"])
def test_every_recorded_answer_conforms_to_the_apis_answer_schema(surface: str) -> None:
    """What ``ask --json`` and the MCP tool print is the API's ``Answer``, extras and
    written answers included."""
    recordings = sorted((GOLDEN / surface).glob("ask_*"))
    assert recordings
    for path in recordings:
        text = path.read_text("utf-8")
        if surface == "mcp":
            status, _, text = text.partition("\n")
            if status != "error: False":
                continue
        conforms(ANSWER, text)
