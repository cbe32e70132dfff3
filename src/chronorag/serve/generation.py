"""The model writes the answer after the question's turn: whole, or as server-sent events.

A question takes its turn for retrieval and the extractive answer only; the model then
writes in a worker thread, so the questions queued behind never wait for a slow model.
The model's own time-out bounds the writing; a failing endpoint is a flag on the answer
(:mod:`chronorag.answer.generate`), never an error of the request.

``POST /v1/ask/stream`` sends, in order: ``evidence`` (the extractive answer, ``ask
--json`` before the model writes), one ``delta`` (``{"text": piece}``) per piece the
model streams, then ``answer`` (exactly what ``POST /v1/ask`` returns). A failure once the
stream has started ends it with ``error`` (the API's JSON error shape).
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
from anyio.streams.memory import MemoryObjectReceiveStream
from fastapi.sse import ServerSentEvent

from chronorag.model import Answer
from chronorag.serve.service import Service, internal_error

log = logging.getLogger(__name__)


async def written(service: Service, answer: Answer) -> Answer:
    """``answer`` as the model writes it (unchanged without an llm), off the event loop."""
    if service.llm is None:
        return answer
    return await anyio.to_thread.run_sync(
        lambda: service.generate(answer), abandon_on_cancel=True)


def event(name: str, data: Any) -> ServerSentEvent:
    # Compact JSON on one line: json.dumps escapes the newlines inside strings, so the
    # data never splits over several data: lines.
    return ServerSentEvent(event=name, raw_data=json.dumps(
        data, ensure_ascii=False, separators=(",", ":")))


async def events(service: Service, answer: Answer) -> AsyncIterator[ServerSentEvent]:
    """The events of one streamed answer (see the module's docstring)."""
    try:
        yield event("evidence", answer.to_json())
        if service.llm is None:
            yield event("answer", answer.to_json())
            return
        with _writing(service, answer) as pieces:
            async for piece in pieces:
                if isinstance(piece, Exception):
                    raise piece
                if isinstance(piece, Answer):
                    yield event("answer", piece.to_json())
                    return
                yield event("delta", {"text": piece})
    except Exception as exc:  # the status line is sent: the error can only be an event
        log.error("internal error streaming an answer", exc_info=exc)
        yield event("error", internal_error(exc).to_json())


def _writing(service: Service,
             answer: Answer) -> MemoryObjectReceiveStream[str | Answer | Exception]:
    """Start the model writing ``answer`` in a thread of its own; the stream yields its
    pieces, then the checked answer (or the exception that stopped it).

    A plain thread, not a task: a task group would stay open across the generator's
    yields, and a client that leaves mid-answer would then close it from another task.
    The thread ends with the model's answer or its time-out, even when nobody reads on.
    """
    send, receive = anyio.create_memory_object_stream[str | Answer | Exception](
        math.inf)
    token = anyio.lowlevel.current_token()

    def on_loop(fn: Callable[..., object], *args: object) -> None:
        # Memory streams belong to the event loop; the thread only asks it to act.
        # Refused when the client left (its stream is closed) or the server is stopping.
        with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError, RuntimeError):
            anyio.from_thread.run_sync(fn, *args, token=token)

    def deliver(item: str | Answer | Exception) -> None:
        on_loop(send.send_nowait, item)

    def work() -> None:
        try:
            deliver(service.generate(answer, on_text=deliver))
        except Exception as exc:  # relayed; the reader logs it
            deliver(exc)
        finally:
            on_loop(send.close)

    threading.Thread(target=work, name="chronorag-generate", daemon=True).start()
    return receive
