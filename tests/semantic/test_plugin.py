"""The semantic layer as an engine extension: through the Store protocol only, cached per
layer generation, free on a store without a layer, one question embedding per ask."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronorag.config import SearchConfig
from chronorag.engine import Engine
from chronorag.errors import ConfigError, ValidationError
from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.semantic.context import build_context
from chronorag.store.base import LayerStore, Store
from chronorag.store.sqlite import SQLiteStore

from .conftest import NOW, RETAIL, HashEmbedder

QUESTION = "华东 GMV 趋势"
STORE_METHODS = frozenset(n for n in dir(Store) if not n.startswith("_"))
LAYER_METHODS = frozenset(n for n in dir(LayerStore) if not n.startswith("_"))


class ProtocolOnly:
    """A store that has exactly the methods of the ``Store`` protocol (or of one of its
    parts, ``methods``), counting their calls: what works on it works on any backend
    that implements the protocol (or that part)."""

    def __init__(self, inner: SQLiteStore, *, methods: frozenset[str] = STORE_METHODS
                 ) -> None:
        self._inner = inner
        self._methods = methods
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        if name not in self._methods:
            raise AttributeError(f"{name!r} is not part of the protocol")
        self.calls[name] += 1
        return getattr(self._inner, name)


class CountingEmbedder(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        if kind == "query":
            self.queries += texts
        return super().embed(texts, kind=kind)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> CountingEmbedder:
    """Registered under the name the layer tests use, so the engine creates it."""
    model = CountingEmbedder()
    monkeypatch.setitem(EMBEDDERS._factories, model.name, lambda: model)
    return model


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "d1", "text": "GMV is reported monthly."}) + "\n",
                    encoding="utf-8")
    return docs


def _engine(store: Any, config: str | SearchConfig = "hybrid") -> Engine:
    return Engine(store=store, config=config, embedder=HashEmbedder().name)


def test_layer_works_through_the_protocol_alone(tmp_path: Path,
                                                counting: CountingEmbedder) -> None:
    with SQLiteStore(tmp_path / "plain.db") as plain, _engine(plain) as engine:
        engine.ingest([_docs(tmp_path), RETAIL], now=NOW)
        expected = engine.ask(QUESTION, now=NOW).to_json()["semantic"]
    proxy = ProtocolOnly(SQLiteStore(tmp_path / "proxy.db"))
    with _engine(proxy) as engine:
        report = engine.ingest([_docs(tmp_path), RETAIL], now=NOW)
        assert len(report.added) == 29
        assert engine.ask(QUESTION, now=NOW).to_json()["semantic"] == expected
        pack = build_context(proxy, QUESTION, now=NOW,  # type: ignore[arg-type]
                             embedder=counting, parallel=False)
    assert pack.to_json()["bindings"]


def test_the_layer_part_is_all_a_context_pack_reads(tmp_path: Path,
                                                     counting: CountingEmbedder) -> None:
    with _engine(SQLiteStore(tmp_path / "kb.db")) as engine:
        engine.ingest([_docs(tmp_path), RETAIL], now=NOW)
        full = engine.store
        layer_only: Any = ProtocolOnly(full, methods=LAYER_METHODS)  # type: ignore[arg-type]
        packs = [build_context(store, QUESTION, now=NOW, embedder=counting,
                               parallel=False).to_json() for store in (full, layer_only)]
    for pack in packs:
        del pack["timings_ms"]
    assert packs[0] == packs[1] and packs[0]["bindings"] and layer_only.calls


def test_store_without_layer_costs_one_counter_read(tmp_path: Path,
                                                    counting: CountingEmbedder) -> None:
    proxy = ProtocolOnly(SQLiteStore(tmp_path / "kb.db"))
    with _engine(proxy) as engine:
        engine.ingest([_docs(tmp_path)], now=NOW)
        proxy.calls.clear()
        answer = engine.ask("GMV", now=NOW).to_json()
    assert "semantic" not in answer
    assert proxy.calls["layer_generation"] == 1
    assert not {"layer_records", "layer_vectors", "walk_joins"} & set(proxy.calls)


def test_index_and_matcher_are_built_once_per_layer_generation(
        tmp_path: Path, counting: CountingEmbedder) -> None:
    proxy = ProtocolOnly(SQLiteStore(tmp_path / "kb.db"))
    with _engine(proxy) as engine:
        engine.ingest([RETAIL], now=NOW)
        proxy.calls.clear()
        first = [engine.ask(QUESTION, now=NOW).to_json()["semantic"] for _ in range(3)]
        assert proxy.calls["layer_records"] == 1 and proxy.calls["layer_vectors"] == 1
        changed = tmp_path / "more.yaml"
        changed.write_text("metrics:\n  - id: orders_n\n    table: fact_orders\n"
                           "    expression: count(*)\n    name: 订单数\n", encoding="utf-8")
        engine.ingest([changed], now=NOW)
        proxy.calls.clear()
        after = engine.ask("订单数", now=NOW).to_json()["semantic"]
    assert first[0] == first[1] == first[2]
    assert proxy.calls["layer_vectors"] == 1, "the new layer generation is read once"
    assert "orders_n" in {b["asset_id"] for b in after["bindings"]}


def test_one_question_embedding_per_ask(tmp_path: Path, counting: CountingEmbedder) -> None:
    with _engine(SQLiteStore(tmp_path / "kb.db")) as engine:
        engine.ingest([_docs(tmp_path), RETAIL], now=NOW)
        counting.queries.clear()
        data = engine.ask(QUESTION, now=NOW).to_json()
    assert data["semantic"]["examples"], "the example engine used the question's vector"
    # Dense retrieval and the example engine both embed what is asked (the question's
    # content, here with the spaces around CJK closed): once.
    assert counting.queries == ["华东GMV趋势"]


def test_extensions_are_chosen_by_name(tmp_path: Path, counting: CountingEmbedder) -> None:
    config = SearchConfig("plain", retrievers=("keyword",), reranker="none", extensions=())
    with _engine(SQLiteStore(tmp_path / "kb.db"), config) as engine:
        assert engine.extensions == {}
        # Without the extension a layer file is no document: said, not skipped.
        with pytest.raises(ValidationError, match=r"unsupported file type '\.yaml'"):
            engine.ingest([RETAIL], now=NOW)
    with pytest.raises(ConfigError, match="unknown extension 'nope'; choose one of: semantic"):
        _engine(SQLiteStore(":memory:"), SearchConfig("x", extensions=("nope",)))
