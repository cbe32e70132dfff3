"""A PostgreSQL store whose connection the server dropped reconnects on its next read or
write transaction; a transaction that was cut raises and keeps nothing; a server that
stays down is one clear StoreError naming the redacted URI."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from chronorag.errors import StoreError
from chronorag.store import PostgresStore, PreparedDocument

Make = Callable[..., PreparedDocument]


def _database(uri: str) -> str:
    return urlsplit(uri).path.lstrip("/")


def _end_sessions(pg_server: Any, uri: str, *, wait: bool = True) -> None:
    """End every session on ``uri``'s database; ``wait``: until the server has closed them
    (pg_terminate_backend only signals the backends)."""
    database = _database(uri)
    ended = pg_server.admin.execute(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = %s AND pid <> pg_backend_pid()) t", (database,)).fetchone()[0]
    assert ended >= 1
    deadline = time.monotonic() + 10
    while wait and time.monotonic() < deadline:
        left = pg_server.admin.execute("SELECT count(*) FROM pg_stat_activity WHERE "
                                       "datname = %s", (database,)).fetchone()[0]
        if not left:
            return
        time.sleep(0.005)
    assert not wait, "the server did not end the sessions"


def _reconnects(caplog: pytest.LogCaptureFixture) -> int:
    return sum("reconnected" in r.getMessage() for r in caplog.records
               if r.name == "chronorag.store.pg_session" and r.levelno == logging.WARNING)


def test_a_read_after_the_session_was_ended_reconnects(
        pg_server: Any, pg_uri: str, make: Make, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="chronorag.store.pg_session")
    with PostgresStore(pg_uri) as store:
        store.write([make("a"), make("b")])
        assert store.document_ids() == ["a", "b"]
        # One read of each kind: a statement, a snapshot of several, a reading block.
        for read in (store.document_ids, lambda: [c.id for c in store.chunks()],
                     store.chunk_summary, store.people):
            _end_sessions(pg_server, pg_uri)
            assert read()
        assert _reconnects(caplog) == 4
        # Not waiting for the server: the statement may be sent before its goodbye arrives.
        for _ in range(5):
            _end_sessions(pg_server, pg_uri, wait=False)
            assert store.count()["documents"] == 2
        assert store.document_ids() == ["a", "b"]


@pytest.mark.parametrize("cut", ["mid-transaction", "at-commit"])
def test_a_cut_write_raises_keeps_nothing_and_the_next_write_succeeds(
        pg_server: Any, pg_uri: str, make: Make, cut: str) -> None:
    with PostgresStore(pg_uri) as store:
        store.write([make("kept")])
        with pytest.raises(StoreError) as raised, store.atomic():
            store.write([make("cut-1")])
            _end_sessions(pg_server, pg_uri)
            if cut == "mid-transaction":
                store.write([make("cut-2")])
        assert "Traceback" not in str(raised.value)
        # The next write transaction reconnects, and the cut one was never replayed.
        store.write([make("next")])
        assert store.document_ids() == ["kept", "next"]
        counts = store.count()
        assert counts["chunks"] == 4 and store.vector_counts() == {"e5": 4}


def test_a_write_after_the_session_was_ended_reconnects(
        pg_server: Any, pg_uri: str, make: Make) -> None:
    with PostgresStore(pg_uri) as store:
        store.write([make("a")])
        _end_sessions(pg_server, pg_uri)
        store.write([make("b")])
        _end_sessions(pg_server, pg_uri, wait=False)
        store.set_setting("embedder", "test-hash")
        assert store.document_ids() == ["a", "b"] and store.setting("embedder") == "test-hash"


class _Proxy:
    """A TCP port forwarding to the server's Unix socket, which the test can take down
    (every connection dropped, new ones refused) and bring back on the same port."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.port = 0
        self._sockets: list[socket.socket] = []
        self._listener: socket.socket | None = None
        self.up()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # taken down
                return
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.target)
            self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):  # either side closed: the pair is done
            while data := source.recv(65536):
                sink.sendall(data)
        for s in (source, sink):
            with contextlib.suppress(OSError):  # already shut by the other direction
                s.shutdown(socket.SHUT_RDWR)

    def down(self) -> None:
        if self._listener is None:
            return
        # shutdown, not just close: it wakes the accept() blocked on it in another thread.
        self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._listener = None
        for s in self._sockets:
            with contextlib.suppress(OSError):  # already shut by the other direction
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self._sockets.clear()


@pytest.fixture
def proxy(pg_uri: str) -> Iterator[_Proxy]:
    folder = Path(parse_qs(urlsplit(pg_uri).query)["host"][0])
    target = next(folder.glob(".s.PGSQL.*[0-9]"))
    forwarding = _Proxy(str(target))
    yield forwarding
    forwarding.down()


def test_a_server_that_stays_down_is_a_clear_store_error(
        pg_uri: str, make: Make, proxy: _Proxy) -> None:
    uri = f"postgresql://postgres:s3cret@127.0.0.1:{proxy.port}/{_database(pg_uri)}"
    with PostgresStore(uri) as store:
        store.write([make("a")])
        proxy.down()  # the server vanishes: no goodbye, the socket just ends
        for call in (store.document_ids, lambda: store.write([make("b")])):
            with pytest.raises(StoreError) as raised:
                call()
            message = str(raised.value)
            assert f"'postgresql://postgres:***@127.0.0.1:{proxy.port}/" in message
            assert "s3cret" not in message and "\n" not in message
            assert "reopening it failed" in message and "server is running" in message
        proxy.up()  # back on the same port: the next call reconnects
        store.write([make("b")])
        assert store.document_ids() == ["a", "b"]
