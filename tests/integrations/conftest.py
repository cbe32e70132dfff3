"""One demo store for the integration tests: the demo corpus and people, embedded by the
hashed test embedder with no judges and the hybrid preset, so no model loads."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chronorag.demo import DEMO_NOW, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.retrieve.embedders import EMBEDDERS

from ..conftest import TEST_EMBEDDERS, HashEmbedder

RETURNS = "How many days do I have to return an item?"


@pytest.fixture(scope="module")
def demo_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    with pytest.MonkeyPatch.context() as patch:
        for name in TEST_EMBEDDERS:
            patch.setitem(EMBEDDERS._factories, name, lambda _n=name: HashEmbedder(_n))
        db = tmp_path_factory.mktemp("integrations") / "kb.db"
        with Engine(db, config="hybrid", embedder="test-hash", judges=(),
                    tz=DEMO_NOW.tzinfo) as engine:  # type: ignore[arg-type]
            engine.ingest([demo_corpus()], now=DEMO_NOW)
            engine.load_people(demo_people())
            yield engine
