"""Layer ingest (validation, atomicity, re-ingest), budget packing, ask hook, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag import cli
from chronorag.engine import Engine
from chronorag.errors import ValidationError
from chronorag.semantic.context import build_context
from chronorag.semantic.pack import CATEGORIES, estimate_tokens
from chronorag.semantic.store import read_assets
from chronorag.store.sqlite import SQLiteStore

from .conftest import NOW, RETAIL, HashEmbedder, ingest

BAD_YAML = """\
tables:
  - id: t1
    columns:
      - {name: a, type: int, role: pk}
      - {name: b, type: int, role: sideways}
metrics:
  - id: m1
    table: nowhere
    expression: SUM(t1.a)
  - id: m2
    table: t1
    expression: SUM(t1.a)
    valid_from: 2025-13-01
terms:
  - term: thing
    maps_to: t1.a
    status: blessed
  - term: other
    maps_to: t1.zzz
"""


def _ingest(store: SQLiteStore, *paths: Path) -> Any:
    return ingest(store, *paths)


def test_estimator_counts_words_and_cjk() -> None:
    # 华 东 GMV 趋 势 "," fact_orders.gmv_amount: punctuation after CJK is its own run
    assert estimate_tokens("华东GMV 趋势, fact_orders.gmv_amount") == 7


def test_invalid_layer_rejected_with_lines_and_store_unchanged(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_YAML, encoding="utf-8")
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "d1", "text": "hello"}) + "\n", encoding="utf-8")
    with SQLiteStore(tmp_path / "kb.db") as store:
        _ingest(store, RETAIL)
        before = (len(read_assets(store)), store.count(), store.generation())
        with pytest.raises(ValidationError) as info:
            _ingest(store, docs, bad)
        after = (len(read_assets(store)), store.count(), store.generation())
    shown = {str(e) for e in info.value.errors}
    assert f"{bad}:5: tables[0].columns[1].role: 'sideways' is not one of pk, fk, metric, " \
           "dimension, filter, time, other" in shown
    assert f"{bad}:8: metrics[0].table: 'nowhere' is not a known table" in shown
    assert any(s.startswith(f"{bad}:13: metrics[1].valid_from:") for s in shown)
    assert f"{bad}:19: terms[1].maps_to: 't1.zzz' is not a known asset id" in shown
    assert any(s.startswith(f"{bad}:17: terms[0].status:") for s in shown)
    assert before == after, "nothing stored, documents included"


def test_json_layer_errors_carry_lines(tmp_path: Path) -> None:
    layer = {"tables": [{"id": "t1", "columns": []}],
             "metrics": [{"id": "m1", "table": "t1", "expression": "1"},
                         {"id": "m2", "table": "t1"}]}
    path = tmp_path / "layer.json"
    path.write_text(json.dumps(layer, indent=2), encoding="utf-8")
    with SQLiteStore(":memory:") as store, pytest.raises(ValidationError) as info:
        _ingest(store, path)
    (error,) = info.value.errors
    assert (error.field, error.reason) == ("metrics[1].expression", "is required")
    assert error.line == 14  # the line of the entry that lacks the field


def test_reingest_is_a_no_op(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "kb.db") as store:
        first = _ingest(store, RETAIL)
        second = _ingest(store, RETAIL)
    assert len(first.added) == 28 and not second.added and len(second.unchanged) == 28


@settings(max_examples=60, deadline=None)
@given(budget=st.integers(min_value=0, max_value=500),
       question=st.sampled_from(["华东 GMV 趋势", "fact_transaction 能 join 到哪些表",
                                 "how many accounts churned last quarter by plan tier"]))
def test_pack_never_exceeds_budget(retail: SQLiteStore, budget: int, question: str) -> None:
    pack = build_context(retail, question, now=NOW, embedder=HashEmbedder(), budget=budget)
    assert estimate_tokens(pack.text()) <= budget
    assert pack.to_json()["tokens"]["used"] == estimate_tokens(pack.text())


def test_budget_trims_lowest_priority_first(retail: SQLiteStore) -> None:
    full = build_context(retail, "华东 GMV 趋势", now=NOW, embedder=HashEmbedder()).to_json()
    small = build_context(retail, "华东 GMV 趋势", now=NOW, embedder=HashEmbedder(),
                          budget=160).to_json()
    assert small["bindings"] == full["bindings"], "constraints come first"
    for category in CATEGORIES:
        kept = [i.get("id", i.get("tables")) for i in small[category]]
        assert kept == [i.get("id", i.get("tables")) for i in full[category]][:len(kept)]
    assert small["tokens"]["dropped"]


def test_ask_json_gains_semantic_key(tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "d1", "text": "GMV is reported monthly."}) + "\n",
                    encoding="utf-8")
    # The engine asks for its store's recorded embedder, else the config's (e5-small for
    # "bm25"): name a registered test embedder so no real model loads.
    with Engine(tmp_path / "kb.db", config="bm25", embedder=test_embedders[0]) as engine:
        engine.ingest([docs, RETAIL], now=NOW)
        data = engine.ask("华东 GMV 趋势", now=NOW).to_json()
    semantic = data["semantic"]
    assert {b["asset_id"] for b in semantic["bindings"]} == {"gmv_v2", "dim_region.region_name"}
    assert [e["id"] for e in semantic["examples"]] == ["ex_east_gmv_trend"]
    assert semantic["join_paths"][0]["connects"]
    assert data["evidence"] and data["evidence"][0]["doc_id"] == "d1"


def test_ask_without_layer_has_no_semantic_key(tmp_path: Path,
                                               test_embedders: tuple[str, ...]) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "d1", "text": "hello world"}) + "\n", encoding="utf-8")
    with Engine(tmp_path / "kb.db", config="bm25", embedder=test_embedders[0]) as engine:
        engine.ingest([docs], now=NOW)
        assert "semantic" not in engine.ask("hello", now=NOW).to_json()


@pytest.mark.slow  # `chronorag ingest` embeds the layer with the default model (e5-small)
def test_cli_context_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "kb.db")
    assert cli.main(["ingest", str(RETAIL), "--db", db]) == 0
    capsys.readouterr()
    code = cli.main(["context", "华东 GMV 趋势", "--db", db, "--now", "2025-06-01T00:00:00+00:00",
                     "--budget", "120", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(data) >= {"bindings", "tables", "columns", "metrics", "join_paths", "examples",
                         "rules", "grade", "corrective", "tokens"}
    assert data["tokens"]["used"] <= 120
    assert cli.main(["context", "华东 GMV 趋势", "--db", db, "--now", "2025-06-01"]) == 0
    assert capsys.readouterr().out.startswith("# Context for text-to-SQL")


def test_documents_and_layer_commit_together(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure writing the layer takes back the documents of the same ingest."""
    from chronorag.semantic import store as sstore

    docs = tmp_path / "docs.jsonl"
    docs.write_text('{"id": "p1", "text": "GMV counts paid orders."}\n'
                    '{"id": "p2", "text": "East China covers Shanghai."}\n', encoding="utf-8")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk went away")

    monkeypatch.setattr(sstore, "write_layer", broken)
    with SQLiteStore(tmp_path / "kb.db") as store:
        with pytest.raises(RuntimeError, match="disk went away"):
            _ingest(store, docs, RETAIL)
        assert store.document_ids() == [] and store.generation() == 0
    monkeypatch.undo()
    with SQLiteStore(tmp_path / "kb.db") as store:
        report = _ingest(store, docs, RETAIL)
        assert {"p1", "p2"} <= set(report.added) and store.document_ids() == ["p1", "p2"]
        assert read_assets(store)


def test_a_comparison_of_two_regions_is_answered_per_region_with_its_own_bindings(
        tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "d1", "text": "GMV is reported monthly."}) + "\n",
                    encoding="utf-8")
    with Engine(tmp_path / "kb.db", config="bm25", embedder=test_embedders[0]) as engine:
        engine.ingest([docs, RETAIL], now=NOW)
        data = engine.ask("对比华东和华北的 GMV 趋势", now=NOW).to_json()
    whole = {b["term"] for b in data["semantic"]["bindings"]}
    assert whole == {"华东", "华北", "GMV"}
    parts = data["parts"]
    assert [p["entity"] for p in parts] == ["华东", "华北"]
    assert [{b["term"] for b in p["semantic"]["bindings"]} for p in parts] == [
        {"华东", "GMV"}, {"华北", "GMV"}]
