"""Run the real ``chronorag`` command line in a fresh process with the test embedder
registered (as a plug-in would be) and the default token encoder hashed, so process-level
tests do not wait on a model.

    python tests/hash_embedder_cli.py ingest corpus/ --db kb.db

Create the store with ``prepare_store`` first: it records ``test-hash`` as the store's
embedder and no multilingual judges, which the engine then uses. With
``CHRONORAG_TEST_NO_RERANKER=1`` the default pipeline's windows reranker is ``none``: its
rules run, its cross-encoder does not.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from chronorag.cli import main
from chronorag.rank.late import TOKEN_ENCODERS
from chronorag.rank.rerankers import RERANKERS
from chronorag.store.sqlite import SQLiteStore
from conftest import HashTokens, register_test_embedders

TOKENS = "colbert-small"  # the default preset's token encoder, hashed in this driver


def prepare_store(db: Path, embedder: str = "test-hash") -> None:
    with SQLiteStore(db) as store:
        store.set_setting("embedder", embedder)
        store.set_setting("judges", "")  # no multilingual judges: no model to wait on


def command(*args: str) -> list[str]:
    """The argv that runs ``chronorag ARGS...`` through this driver."""
    return [sys.executable, str(Path(__file__)), *args]


def write_corpus(folder: Path, *, files: int, docs: int, tag: str = "") -> Path:
    """``files`` JSONL files of ``docs`` dated twelve-sentence records each."""
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        with (folder / f"part{tag}{f}.jsonl").open("w", encoding="utf-8") as handle:
            for d in range(docs):
                text = " ".join(f"Record {tag}{f}-{d} sentence {s} was written on {2000 + s} "
                                f"March {1 + d % 28}." for s in range(12))
                handle.write(json.dumps({"id": f"{tag}{f}-{d}", "text": text}) + "\n")
    return folder


def damage(db: Path) -> list[str]:
    """What is wrong with a store: a failed integrity or foreign-key check, or a document
    without chunks, or a chunk without sentences or vectors. Empty when sound."""
    conn = sqlite3.connect(db)
    try:
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += [f"foreign key {r}" for r in conn.execute("PRAGMA foreign_key_check")]
        problems += [f"incomplete document {r[0]}" for r in conn.execute("""
            SELECT d.id FROM documents d WHERE
              NOT EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.id)
              OR EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.id AND (
                   NOT EXISTS (SELECT 1 FROM sentences s WHERE s.chunk_id = c.id)
                   OR NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id)))""")]
        return problems
    finally:
        conn.close()


if __name__ == "__main__":
    register_test_embedders()
    TOKEN_ENCODERS._factories[TOKENS] = HashTokens  # no model to wait on in these processes
    if os.environ.get("CHRONORAG_TEST_NO_RERANKER") == "1":
        RERANKERS._factories["windows"] = RERANKERS._factories["none"]
    raise SystemExit(main(sys.argv[1:]))
