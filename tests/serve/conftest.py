"""A real chronorag server (uvicorn on loopback, in a thread) over real stores.

``fast_served``: the family records, the demo corpus and the retail semantic layer, with
the test embedder and no models (the API's rules are under test, not relevance).
``served``: the demo store with the shipped models, for answers and the web page.
``browser`` (headless Chromium) and ``artifacts`` (the screenshots' folder): the page tests.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The test modules here import the helpers of serving.py; the test embedder lives in the
# conftest one folder up.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1]))
from browsing import artifacts_folder, launched
from serving import CASES, FAST_CONFIG, NOW, SHANGHAI, Limits, Served, make_keys, running

from chronorag.demo import DEMO_NOW, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.serve.service import Service
from chronorag.store.sqlite import SQLiteStore
from conftest import register_test_embedders


@pytest.fixture(scope="module")
def fast_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    register_test_embedders()
    db = tmp_path_factory.mktemp("serve") / "kb.db"
    with SQLiteStore(db) as store:
        store.set_setting("embedder", "test-hash")
        store.set_setting("judges", "")
    with Engine(db, tz=SHANGHAI, config=FAST_CONFIG) as engine:
        engine.ingest([CASES / "people" / "records.jsonl", demo_corpus(),
                       CASES / "semantic" / "retail.yaml"], now=NOW)
        engine.load_people(CASES / "people" / "people.json")
    keys = make_keys(db)
    service = Service(str(db), tz=SHANGHAI, config=FAST_CONFIG)
    try:
        with running(service, clock=lambda: NOW,
                     limits=Limits(body_bytes=2 * 1024 * 1024, read_s=30)) as url:
            yield Served(url, service, db, keys)
    finally:
        service.close()


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The demo store, the shipped models, asked at the demo's moment by default."""
    db = tmp_path_factory.mktemp("served") / "demo.db"
    with Engine(db, tz=SHANGHAI) as engine:
        engine.ingest([demo_corpus()], now=DEMO_NOW)
        engine.load_people(demo_people())
    keys = make_keys(db)
    service = Service(str(db), tz=SHANGHAI)
    try:
        service.warm_up()
        with running(service, clock=lambda: DEMO_NOW) as url:
            yield Served(url, service, db, keys)
    finally:
        service.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def artifacts() -> Path:
    return artifacts_folder()
