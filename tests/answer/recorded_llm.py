"""A local HTTP endpoint that replays recorded llama.cpp chat completions.

The envelopes in ``tests/cases/generation/`` were recorded from llama.cpp's server
(xllamacpp serving SmolLM2-135M-Instruct): one plain completion and one server-sent
event stream. A test chooses what the "model" writes and the endpoint answers in exactly
those shapes, so the generator's checks are tested on chosen texts over real HTTP.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CASES = Path(__file__).resolve().parents[1] / "cases" / "generation"
CHAT = json.loads((CASES / "xllamacpp-chat.json").read_text("utf-8"))
STREAM = [json.loads(line[5:]) for line in
          (CASES / "xllamacpp-stream.txt").read_text("utf-8").splitlines()
          if line.startswith("data: {")]


@dataclass(frozen=True)
class Reply:
    """What the endpoint does for one request: write ``content`` (in pieces of a word
    when streaming, ``gap_s`` apart), or answer HTTP ``status`` with ``raw``, after
    ``delay_s``."""

    content: str = ""
    status: int = 200
    raw: str | None = None
    delay_s: float = 0.0
    gap_s: float = 0.0


def chat_body(content: str) -> dict[str, Any]:
    body = json.loads(json.dumps(CHAT))
    body["choices"][0]["message"]["content"] = content
    return body


def stream_lines(content: str) -> Iterator[str]:
    """The recorded stream with ``content`` in its pieces: role first, then one chunk
    a word, then the recorded final chunk and ``[DONE]``."""
    first, piece, last = STREAM[0], STREAM[1], STREAM[-1]
    yield f"data: {json.dumps(first)}\n\n"
    words = content.split(" ")
    for n, word in enumerate(words):
        chunk = json.loads(json.dumps(piece))
        chunk["choices"][0]["delta"]["content"] = word if n == 0 else " " + word
        yield f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n"
    yield f"data: {json.dumps(last)}\n\n"
    yield "data: [DONE]\n\n"


class _Quiet(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out and left: what the time-out tests do on purpose


class RecordedLLM:
    """``with RecordedLLM(reply) as llm: ... llm.url``; ``reply`` is a :class:`Reply`, a
    list of them (one per request, the last repeating) or a function of the request
    body. ``requests`` keeps every request body received, ``headers`` their headers."""

    def __init__(self, reply: Reply | Sequence[Reply] | Callable[[dict[str, Any]], Reply]
                 ) -> None:
        self._reply = reply
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._server = _Quiet(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def reply_to(self, body: dict[str, Any]) -> Reply:
        if callable(self._reply):
            return self._reply(body)
        if isinstance(self._reply, Reply):
            return self._reply
        return self._reply[min(len(self.requests) - 1, len(self._reply) - 1)]

    def __enter__(self) -> RecordedLLM:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.headers.append(dict(self.headers.items()))
                owner.requests.append(body)
                reply = owner.reply_to(body)
                time.sleep(reply.delay_s)
                if reply.raw is not None or reply.status != 200:
                    self._send(reply.status, reply.raw or "", "application/json")
                elif body.get("stream"):
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for line in stream_lines(reply.content):
                        self.wfile.write(line.encode("utf-8"))
                        self.wfile.flush()
                        time.sleep(reply.gap_s)
                else:
                    self._send(200, json.dumps(chat_body(reply.content), ensure_ascii=False),
                               "application/json; charset=utf-8")

            def _send(self, status: int, text: str, kind: str) -> None:
                data = text.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
