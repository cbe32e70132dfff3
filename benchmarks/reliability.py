"""Reliability: fuzzed text through every parser, SIGKILLed ingests, concurrent processes,
unseen corpora. Prints one table a part; every count of failures must be 0.

    python benchmarks/reliability.py                      # all parts, ~6 min
    python benchmarks/reliability.py --parts fuzz --texts 20000
    python benchmarks/reliability.py --parts kills --kills 100
    python benchmarks/reliability.py --parts corpora

Kills and concurrency run the real command line in fresh processes with the test embedder
(``tests/hash_embedder_cli.py``): what they test is the commit path, not the model, and a
model would only make each run slower. Unseen corpora are ingested the same way (the text
paths, parsers and chunker are the ones every embedder uses).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "tests"))

FRAGMENTS = ["the 1st century", "0000-00-00 00:00:00", "2023-02-30 10:00", "9999-12",
             "Dec 9999", "Q4 9999", "5000 years ago", "公元1世纪", "9999年", "最近9999年",
             "500 BC", "公元前221年", "上周二", "yesterday at 3pm", "from 1990 to 1995",
             "between Mar 2004 and Oct 2005", "2003年到2005年之间", "十九世纪七十年代",
             "明天下午5:00"]
ALPHABET = ("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,:;-/–~'()?!"
            "年月日周号点半前后上下本这去今明昨世纪公元一二三四五六七八九十百千万零〇两"
            "从到至以来起之间时分秒早晚午夜凌晨季度旬年代\n\t\u3000，。？！")


def _random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.4:
            parts.append(rng.choice(FRAGMENTS))
        elif roll < 0.6:
            parts.append(str(rng.choice([0, 1, 99, 999, 1000, 2021, 9999, 10000, 99999,
                                         rng.randint(0, 100000)])))
        else:
            parts.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 25))))
    return rng.choice(["", " ", "年", "-", " to "]).join(parts)


def _well_formed(interval: object) -> bool:
    start, end = getattr(interval, "start", None), getattr(interval, "end", None)
    aware = all(t is None or t.tzinfo is not None for t in (start, end))
    return aware and (start is None or end is None or start < end)


def fuzz(texts: int, seed: int) -> list[tuple[str, int, int, int]]:
    """Random texts through parse, parse_one, sentence mentions and understand."""
    from chronorag.errors import TimeParseError
    from chronorag.ingest import split_sentences
    from chronorag.timex import parse, parse_one, sentence_mentions
    from chronorag.understand import understand

    rng = random.Random(seed)
    counts: dict[str, Counter[str]] = {k: Counter() for k in
                                       ("parse", "parse_one", "sentence_mentions", "understand")}
    for _ in range(texts):
        text = _random_text(rng)
        now = datetime(rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 28),
                       tzinfo=UTC)
        calls = {
            "parse": lambda t=text, n=now: [e.interval for e in parse(t, now=n)],
            "parse_one": lambda t=text, n=now: [parse_one(t, now=n).interval],
            "sentence_mentions": lambda t=text: [m.interval for ms in sentence_mentions(
                t, split_sentences(t)) for m in ms],
            "understand": lambda t=text, n=now: [
                e.interval for e in understand(t, now=n).time_expressions],
        }
        for name, call in calls.items():
            try:
                intervals = call()
            except TimeParseError:
                intervals = []
            except Exception as exc:  # the failure being counted
                counts[name][f"raised {type(exc).__name__}"] += 1
                continue
            counts[name]["ok"] += 1
            counts[name]["malformed"] += sum(not _well_formed(i) for i in intervals)
    return [(name, texts, c["malformed"], sum(v for k, v in c.items() if k.startswith("raised")))
            for name, c in counts.items()]


def _corpus(folder: Path, *, docs: int, tag: str) -> Path:
    from hash_embedder_cli import write_corpus

    return write_corpus(folder, files=1, docs=docs, tag=tag)


def _cli(*args: str) -> list[str]:
    from hash_embedder_cli import command

    return command(*args)


def _prepare(db: Path) -> None:
    from hash_embedder_cli import prepare_store

    prepare_store(db)


def _damaged(db: Path) -> bool:
    from hash_embedder_cli import damage

    return bool(damage(db))


def _count(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM documents").fetchone()[0])
    finally:
        conn.close()


def kills(n: int, seed: int, work: Path) -> dict[str, object]:
    """SIGKILL ``chronorag ingest`` at a random moment of a fresh ingest, check the store,
    then run the same ingest again and check that it completes."""
    corpus = _corpus(work / "kill-corpus", docs=2000, tag="k")
    reference = work / "reference.db"
    _prepare(reference)
    started = time.monotonic()
    subprocess.run(_cli("ingest", str(corpus), "--db", str(reference), "--batch", "20"),
                   check=True, capture_output=True)
    full = time.monotonic() - started
    rng = random.Random(seed)
    outcome: Counter[str] = Counter()
    committed = []
    for i in range(n):
        db = work / f"kill-{i}.db"
        _prepare(db)
        proc = subprocess.Popen(_cli("ingest", str(corpus), "--db", str(db), "--batch", "20"),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.1, full))
        killed = proc.poll() is None
        if killed:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        outcome["killed" if killed else "finished first"] += 1
        outcome["damaged"] += _damaged(db)
        committed.append(_count(db))
        out = subprocess.run(_cli("ingest", str(corpus), "--db", str(db), "--json"),
                             capture_output=True, text=True)
        report = json.loads(out.stdout) if out.returncode == 0 else {}
        outcome["completed"] += (report.get("added", 0) + report.get("unchanged", 0) == 2000
                                 and _count(db) == 2000 and not _damaged(db))
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    committed.sort()
    return {"runs": n, "killed mid-ingest": outcome["killed"],
            "finished before the kill": outcome["finished first"],
            "documents committed at the kill (min/median/max)":
                f"{committed[0]}/{committed[len(committed) // 2]}/{committed[-1]}",
            "stores damaged": outcome["damaged"],
            "completed by running again": f"{outcome['completed']}/{n}",
            "full ingest s": round(full, 1)}


def concurrent(work: Path) -> list[tuple[str, int, int, int]]:
    """Readers (review, ask) while an ingest runs; two ingests at once."""
    db = work / "concurrent.db"
    _prepare(db)
    subprocess.run(_cli("ingest", str(_corpus(work / "c0", docs=50, tag="c0")), "--db",
                        str(db)), check=True, capture_output=True)
    writer = subprocess.Popen(_cli("ingest", str(_corpus(work / "c1", docs=3000, tag="c1")),
                                   "--db", str(db), "--batch", "10"),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rows = []
    for command in (["review", "--json"], ["ask", "When was record c00-3 written?", "--json"]):
        ok = failed = during = 0
        for _ in range(3):
            out = subprocess.run(_cli(*command, "--db", str(db)), capture_output=True,
                                 text=True, env={**os.environ, "CHRONORAG_BUSY_TIMEOUT": "0"})
            ok += out.returncode == 0
            failed += out.returncode != 0
            during += writer.poll() is None
        rows.append((f"{command[0]} during an ingest", ok, failed, during))
    writer.wait()
    rows.append(("the ingest itself", int(writer.returncode == 0), int(writer.returncode != 0),
                 0))
    pair = [subprocess.Popen(_cli("ingest", str(_corpus(work / f"p{i}", docs=800,
                                                               tag=f"p{i}")),
                                  "--db", str(db), "--batch", "10"),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for i in range(2)]
    codes = [p.wait() for p in pair]
    rows.append(("two ingests at once", codes.count(0), len(codes) - codes.count(0), 2))
    return rows


def corpora(work: Path) -> list[tuple[str, int, int, float, str]]:
    """Ingest corpora nobody here tuned on; any error is a failure."""
    from chronorag.pipeline.ingest import Embedders, ingest_paths
    from chronorag.store.sqlite import SQLiteStore
    from conftest import HashEmbedder

    rows = []
    names = ["timeqa-train", "xquad/en-en", "xquad/zh-zh", "timeqa"]
    for name in names:
        path = DATA / name / "corpus.jsonl"
        if not path.exists():
            continue
        db = work / f"corpus-{name.replace('/', '-')}.db"
        started = time.monotonic()
        with SQLiteStore(db) as store:
            try:
                report = ingest_paths(store, [path], embedders=Embedders([HashEmbedder()]),
                                      now=datetime.now(UTC), tz=UTC)
                outcome = "ok"
                added = len(report.added)
            except Exception as exc:
                outcome, added = f"FAILED {type(exc).__name__}: {exc}", 0
            chunks = store.count()["chunks"]
        rows.append((name, added, chunks, round(time.monotonic() - started, 1), outcome))
    return rows


def batches(work: Path) -> list[tuple[str, float, float]]:
    """What committing in batches costs: the same ingest in batches of 64 documents and in
    one transaction, in this process (the test embedder makes the commit share the largest
    it can be; with e5 embedding dominates)."""
    from chronorag.pipeline.ingest import Batching, Embedders, ingest_paths
    from chronorag.store.sqlite import SQLiteStore
    from conftest import HashEmbedder

    corpus = _corpus(work / "batch-corpus", docs=6000, tag="b")
    rows = []
    baseline = 0.0
    for name, batching in (("one transaction (baseline)", Batching(docs=10**9, chars=10**12)),
                           ("batches of 64", Batching()), ("batches of 8", Batching(docs=8))):
        db = work / f"batch-{len(rows)}.db"
        started = time.perf_counter()
        with SQLiteStore(db) as store:
            ingest_paths(store, [corpus], embedders=Embedders([HashEmbedder()]),
                         now=datetime.now(UTC), tz=UTC, batching=batching)
        seconds = time.perf_counter() - started
        baseline = baseline or seconds
        rows.append((name, round(seconds, 2), round(seconds / baseline, 2)))
    return rows


def _table(header: list[str], rows: list[tuple[object, ...]] | list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="fuzz,kills,concurrent,corpora,batches")
    parser.add_argument("--texts", type=int, default=5000)
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if "fuzz" in parts:
            print(f"\nFuzzed texts ({args.texts}, seed {args.seed})\n")
            print(_table(["parser", "texts", "malformed intervals", "exceptions"],
                         fuzz(args.texts, args.seed)))
        if "kills" in parts:
            print(f"\nSIGKILL during ingest ({args.kills} runs, 2,000 documents, batches of 20)\n")
            result = kills(args.kills, args.seed, work)
            print(_table(list(result), [list(result.values())]))
        if "concurrent" in parts:
            print("\nProcesses sharing one store\n")
            print(_table(["what", "succeeded", "failed", "while the ingest ran"],
                         concurrent(work)))
        if "batches" in parts:
            print("\nCommit cost (6,000 documents, test embedder)\n")
            print(_table(["ingest", "seconds", "ratio"], batches(work)))
        if "corpora" in parts:
            print("\nUnseen corpora (test embedder)\n")
            print(_table(["corpus", "documents", "chunks", "seconds", "outcome"],
                         corpora(work)))


if __name__ == "__main__":
    main()
