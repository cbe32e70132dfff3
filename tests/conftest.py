"""Shared fixtures: a fast deterministic embedder registered under test-only names."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import settings

from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.retrieve.tokenize import tokenize


class HashEmbedder:
    """Bag of hashed tokens: deterministic, model-free, ~100k short texts a minute.

    For tests of ingest, storage and concurrency, where the model is not under test.
    """

    def __init__(self, name: str = "test-hash", *, dim: int = 64) -> None:
        self.name = name
        self.dim = dim

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokenize(text):
                digest = hashlib.blake2b(token.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % self.dim] += 1.0
            out[row, 0] += 1e-3  # never an all-zero row
        return out / np.linalg.norm(out, axis=1, keepdims=True)


TEST_EMBEDDERS = ("test-hash", "test-hash-b")

# Property tests read their example counts from these variables (a deeper run sets them
# higher). The inner loop, ``-m "not slow"``, runs each property on fewer examples than the
# full run (the README's test command and CI), which keeps the loop under 20 seconds.
_QUICK_EXAMPLES = {"CHRONORAG_PROPERTY_EXAMPLES": "25", "FUZZ_EXAMPLES": "60"}
settings.register_profile("quick", max_examples=40, deadline=None)


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("markexpr", "") == "not slow":
        for name, value in _QUICK_EXAMPLES.items():
            os.environ.setdefault(name, value)
        settings.load_profile("quick")


def register_test_embedders() -> None:
    """Make the test embedders creatable by name (for a process of its own)."""
    for name in TEST_EMBEDDERS:
        if name not in EMBEDDERS:
            EMBEDDERS.add(name, lambda _n=name: HashEmbedder(_n))


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
