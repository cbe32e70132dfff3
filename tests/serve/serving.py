"""Running a real chronorag server in tests: uvicorn on a free loopback port, in a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx

from chronorag.serve import Limits, create_app
from chronorag.serve.keys import add_key, revoke_key
from chronorag.serve.service import Service
from chronorag.store.sqlite import SQLiteStore

CASES = Path(__file__).parents[1] / "cases"
SHANGHAI = timezone(timedelta(hours=8))
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)
FAST_CONFIG = "hybrid"  # no reranker: nothing to load


@dataclass
class Served:
    """A running server: its address, a key per kind of caller, its service."""

    url: str
    service: Service
    db: Path
    keys: dict[str, str] = field(default_factory=dict)

    @property
    def admin_key(self) -> str:
        return self.keys["admin"]

    @property
    def user_key(self) -> str:
        return self.keys["me"]

    def client(self, key: str | None = None, **kwargs: object) -> httpx.Client:
        headers = {} if key is None else {"Authorization": f"Bearer {key}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=120.0, **kwargs)


@contextmanager
def running(service: Service, *, clock: Callable[[], datetime],
            limits: Limits | None = None) -> Iterator[str]:
    """Serve ``service`` on a free loopback port until the block ends; yields its URL."""
    import uvicorn

    app = create_app(service, clock=clock, limits=limits or Limits())
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def make_keys(db: Path) -> dict[str, str]:
    """Keys: ``admin`` (user me, admin), ``me``, ``mom``, ``dad``, ``stranger`` (a user
    nobody granted anything), ``revoked`` (user me, revoked)."""
    keys: dict[str, str] = {}
    with SQLiteStore(db) as store:
        for name, user, admin in [("admin", "me", True), ("me", "me", False),
                                  ("mom", "mom", False), ("dad", "dad", False),
                                  ("stranger", "stranger", False), ("revoked", "me", False)]:
            record, keys[name] = add_key(store, user=user, admin=admin, now=NOW)
            if name == "revoked":
                revoke_key(store, record.id, now=NOW)
    return keys


