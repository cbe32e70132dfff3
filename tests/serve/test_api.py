"""The HTTP API over a real server: keys, the contract of each endpoint, errors as JSON."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from serving import NOW, Limits, Served, running

from chronorag.engine import Engine

QUESTION = "How many days do I have to return an item?"


def _error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()["error"]
    assert body["status"] == status and body["code"] == code
    assert "Traceback" not in response.text and 'File "' not in response.text
    return dict(body)


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nonsense", "Basic abc",
                                    "Bearer crk_00000000_forged"])
def test_without_a_live_key_every_v1_route_is_401(fast_served: Served,
                                                  header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header}
    with httpx.Client(base_url=fast_served.url, headers=headers, timeout=120.0) as client:
        for method, path in [("GET", "/v1/whoami"), ("POST", "/v1/ask"),
                             ("GET", "/v1/time?expression=today"),
                             ("GET", "/v1/documents/refund-2025"), ("GET", "/v1/review")]:
            response = client.request(method, path, json={"question": QUESTION})
            body = _error(response, 401, "unauthorized")
            assert response.headers["www-authenticate"] == "Bearer"
            assert "keys add" in body["message"] or "revoked" in body["message"]


def test_a_revoked_key_is_401(fast_served: Served) -> None:
    with fast_served.client(fast_served.keys["revoked"]) as client:
        _error(client.get("/v1/whoami"), 401, "unauthorized")


def test_whoami_names_the_keys_user(fast_served: Served) -> None:
    with fast_served.client(fast_served.admin_key) as client:
        me = client.get("/v1/whoami").json()
    assert (me["user"], me["admin"]) == ("me", True)
    with fast_served.client(fast_served.keys["mom"]) as client:
        assert client.get("/v1/whoami").json()["admin"] is False


def test_ask_is_exactly_the_engines_answer(fast_served: Served) -> None:
    body = {"question": QUESTION, "now": "2026-11-25T10:00:00", "k": 3,
            "tz": "Asia/Shanghai"}
    with fast_served.client(fast_served.user_key) as client:
        served = client.post("/v1/ask", json=body).json()
    with Engine(fast_served.db, tz=fast_served.service.tz, config="hybrid") as engine:
        direct = engine.ask(QUESTION, now=NOW, user="me", k=3).to_json()
    assert served == json.loads(json.dumps(direct, ensure_ascii=False))
    assert served["now"] == "2026-11-25T10:00:00+08:00"


def test_ask_without_now_uses_the_servers_clock(fast_served: Served) -> None:
    with fast_served.client(fast_served.user_key) as client:
        served = client.post("/v1/ask", json={"question": QUESTION}).json()
    assert served["now"] == NOW.isoformat()


@pytest.mark.parametrize(("body", "field"), [
    ({"question": ""}, "question"),
    ({"question": QUESTION, "k": 0}, "k"),
    ({"question": QUESTION, "now": "yesterday"}, "now"),
    ({"question": QUESTION, "tz": "Mars/Olympus"}, "tz"),
    ({"question": QUESTION, "user": "mom"}, "user"),  # the key decides who asks
    ({}, "question"),
])
def test_bad_ask_bodies_are_422_naming_the_field(fast_served: Served, body: dict[str, Any],
                                                 field: str) -> None:
    with fast_served.client(fast_served.user_key) as client:
        error = _error(client.post("/v1/ask", json=body), 422, "invalid_request")
    assert any(field in e["field"] for e in error["errors"]), error


def test_time_mirrors_the_cli(fast_served: Served) -> None:
    with fast_served.client(fast_served.user_key) as client:
        got = client.get("/v1/time", params={"expression": "上周二",
                                              "now": "2026-11-25T10:00:00+08:00"}).json()
        assert got == {"text": "上周二", "start": "2026-11-17T00:00:00+08:00",
                       "end": "2026-11-18T00:00:00+08:00", "granularity": "day"}
        _error(client.get("/v1/time", params={"expression": "not a time at all"}), 422,
               "invalid_time")
        found = client.post("/v1/time/extract", json={
            "text": "From 2004 to 2009, then 上周二.", "now": "2026-11-25T10:00:00+08:00"})
    assert [e["text"] for e in found.json()["expressions"]][-1] == "上周二"


def test_context_packs_the_semantic_layer(fast_served: Served) -> None:
    with fast_served.client(fast_served.user_key) as client:
        pack = client.post("/v1/context", json={"question": "华东 GMV 趋势",
                                                 "budget": 400}).json()
        assert pack["question"] == "华东 GMV 趋势"
        error = _error(client.post("/v1/context", json={"question": "x",
                                                        "shares": {"nonsense": 1.0}}),
                       422, "invalid_request")
    assert "nonsense" in error["message"]


def test_unknown_routes_and_methods_are_json(fast_served: Served) -> None:
    with fast_served.client(fast_served.user_key) as client:
        _error(client.get("/v1/nothing-here"), 404, "not_found")
        _error(client.put("/v1/ask", json={}), 405, "method_not_allowed")


def test_health_docs_and_page_need_no_key(fast_served: Served) -> None:
    with httpx.Client(base_url=fast_served.url, timeout=120.0) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert "/v1/ask" in client.get("/openapi.json").json()["paths"]
        assert client.get("/docs").status_code == 200
        page = client.get("/")
        assert page.status_code == 200 and "<html" in page.text.lower()


def test_a_question_over_the_time_limit_is_a_503(fast_served: Served) -> None:
    # The client waits as long as the other tests' (``Served.client``): what is tested is
    # the server's 503, not how soon a loaded machine sends it.
    with running(fast_served.service, clock=lambda: NOW,
                 limits=Limits(read_s=0.000001)) as url, httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {fast_served.user_key}"},
            timeout=120.0,
    ) as client:
        error = _error(client.post("/v1/ask", json={"question": QUESTION}), 503, "timeout")
        assert "retry" in error["message"]
        assert client.get("/v1/time", params={"expression": "today"}).status_code == 200


def test_an_internal_error_is_json_without_a_traceback(
        fast_served: Served, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals /home/x/store.py line 3")

    monkeypatch.setattr(fast_served.service, "document", broken)
    with fast_served.client(fast_served.user_key) as client:
        error = _error(client.get("/v1/documents/returns-2024"), 500, "internal")
    assert "RuntimeError" in error["message"] and "secret" not in error["message"]
    assert "secret internals" in caplog.text  # the log keeps what the answer does not
