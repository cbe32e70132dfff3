"""Fixtures: the retail layer of tests/cases/semantic ingested with a fake embedder."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from chronorag.indexer import ingest_paths
from chronorag.retrieve.tokenize import tokenize
from chronorag.store.sqlite import SQLiteStore

CASES = Path(__file__).parents[1] / "cases" / "semantic"
RETAIL = CASES / "retail.yaml"
NOW = datetime(2025, 6, 1, tzinfo=UTC)


class HashEmbedder:
    """Deterministic bag-of-words embedder: equal texts have cosine 1, others less."""

    name = "use-m3"
    dim = 256

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokenize(text):
                digest = hashlib.blake2b(token.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


@pytest.fixture(scope="session")
def embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture(scope="module")
def retail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
    """A store holding the retail layer (module-scoped: tests only read it)."""
    store = SQLiteStore(tmp_path_factory.mktemp("semantic") / "retail.db")
    ingest_paths(store, [RETAIL], embedders=[HashEmbedder()], now=NOW, tz=UTC)
    yield store
    store.close()
