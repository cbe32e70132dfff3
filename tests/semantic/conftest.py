"""Fixtures: the retail layer of tests/cases/semantic ingested with a fake embedder."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag.pipeline.ingest import Embedders, IngestReport, ingest_paths
from chronorag.semantic import SemanticLayer
from chronorag.store.base import Store
from chronorag.store.sqlite import SQLiteStore

from ..conftest import HashEmbedder as _HashEmbedder

CASES = Path(__file__).parents[1] / "cases" / "semantic"
RETAIL = CASES / "retail.yaml"
NOW = datetime(2025, 6, 1, tzinfo=UTC)


class HashEmbedder(_HashEmbedder):
    """The shared test embedder, under the name and size the layer tests were written for."""

    def __init__(self) -> None:
        super().__init__("use-m3", dim=256)


def ingest(store: Store, *paths: Path) -> IngestReport:
    """Ingest documents and layer files as the engine does (the layer as an extension)."""
    embedder = HashEmbedder()
    layer = SemanticLayer(store=store, embedder=lambda: embedder)
    return ingest_paths(store, list(paths), embedders=Embedders([embedder]), now=NOW, tz=UTC,
                        extensions=[layer])


@pytest.fixture(scope="session")
def embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture(scope="module")
def retail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteStore]:
    """A store holding the retail layer (module-scoped: tests only read it)."""
    store = SQLiteStore(tmp_path_factory.mktemp("semantic") / "retail.db")
    ingest(store, RETAIL)
    yield store
    store.close()
