"""A PostgreSQL connection dropped in the middle of an ingest: every committed batch is
whole, nothing of the cut batch is kept, and running the ingest again completes it."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from chronorag.engine import Engine
from chronorag.errors import StoreError
from chronorag.pipeline.ingest import Batching
from chronorag.store import PostgresStore

DOCS = 800


def _corpus(folder: Path) -> Path:
    path = folder / "notes.jsonl"
    path.write_text("".join(json.dumps({
        "id": f"note-{i:04d}", "title": f"Note {i}",
        "text": f"Note {i} says the canteen opens at {7 + i % 5}:00. It closes at 20:00.",
    }) + "\n" for i in range(DOCS)), encoding="utf-8")
    return path


def _whole(store: PostgresStore) -> set[str]:
    """Ids of stored documents; asserts each has its chunks, sentences and vectors."""
    ids = store.document_ids()
    chunks = store.chunks()
    assert {c.doc_id for c in chunks} == set(ids)
    assert all(c.sentences for c in chunks)
    assert store.vector_counts().get("test-hash", 0) == len(chunks)
    return set(ids)


def test_a_dropped_connection_keeps_whole_batches_and_the_rerun_completes(
        pg_server: object, pg_uri: str, tmp_path: Path,
        test_embedders: tuple[str, ...]) -> None:
    corpus = _corpus(tmp_path)
    with PostgresStore(pg_uri) as store:
        store.set_setting("embedder", "test-hash")
        store.set_setting("judges", "")
    database = urlsplit(pg_uri).path.lstrip("/")
    failure: list[BaseException] = []

    def ingest() -> None:
        try:
            with Engine(pg_uri, config="hybrid") as engine:
                engine.ingest([corpus], batching=Batching(docs=8), refresh=False)
        except BaseException as exc:  # what the test is about
            failure.append(exc)

    writer = threading.Thread(target=ingest)
    writer.start()
    with PostgresStore(pg_uri) as watcher:
        while watcher.count()["documents"] < 40 and writer.is_alive():
            time.sleep(0.002)
        # The server ends the writer's session while it holds the write lock, inside a
        # batch: one ended between batches is reopened by the next batch and the ingest
        # completes (test_postgres_reconnect), so a kill that just missed is tried again.
        while writer.is_alive() and not failure:
            pg_server.admin.execute(  # type: ignore[attr-defined]
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                "AND granted AND database = (SELECT oid FROM pg_database WHERE datname = %s)",
                (database,))
            time.sleep(0.001)
    writer.join(timeout=60)
    assert failure and isinstance(failure[0], StoreError), failure
    with PostgresStore(pg_uri) as store:
        kept = _whole(store)
    assert 40 <= len(kept) < DOCS and len(kept) % 8 == 0
    with Engine(pg_uri, config="hybrid") as engine:
        report = engine.ingest([corpus], batching=Batching(docs=8))
        assert len(report.unchanged) == len(kept) and len(report.added) == DOCS - len(kept)
        assert len(_whole(engine.store)) == DOCS  # type: ignore[arg-type]
        answer = engine.ask("When does the canteen open?")
    assert answer.evidence and answer.evidence[0].doc_id.startswith("note-")

