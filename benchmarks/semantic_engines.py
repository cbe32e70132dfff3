"""Semantic engines: wall time of the parallel stage (R, V, keyword, D) vs the engines' sum.

    python benchmarks/semantic_engines.py [--rounds 3] [--embedder use-m3]

Ingests tests/cases/semantic/retail.yaml into a temporary store and asks ~50 analytics
questions (Chinese and English). Per question and round: the parallel stage with fresh
query vectors (threads), the same engines one after another (sequential), and the sum of
the engines' own times inside the parallel run. Medians over questions x rounds. The
query embedding dominates V and D; they share one embedding per text (``QueryVectors``),
so in the parallel run one of them may wait for the other: the "sum" counts that wait.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from chronorag.pipeline.ingest import Embedders, ingest_paths
from chronorag.retrieve.embedders import EMBEDDERS
from chronorag.semantic import SemanticLayer
from chronorag.semantic.engines import QueryVectors
from chronorag.semantic.model import SemanticRequest
from chronorag.semantic.pipeline import PARALLEL, SemanticSearcher, run_stage
from chronorag.store.sqlite import SQLiteStore
from chronorag.understand import understand

ROOT = Path(__file__).resolve().parents[1]
LAYER = ROOT / "tests/cases/semantic/retail.yaml"
NOW = datetime(2025, 6, 1, tzinfo=UTC)
_TEMPLATES_ZH = ["{r} GMV 趋势", "{r}上个季度的成交总额", "{r}销售额和GMV的区别",
                 "{r}流失的账户按套餐等级", "{r}每个品类的订单数"]
_TEMPLATES_EN = ["GMV trend in {r}", "how many accounts churned last quarter in {r} by plan tier",
                 "gross merchandise value of {r} by month", "refund amount in {r} last year",
                 "which tables join fact_transaction for {r}"]
_REGIONS_ZH = ["华东", "华北", "华南", "西南", "全国"]
_REGIONS_EN = ["East China", "North China", "South China", "the west", "all regions"]


def questions() -> list[str]:
    """50 questions: 5 templates x 5 regions, in Chinese and English."""
    zh = [t.format(r=r) for t in _TEMPLATES_ZH for r in _REGIONS_ZH]
    en = [t.format(r=r) for t in _TEMPLATES_EN for r in _REGIONS_EN]
    return zh + en


def measure(searcher: SemanticSearcher, question: str) -> dict[str, float]:
    """One question: parallel wall, sequential wall, sum of engine times (parallel run)."""
    # As in build_context: V and keyword read the question without its time expression,
    # D the whole question; when they differ, V and D embed two texts concurrently.
    content = understand(question, now=NOW).content
    request = SemanticRequest(question, content, NOW, searcher.options)
    rows: dict[str, float] = {}
    for mode in ("parallel", "sequential"):
        engines = searcher.engines(QueryVectors(searcher.embedder))
        started = time.perf_counter()
        results = run_stage([engines[n] for n in PARALLEL], request,
                            parallel=mode == "parallel")
        rows[mode] = (time.perf_counter() - started) * 1000.0
        if mode == "parallel":
            rows["sum"] = sum(r.elapsed_ms for r in results.values())
            rows.update({n: results[n].elapsed_ms for n in PARALLEL})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--embedder", default="use-m3")
    args = parser.parse_args()
    embedder = EMBEDDERS.create(args.embedder)
    with tempfile.TemporaryDirectory() as tmp, SQLiteStore(Path(tmp) / "kb.db") as store:
        ingest_paths(store, [LAYER], embedders=Embedders([embedder]), now=NOW, tz=UTC,
                     extensions=[SemanticLayer(store=store, embedder=lambda: embedder)])
        searcher = SemanticSearcher(store, embedder)
        qs = questions()
        measure(searcher, qs[0])  # warm-up: model load, jieba dictionary, BM25 index
        rows = [measure(searcher, q) for _ in range(args.rounds) for q in qs]
    print(f"{len(qs)} questions x {args.rounds} rounds, embedder {args.embedder}; "
          "median ms per question")
    print(f"{'measure':<28}{'median':>10}{'p90':>10}")
    names = [*(f"engine {n}" for n in PARALLEL), "sum of engines (parallel)",
             "sequential stage (wall)", "parallel stage (wall)"]
    keys = [*PARALLEL, "sum", "sequential", "parallel"]
    for name, key in zip(names, keys, strict=True):
        values = sorted(r[key] for r in rows)
        p90 = values[int(0.9 * (len(values) - 1))]
        print(f"{name:<28}{statistics.median(values):>10.2f}{p90:>10.2f}")
    speedup = statistics.median(r["sequential"] / r["parallel"] for r in rows)
    print(f"median speed-up sequential/parallel: {speedup:.2f}x")


if __name__ == "__main__":
    main()
