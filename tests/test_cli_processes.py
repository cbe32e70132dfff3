"""Real processes on one store: SIGKILL during ingest never damages it, readers answer
while an ingest runs, two ingests serialise and both complete."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chronorag.ingest import CHUNKER_VERSION
from chronorag.pipeline.ingest import EMBED_TEXT_VERSION
from chronorag.store.base import derivation
from chronorag.store.sqlite import SQLiteStore

from .conftest import hash_embedder_cli

DRIVER = Path(__file__).parent / "hash_embedder_cli.py"


cli_driver = hash_embedder_cli()
LAYER = Path(__file__).parent / "cases" / "semantic" / "retail.yaml"
pytestmark = pytest.mark.slow


def _cli(*args: str) -> list[str]:
    return cli_driver.command(*args)


def _corpus(folder: Path, *, files: int, docs: int, tag: str = "") -> Path:
    return cli_driver.write_corpus(folder, files=files, docs=docs, tag=tag)


def _prepare(db: Path) -> None:
    # In a process of its own: this one must not keep the store open.
    subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[2]); "
                    "from hash_embedder_cli import prepare_store; "
                    "from pathlib import Path; prepare_store(Path(sys.argv[1]))",
                    str(db), str(DRIVER.parent)], check=True, timeout=60)


def check_store(db: Path) -> dict[str, int]:
    """Sound (see ``damage``), every document stamped with the current derivation; counts."""
    assert cli_driver.damage(db) == []
    stamp = derivation(CHUNKER_VERSION, ["test-hash"], text=EMBED_TEXT_VERSION,
                       tokens=[cli_driver.TOKENS])
    with SQLiteStore(db) as store:
        ids = store.document_ids()
        assert {d for _, d in store.fingerprints(ids).values()} <= {stamp}
        return store.count()


def test_sigkill_during_ingest_never_damages_the_store(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", files=3, docs=400)
    reference = tmp_path / "reference.db"
    _prepare(reference)
    started = time.monotonic()
    subprocess.run(_cli("ingest", str(corpus), "--db", str(reference), "--batch", "20"),
                   check=True, capture_output=True, timeout=600)
    full = time.monotonic() - started
    expected = check_store(reference)
    assert expected["documents"] == 1200

    db = tmp_path / "kb.db"
    _prepare(db)
    rng = random.Random(20261130)
    kills = 0
    for _ in range(6):
        proc = subprocess.Popen(_cli("ingest", str(corpus), "--db", str(db), "--batch", "20"),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Each run skips what the killed ones committed, so it is shorter than ``full``.
        time.sleep(rng.uniform(0.2, full * 0.6))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait(timeout=60)
        check_store(db)
    assert kills >= 3
    done = subprocess.run(_cli("ingest", str(corpus), "--db", str(db), "--json"),
                          check=True, capture_output=True, text=True, timeout=600)
    report = json.loads(done.stdout)
    assert report["added"] + report["unchanged"] == 1200
    assert check_store(db) == {**expected, "documents": 1200}


def test_readers_answer_from_the_last_commit_while_an_ingest_runs(tmp_path: Path) -> None:
    first = _corpus(tmp_path / "first", files=1, docs=20, tag="a")
    # Large enough that the ingest outlasts the first reader on an idle machine too.
    big = _corpus(tmp_path / "big", files=2, docs=4000, tag="b")
    db = tmp_path / "kb.db"
    _prepare(db)
    subprocess.run(_cli("ingest", str(first), str(LAYER), "--db", str(db)), check=True,
                   capture_output=True, timeout=300)
    writer = subprocess.Popen(_cli("ingest", str(big), "--db", str(db), "--batch", "10"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    env = {**os.environ, "CHRONORAG_BUSY_TIMEOUT": "0"}
    answered_during = 0
    try:
        time.sleep(1.0)
        for command in (["review", "--json"],
                        ["ask", "When was record a0-3 written?", "--json", "-k", "2"],
                        ["context", "华东 GMV 趋势", "--json"],
                        ["review", "--json"]):
            out = subprocess.run(_cli(*command, "--db", str(db)), capture_output=True,
                                 text=True, timeout=300, env=env)
            assert out.returncode == 0, out.stderr
            assert "Traceback" not in out.stderr and "busy" not in out.stderr
            json.loads(out.stdout)
            answered_during += writer.poll() is None
    finally:
        _, stderr = writer.communicate(timeout=600)
    assert writer.returncode == 0, stderr
    assert answered_during >= 1  # at least one reader finished while the ingest ran
    assert check_store(db)["documents"] == 8020


def test_two_concurrent_ingests_serialise_and_both_complete(tmp_path: Path) -> None:
    a = _corpus(tmp_path / "a", files=1, docs=600, tag="a")
    b = _corpus(tmp_path / "b", files=1, docs=600, tag="b")
    db = tmp_path / "kb.db"
    _prepare(db)
    procs = [subprocess.Popen(_cli("ingest", str(c), "--db", str(db), "--batch", "10",
                                   "--json"), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for c in (a, b)]
    results = [p.communicate(timeout=600) for p in procs]
    for proc, (stdout, stderr) in zip(procs, results, strict=True):
        assert proc.returncode == 0, stderr
        assert json.loads(stdout)["added"] == 600
    assert check_store(db)["documents"] == 1200


def test_ask_on_an_empty_store_exits_cleanly_while_the_models_still_load(
        tmp_path: Path) -> None:
    # Answered (not found) before the cross-encoder has loaded: the process used to exit
    # with onnxruntime still building the session, and abort. The store exists (as
    # Engine or an ingest makes one) but holds no documents.
    SQLiteStore(tmp_path / "empty.db").close()
    done = subprocess.run([sys.executable, "-c", "import sys; from chronorag.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", "ask", "anything at all",
                           "--db", str(tmp_path / "empty.db"), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "not_found"
