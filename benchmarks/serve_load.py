"""The HTTP service under load, against the in-process engine in the same run.

    python benchmarks/serve_load.py [--clients 50] [--seconds 60] [--pages 12] [--json]

One store: the demo corpus, the retail semantic layer and the first TimeQA pages, served
by ``chronorag serve`` in a process of its own on loopback. From here:
1. TimeQA questions about those pages, each asked once by ``Engine.ask`` in this process
   and once over HTTP (``/v1/ask``), the order alternating, both warm: p50 against p50 is
   the service's own cost (no question repeats, so no cache flatters either side);
2. ``--clients`` concurrent clients for ``--seconds``, each looping over a mix of ask
   (60%), context (20%) and time (20%), while one upload ingests ``--pages`` more TimeQA
   pages. Every response must be a 200.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx

from chronorag.demo import demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.serve.keys import add_key
from chronorag.store.sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
TIMEQA = ROOT.parent / "shared" / "data" / "timeqa" / "corpus.jsonl"
SHANGHAI = timezone(timedelta(hours=8))
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)
QUESTIONS = [
    "How many days do I have to return an item?",
    "How many days did I have to return an item on 20 December 2026?",
    "How long is the warranty on electronics?",
    "Who was Chancellor of Germany on 26 September 2021?",
    "上周二我几点吃的午饭？",
    "退货期限是多少天？",
]
CONTEXTS = ["华东 GMV 趋势", "monthly revenue by region", "上个月的订单数"]
TIMES = ["上周二", "last Tuesday", "2021年9月26日", "the first quarter of 2020", "昨天下午三点"]


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    cuts = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 \
        else [values[0]] * 99
    return {"n": len(values), "p50": statistics.median(values), "p95": cuts[94],
            "p99": cuts[98]}


def _pages(first: int, count: int, folder: Path, name: str) -> Path:
    lines = TIMEQA.read_text(encoding="utf-8").splitlines()[first:first + count]
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _store(folder: Path, pages: int) -> tuple[Path, str]:
    db = folder / "kb.db"
    with Engine(db, tz=SHANGHAI) as engine:
        engine.ingest([demo_corpus(), ROOT / "tests/cases/semantic/retail.yaml",
                       _pages(0, pages, folder, "base.jsonl")], now=NOW)
        engine.load_people(demo_people())
    with SQLiteStore(db) as store:
        _, key = add_key(store, user="me", admin=True, now=NOW)
    return db, key


def _timeqa_questions(pages: int, count: int) -> list[str]:
    docs = [json.loads(line)["id"] for line in
            TIMEQA.read_text(encoding="utf-8").splitlines()[:pages]]
    path = TIMEQA.parent / "questions.jsonl"
    found = [q["question"] for q in map(json.loads, path.read_text("utf-8").splitlines())
             if q["id"].split("#")[0] in docs]
    return random.Random(7).sample(found, min(count, len(found)))


def _paired(db: Path, url: str, key: str, questions: list[str]
            ) -> tuple[list[float], list[float]]:
    """Each question once in process and once over HTTP, alternating which goes first."""
    local, remote = [], []
    with Engine(db, tz=SHANGHAI) as engine, httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=120) as client:
        engine.warm_up().join()
        for question in QUESTIONS:  # models, indexes and caches warm on both sides
            engine.ask(question, now=NOW, user="me")
            client.post("/v1/ask", json={"question": question, "now": NOW.isoformat()})

        def in_process(question: str) -> None:
            started = time.perf_counter()
            engine.ask(question, now=NOW, user="me")
            local.append((time.perf_counter() - started) * 1000)

        def over_http(question: str) -> None:
            started = time.perf_counter()
            response = client.post("/v1/ask", json={"question": question,
                                                    "now": NOW.isoformat()})
            remote.append((time.perf_counter() - started) * 1000)
            response.raise_for_status()

        for number, question in enumerate(questions):
            first, second = (in_process, over_http) if number % 2 else (over_http, in_process)
            first(question)
            second(question)
    return local, remote


def _serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "chronorag.cli", "serve", "--db", str(db), "--port",
         str(port), "--tz", "Asia/Shanghai"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit("the server did not start")


def _request(rng: random.Random) -> tuple[str, str, str, dict[str, Any]]:
    pick = rng.random()
    if pick < 0.6:
        return "ask", "POST", "/v1/ask", {"json": {"question": rng.choice(QUESTIONS),
                                                   "now": NOW.isoformat()}}
    if pick < 0.8:
        return "context", "POST", "/v1/context", {"json": {"question": rng.choice(CONTEXTS),
                                                           "now": NOW.isoformat()}}
    return "time", "GET", "/v1/time", {"params": {"expression": rng.choice(TIMES),
                                                  "now": NOW.isoformat()}}


async def _load(url: str, key: str, *, clients: int, seconds: float, upload: Path
                ) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {"ask": [], "context": [], "time": []}
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients + 2)
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"},
                                 timeout=300, limits=limits) as client:
        stop = time.monotonic() + seconds

        async def one(seed: int) -> None:
            rng = random.Random(seed)
            while time.monotonic() < stop:
                kind, method, path, kwargs = _request(rng)
                started = time.perf_counter()
                try:
                    response = await client.request(method, path, **kwargs)
                    ok = response.status_code == 200
                    what = f"{kind} {response.status_code} {response.text[:200]}"
                except httpx.HTTPError as exc:
                    ok, what = False, f"{kind} {type(exc).__name__}: {exc}"
                latencies[kind].append((time.perf_counter() - started) * 1000)
                if not ok:
                    errors.append(what)

        async def ingest() -> dict[str, Any]:
            started = time.perf_counter()
            response = await client.post("/v1/documents?name=more.jsonl",
                                         content=upload.read_bytes(),
                                         headers={"Content-Type": "application/x-ndjson"})
            if response.status_code != 200:
                errors.append(f"upload {response.status_code} {response.text[:200]}")
            return {"seconds": time.perf_counter() - started, **response.json()}

        began = time.monotonic()
        results = await asyncio.gather(ingest(), *(one(i) for i in range(clients)))
        wall = time.monotonic() - began
    done = sum(len(v) for v in latencies.values())
    return {"requests": done, "per_s": done / wall, "asks_per_s": len(latencies["ask"]) / wall,
            "errors": len(errors), "error_samples": errors[:5], "upload": results[0],
            **{kind: _percentiles(v) for kind, v in latencies.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pages", type=int, default=12, help="TimeQA pages uploaded")
    parser.add_argument("--questions", type=int, default=60, help="paired TimeQA questions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db, key = _store(folder, pages=20)
        upload = _pages(20, args.pages, folder, "more.jsonl")
        process, url = _serve(db)
        try:
            local, remote = _paired(db, url, key, _timeqa_questions(20, args.questions))
            baseline, served = _percentiles(local), _percentiles(remote)
            load = asyncio.run(_load(url, key, clients=args.clients, seconds=args.seconds,
                                     upload=upload))
        finally:
            process.terminate()
            process.wait(timeout=60)
    result = {"in_process_ask_ms": baseline, "http_ask_ms": served,
              "ratio_p50": served["p50"] / baseline["p50"], "load": load,
              "clients": args.clients, "seconds": args.seconds, "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(result))
        return
    print("| what | n | p50 ms | p95 ms | p99 ms |\n|---|---:|---:|---:|---:|")
    for name, row in [("Engine.ask in process", baseline), ("/v1/ask, one client", served),
                      *[(f"{k} under load", load[k]) for k in ("ask", "context", "time")]]:
        print(f"| {name} | {row['n']} | {row['p50']:.0f} | {row['p95']:.0f} | "
              f"{row['p99']:.0f} |")
    print(f"\n/v1/ask p50 / Engine.ask p50 = {result['ratio_p50']:.3f}")
    print(f"load: {load['requests']} requests in {args.seconds:g} s by {args.clients} clients, "
          f"{load['per_s']:.1f}/s ({load['asks_per_s']:.1f} asks/s), errors "
          f"{load['errors']}; upload {load['upload']}")


if __name__ == "__main__":
    main()
