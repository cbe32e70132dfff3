"""Real processes on one PostgreSQL database: ingests of disjoint corpora and readers
asking at once all succeed and leave every document exactly once, whole; ingests of the
same corpus at once leave one copy."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from chronorag.config import get_preset
from chronorag.engine import Engine
from chronorag.ingest import CHUNKER_VERSION
from chronorag.pipeline.ingest import EMBED_TEXT_VERSION, Batching
from chronorag.rank.late import TOKEN_ENCODERS
from chronorag.store import PostgresStore
from chronorag.store.base import derivation

DRIVER = Path(__file__).parent.parent / "hash_embedder_cli.py"
pytestmark = pytest.mark.slow

# Distinct words per corpus, so a question finds its own corpus by keyword and by vector.
CORPORA = {"amber": "lighthouse storm", "birch": "orchard harvest", "coral": "harbour ferry"}
DOCS = 400
TOP_KEYS = {"question", "now", "as_of", "understanding", "status", "answer", "evidence",
            "upcoming", "flags"}
EVIDENCE_KEYS = {"doc_id", "chunk_id", "title", "text", "start", "end", "source_type",
                 "status", "valid_from", "valid_to", "occurred_at", "applicable", "flags",
                 "score", "scores"}


def _load_driver() -> ModuleType:
    sys.path.insert(0, str(DRIVER.parent))
    try:
        return importlib.import_module("hash_embedder_cli")
    finally:
        sys.path.remove(str(DRIVER.parent))


cli_driver = _load_driver()


def _corpus(folder: Path, name: str) -> Path:
    """``DOCS`` dated records about ``name``'s topic, one to several chunks long."""
    topic = CORPORA[name]
    path = folder / f"{name}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for i in range(DOCS):
            lines = " ".join(f"The {name} {topic} log {i} entry {s} was written on "
                             f"{1990 + s} May {1 + i % 28}." for s in range(2 + (i % 4) * 12))
            handle.write(json.dumps({"id": f"{name}-{i:03d}", "title": f"{name} {topic} {i}",
                                     "text": lines}) + "\n")
    return path


def _ask(uri: str, question: str) -> dict[str, Any]:
    out = subprocess.run(cli_driver.command("ask", question, "--db", uri, "--json", "-k", "3",
                                            "--now", "2026-11-25"),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    payload: dict[str, Any] = json.loads(out.stdout)
    _check_contract(payload, question)
    return payload


def _check_contract(payload: dict[str, Any], question: str) -> None:
    """The ``ask --json`` shape of DESIGN.md (tests/test_cli.py checks it in full)."""
    assert set(payload) >= TOP_KEYS and payload["question"] == question
    assert payload["status"] in {"answered", "uncertain", "not_found"}
    assert payload["answer"] is None or isinstance(payload["answer"], str)
    assert {"content", "intent", "constraint", "time_expressions",
            "entities"} <= set(payload["understanding"])
    for item in [*payload["evidence"], *payload["upcoming"]]:
        assert set(item) >= EVIDENCE_KEYS
        assert 0 <= item["start"] < item["end"]
        assert {"semantic", "temporal"} <= set(item["scores"])


def _ingest(uri: str, *paths: Path) -> subprocess.Popen[str]:
    # Small batches: the processes' commits interleave.
    return subprocess.Popen(cli_driver.command("ingest", *map(str, paths), "--db", uri,
                                               "--batch", "4", "--json"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(procs: list[subprocess.Popen[str]]) -> list[dict[str, int]]:
    reports = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr
        assert "Traceback" not in stderr
        reports.append(json.loads(stdout))
    return reports


def _prepare(uri: str) -> None:
    with PostgresStore(uri) as store:
        store.set_setting("embedder", "test-hash")
        store.set_setting("judges", "")  # no multilingual judges: no model to wait on


def _layout(uri: str) -> dict[str, list[tuple[int, int, int]]]:
    """Each document's chunks as (index, start, end), after checking the store is whole:
    every chunk has sentences and one vector, every document the current derivation."""
    stamp = derivation(CHUNKER_VERSION, ["test-hash"], text=EMBED_TEXT_VERSION,
                       tokens=[cli_driver.TOKENS])
    with PostgresStore(uri) as store:
        ids = store.document_ids()
        assert len(ids) == len(set(ids))
        assert {d for _, d in store.fingerprints(ids).values()} == {stamp}
        chunks = store.chunks()
        assert all(c.sentences for c in chunks)
        assert store.vector_counts() == {"test-hash": len(chunks)}
        counts = store.count()
        assert (counts["documents"], counts["chunks"]) == (len(ids), len(chunks))
        assert counts["vectors"] == len(chunks)
        layout: dict[str, list[tuple[int, int, int]]] = {i: [] for i in ids}
        for c in chunks:
            layout[c.doc_id].append((c.index, c.start, c.end))
    return layout


def _reference(uri: str, paths: list[Path]) -> dict[str, list[tuple[int, int, int]]]:
    """The same corpora ingested by one process alone, in this one."""
    _prepare(uri)
    # The token encoder the driver's processes use, hashed as there: the same stamps.
    config = replace(get_preset("hybrid"), late=cli_driver.TOKENS)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(TOKEN_ENCODERS._factories, cli_driver.TOKENS, cli_driver.HashTokens)
        with Engine(uri, config=config) as engine:
            engine.ingest(paths, batching=Batching(docs=16))
    return _layout(uri)


def _first_commit(uri: str, procs: list[subprocess.Popen[str]]) -> None:
    """Wait until some document is stored. An ``ask`` of an empty store answers
    not_found before its warm-up thread has loaded the cross-encoder, and the process
    then aborts on exit (SIGABRT inside onnxruntime): a CLI bug of its own, kept out of
    this test of concurrency."""
    with PostgresStore(uri) as store:
        while not store.count()["documents"] and any(p.poll() is None for p in procs):
            time.sleep(0.05)


class _Askers:
    """``n`` threads each running ``chronorag ask --json`` in a new process, again and
    again, until stopped; every payload is kept (each one checked as it comes), with
    the time it came."""

    def __init__(self, uri: str, n: int) -> None:
        self.uri = uri
        self.payloads: list[dict[str, Any]] = []
        self.times: list[float] = []
        self.failures: list[BaseException] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(k,)) for k in range(n)]
        for thread in self._threads:
            thread.start()

    def _run(self, k: int) -> None:
        names = list(CORPORA)
        while not self._stop.is_set():
            name = names[(len(self.payloads) + k) % len(names)]
            try:
                self.payloads.append(_ask(self.uri, f"When was the {name} "
                                                    f"{CORPORA[name]} log written?"))
                self.times.append(time.monotonic())
            except BaseException as exc:  # reported by stop()
                self.failures.append(exc)
                return

    def stop(self) -> list[dict[str, Any]]:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=600)
        assert not self.failures, self.failures[0]
        return self.payloads


def test_ingests_and_asks_at_once_leave_every_document_once(
        pg_server: Any, tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    paths = [_corpus(tmp_path, name) for name in CORPORA]
    databases = [pg_server.new_database() for _ in range(2)]
    uri, reference_uri = (pg_server.uri(d) for d in databases)
    try:
        expected = _reference(reference_uri, paths)
        assert len(expected) == DOCS * len(CORPORA)
        assert max(len(c) for c in expected.values()) > 1  # some documents are multi-chunk
        _prepare(uri)
        ingests = [_ingest(uri, path) for path in paths]
        _first_commit(uri, ingests)
        askers = _Askers(uri, 2)
        try:
            reports = _finish(ingests)
            ingested = time.monotonic()
        finally:
            payloads = askers.stop()
        assert [r["added"] for r in reports] == [DOCS] * len(CORPORA)
        during = sum(t < ingested for t in askers.times)
        assert during >= 1, f"{during} of {len(payloads)} asks answered while ingests ran"
        assert _layout(uri) == expected
        for name, topic in CORPORA.items():
            found = _ask(uri, f"When was the {name} {topic} log written?")
            assert found["evidence"], found
            assert found["evidence"][0]["doc_id"].startswith(f"{name}-"), found["evidence"]
    finally:
        for database in databases:
            pg_server.drop(database)


def test_the_same_corpus_ingested_at_once_is_stored_once(
        pg_server: Any, tmp_path: Path, test_embedders: tuple[str, ...]) -> None:
    path = _corpus(tmp_path, "amber")
    databases = [pg_server.new_database() for _ in range(2)]
    uri, reference_uri = (pg_server.uri(d) for d in databases)
    try:
        expected = _reference(reference_uri, [path])
        _prepare(uri)
        reports = _finish([_ingest(uri, path) for _ in range(3)])
        # Each document was added by exactly one of them; the others found it unchanged.
        assert sum(r["added"] for r in reports) == DOCS
        assert all(r["replaced"] == 0 and r["added"] + r["unchanged"] == DOCS
                   for r in reports), reports
        assert _layout(uri) == expected
        assert Counter(i.split("-")[0] for i in expected) == {"amber": DOCS}
    finally:
        for database in databases:
            pg_server.drop(database)
