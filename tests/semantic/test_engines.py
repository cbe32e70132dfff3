"""Engines R, D, G and the corrective retry on the retail layer (fake embedder)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import yaml

from chronorag.semantic.context import build_context
from chronorag.semantic.model import SemanticOptions
from chronorag.semantic.pipeline import SemanticSearcher
from chronorag.store.sqlite import SQLiteStore

from .conftest import CASES, NOW

GOLDEN: list[dict[str, Any]] = yaml.safe_load((CASES / "bindings.yaml").read_text("utf-8"))


def _day(value: Any) -> datetime | None:
    if value is None:
        return None
    return datetime.fromisoformat(str(value)).replace(tzinfo=UTC)


@pytest.mark.parametrize("case", GOLDEN, ids=[c["question"] for c in GOLDEN])
def test_golden_bindings(case: dict[str, Any], retail: SQLiteStore, embedder: Any) -> None:
    pack = build_context(retail, case["question"], now=_day(case["now"]) or NOW,
                         as_of=_day(case.get("as_of")), embedder=embedder)
    got = [[b["term"], b["asset_id"], b["asset_type"]] for b in pack.to_json()["bindings"]]
    assert sorted(got) == sorted(case["bindings"])


def test_binding_reports_the_version_it_replaced(retail: SQLiteStore, embedder: Any) -> None:
    pack = build_context(retail, "GMV 趋势", now=NOW, embedder=embedder)
    (binding,) = pack.retrieval.bindings
    assert (binding.asset_id, binding.requested, binding.status) == ("gmv_v2", "gmv_v1",
                                                                      "certified")
    assert "gmv_v1" not in [m["id"] for m in pack.to_json()["metrics"]]


def _searcher(store: SQLiteStore, embedder: Any, **options: Any) -> SemanticSearcher:
    return SemanticSearcher(store, embedder, options=SemanticOptions(**options))


def test_join_paths_from_one_table(retail: SQLiteStore, embedder: Any) -> None:
    found = _searcher(retail, embedder).retrieve(
        "fact_transaction 能 join 到哪些表", content="", as_of=NOW)
    paths = found.join_paths
    assert paths[0].tables == ("fact_transaction", "dim_customer")
    assert all(p.tables[0] == "fact_transaction" and len(p.steps) <= 3 for p in paths)
    risks = [p.risk for p in paths]
    assert risks == sorted(risks, key=lambda r: r == "high"), "low risk first"
    high = [p for p in paths if p.risk == "high"]
    assert high and all("fact_order_items" in p.tables for p in high)


def test_two_tables_connect_by_the_shortest_low_risk_path(retail: SQLiteStore,
                                                          embedder: Any) -> None:
    found = _searcher(retail, embedder).retrieve(
        "fact_transaction and dim_customer", content="", as_of=NOW)
    first = found.join_paths[0]
    assert first.connects and len(first.steps) == 1
    assert {first.tables[0], first.tables[-1]} == {"fact_transaction", "dim_customer"}
    two_way = [p for p in found.join_paths if p.connects]
    assert [len(p.steps) for p in two_way] == sorted(len(p.steps) for p in two_way)
    assert any("fact_orders" in p.tables for p in two_way), "the second way is kept"


def test_approved_example_above_threshold_only(retail: SQLiteStore, embedder: Any) -> None:
    searcher = _searcher(retail, embedder)
    exact = searcher.retrieve("华东 GMV 趋势", content="", as_of=NOW, corrective=False)
    assert [e.id for e in exact.examples] == ["ex_east_gmv_trend"]
    near = searcher.retrieve("华东 GMV 趋势 图表", content="", as_of=NOW, corrective=False)
    assert near.examples == ()
    loose = _searcher(retail, embedder, example_threshold=0.5).retrieve(
        "华东 GMV 趋势 图表", content="", as_of=NOW, corrective=False)
    assert "ex_east_gmv_trend" in [e.id for e in loose.examples]


def test_draft_examples_never(retail: SQLiteStore, embedder: Any) -> None:
    found = _searcher(retail, embedder, example_threshold=-1.0).retrieve(
        "华北 GMV 趋势", content="", as_of=NOW, corrective=False)
    ids = [e.id for e in found.examples]
    assert "ex_draft_north" not in ids and ids, "approved ones still come back"


def test_corrective_retry_on_low_grade(retail: SQLiteStore, embedder: Any) -> None:
    found = _searcher(retail, embedder).retrieve("merchandise totals", content="",
                                                 as_of=NOW)
    corrective = found.corrective
    assert corrective["initial_grade"] == "low" and corrective["retried"]
    assert "gross merchandise value" in corrective["expanded_terms"]
    assert any(a.startswith("expanded synonyms") for a in corrective["actions"])
    assert found.grade in ("medium", "high")


def test_no_retry_when_grade_is_high(retail: SQLiteStore, embedder: Any) -> None:
    found = _searcher(retail, embedder).retrieve("华东 GMV 趋势", content="", as_of=NOW)
    assert found.grade == "high" and not found.corrective["retried"]


def test_rerank_prefers_bound_and_prunes_columns(retail: SQLiteStore, embedder: Any) -> None:
    data = build_context(retail, "华东 GMV 趋势", now=NOW, embedder=embedder).to_json()
    assert data["tables"][0]["id"] in ("fact_orders", "dim_region")
    assert {t["id"] for t in data["tables"][:2]} == {"fact_orders", "dim_region"}
    columns = [c["id"] for c in data["columns"]]
    assert columns[0] == "dim_region.region_name"
    assert "fact_orders.order_date" in columns, "a trend needs the time column"
    assert "fact_orders.etl_batch" not in columns, "role other is pruned"
    assert data["metrics"][0]["id"] == "gmv_v2"
    assert any(r["id"] == "no_test_orders" for r in data["rules"])
