"""Conditions over HTTP: ``GET``/``POST /v1/conditions``, ``context`` on ``/v1/ask`` and a
key's user's attributes from the people directory (the rules, with no model)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

import pytest
from serving import CASES, FAST_CONFIG, NOW, Served, running
from test_api import _error

from chronorag.engine import Engine
from chronorag.serve.keys import add_key
from chronorag.serve.service import Service
from chronorag.store.sqlite import SQLiteStore
from conftest import register_test_embedders

QUESTION = "How many days do I have to return an item?"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    register_test_embedders()
    db = tmp_path_factory.mktemp("conditions") / "kb.db"
    with SQLiteStore(db) as store:
        store.set_setting("embedder", "test-hash")
        store.set_setting("judges", "")
    folder = CASES / "conditions"
    with Engine(db, config=FAST_CONFIG) as engine:
        for key, values in json.loads((folder / "declared.json").read_text()).items():
            engine.declare_condition(key, values)
        engine.ingest([folder / "corpus.jsonl"], now=NOW)
        engine.load_people(folder / "people.json")
    keys: dict[str, str] = {}
    with SQLiteStore(db) as store:
        for name, user, admin in [("admin", "ops", True), ("alice", "alice", False),
                                  ("anon", "anon", False)]:
            keys[name] = add_key(store, user=user, admin=admin, now=NOW)[1]
    service = Service(str(db), tz=UTC, config=FAST_CONFIG)
    try:
        with running(service, clock=lambda: NOW) as url:
            yield Served(url, service, db, keys)
    finally:
        service.close()


def _ask(served: Served, key: str, **body: object) -> dict[str, object]:
    with served.client(served.keys[key]) as client:
        response = client.post("/v1/ask", json={"question": QUESTION, "k": 10, **body})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_context_judges_the_documents(served: Served) -> None:
    answer = _ask(served, "anon", context={"region": "US"})
    assert answer["context"] == {"region": "US"}
    evidence = {e["doc_id"]: e for e in answer["evidence"]}  # type: ignore[attr-defined]
    assert evidence["returns-eu"]["applies_to"] == {"region": ["EU"]}
    assert "not_applicable" in evidence["returns-eu"]["flags"]
    assert not evidence["returns-eu"]["applicable"]
    assert "applies_to" not in evidence["returns"] and evidence["returns"]["applicable"]
    assert "context" not in _ask(served, "anon")


def test_the_keys_user_brings_their_attributes(served: Served) -> None:
    answer = _ask(served, "alice")
    assert answer["context"] == {"region": "EU"}
    assert answer["evidence"][0]["doc_id"] == "returns-eu"  # type: ignore[index]
    with served.client(served.keys["alice"]) as client:
        body = _error(client.post("/v1/ask", json={"question": QUESTION,
                                                    "context": {"region": "US"}}),
                      422, "invalid_condition")
    assert "'alice' has region=EU in the people directory" in body["message"]


def test_an_undeclared_key_is_422(served: Served) -> None:
    with served.client(served.keys["anon"]) as client:
        body = _error(client.post("/v1/ask", json={"question": QUESTION,
                                                    "context": {"regoin": "EU"}}),
                      422, "invalid_condition")
    assert "'regoin' is not declared; declared: region, segment" in body["message"]


def test_conditions_are_listed_and_declared_by_admins(served: Served) -> None:
    with served.client(served.keys["anon"]) as client:
        listed = client.get("/v1/conditions").json()
        assert listed == {"conditions": {"region": ["CN", "EU", "HK", "US"],
                                         "segment": ["business", "consumer"]}}
        _error(client.post("/v1/conditions", json={"key": "channel"}), 403, "forbidden")
    with served.client(served.keys["admin"]) as client:
        declared = client.post("/v1/conditions", json={"key": "region", "values": ["UK"]})
        assert declared.json()["conditions"]["region"] == ["CN", "EU", "HK", "UK", "US"]
        body = _error(client.post("/v1/conditions", json={"key": "bad key"}), 422,
                      "invalid_condition")
        assert "must be a word" in body["message"]


def test_people_with_undeclared_attributes_are_refused(served: Served, tmp_path: Path) -> None:
    people = {"people": [{"id": "bo", "name": "Bo", "attributes": {"tier": "gold"}}]}
    with served.client(served.keys["admin"]) as client:
        body = _error(client.post("/v1/people", content=json.dumps(people, indent=1)), 422,
                      "invalid_documents")
    assert "condition 'tier' is not declared" in json.dumps(body)


@pytest.mark.slow  # a real browser
def test_the_page_sends_the_askers_attributes_and_shows_each_condition(
        browser: object, served: Served) -> None:
    from browsing import browser_tab, expect

    with browser_tab(browser, served.url) as page:
        page.goto(served.url)
        page.get_by_test_id("key").fill(served.keys["anon"])
        expect(page.get_by_test_id("whoami")).to_contain_text("anon")
        page.get_by_test_id("now").fill("2026-06-01T12:00")
        page.get_by_test_id("context").fill("region=US")
        box = page.get_by_test_id("question")
        box.fill(QUESTION)
        box.press("Enter")
        page.wait_for_selector("#view-ask[data-state=done]", timeout=60_000)
        expect(page.get_by_test_id("asker-context")).to_have_text("asker region=US")
        eu = page.locator('[data-testid=evidence-card][data-doc-id="returns-eu"]')
        expect(eu).to_have_attribute("data-applicable", "false")
        expect(eu.get_by_test_id("applies-to")).to_have_text("for region: EU")
        expect(eu).to_have_attribute("data-flags", "not_applicable")
        general = page.locator('[data-testid=evidence-card][data-doc-id="returns"]')
        expect(general.get_by_test_id("applies-to")).to_have_count(0)
        page.get_by_test_id("context").fill("")
        box.fill("Compare the return window for EU and US customers.")
        box.press("Enter")
        parts = page.get_by_test_id("breakdown").get_by_test_id("part")
        expect(parts).to_have_count(2)
        expect(parts.nth(0)).to_contain_text("region: EU")
        expect(parts.nth(0)).to_contain_text("returns-eu")
        expect(parts.nth(1)).to_contain_text("region: US")
        page.get_by_test_id("context").fill("region")
        box.press("Enter")
        expect(page.get_by_test_id("ask-error")).to_contain_text("key=value")
