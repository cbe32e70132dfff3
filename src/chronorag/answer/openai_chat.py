"""A :class:`~chronorag.answer.llm.Generator` for any OpenAI-compatible chat endpoint:
llama.cpp's server, Ollama, vLLM, LM Studio or a hosted API (``chronorag[llm]``: httpx).

Every failure (no connection, a time-out, an HTTP error, a body that is not a chat
completion) raises :class:`~chronorag.answer.llm.GenerationError` with one line saying
what happened; the engine turns it into a flag, never a crash.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from chronorag.answer.llm import Completion, GenerationError, Message
from chronorag.errors import MissingDependencyError

log = logging.getLogger(__name__)
KEY_ENV = "CHRONORAG_LLM_KEY"
"""The endpoint's API key, read from the environment so it never sits on a command line."""
_MAX_ERROR = 300


def completions_url(url: str) -> str:
    """The chat completions address of ``url``: kept when it names one, else
    ``/chat/completions`` under it (``/v1/chat/completions`` for a bare host)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{url!r} is not an http(s) URL; give the endpoint's base, e.g. "
                         "http://127.0.0.1:8080/v1")
    path = parts.path.rstrip("/")
    if not path.endswith("/chat/completions"):
        path = (path or "/v1") + "/chat/completions"
    return parts._replace(path=path).geturl()


class OpenAIChat:
    """Chat completions over HTTP; streams when ``on_text`` is given.

    Args:
        url: the endpoint's base (``http://127.0.0.1:8080/v1``) or its chat completions URL.
        model: the model name to request; ``None`` sends none (a llama.cpp server serves
            its one model) and reports the name the endpoint answers with.
        timeout_s: the most the whole answer may take, streamed or not.
        api_key: sent as ``Authorization: Bearer``; default ``$CHRONORAG_LLM_KEY``.
        max_tokens: the longest answer asked for.
    """

    def __init__(self, url: str, *, model: str | None = None, timeout_s: float = 60.0,
                 api_key: str | None = None, max_tokens: int = 300) -> None:
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be positive, got {timeout_s}")
        self.url = completions_url(url)
        self.model = model
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self._key = api_key if api_key is not None else os.environ.get(KEY_ENV)

    def __repr__(self) -> str:  # never the key
        return f"OpenAIChat({self.url!r}, model={self.model!r})"

    def complete(self, messages: Sequence[Message], *,
                 on_text: Callable[[str], None] | None = None) -> Completion:
        try:
            import httpx
        except ImportError:
            raise MissingDependencyError("httpx", extra="llm", needed_for="--llm") from None
        body: dict[str, Any] = {"messages": [dict(m) for m in messages], "temperature": 0,
                                "max_tokens": self.max_tokens, "stream": on_text is not None}
        if self.model:
            body["model"] = self.model
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        deadline = time.monotonic() + self.timeout_s
        timeout = httpx.Timeout(self.timeout_s, connect=min(10.0, self.timeout_s))
        try:
            with httpx.Client(timeout=timeout) as client:
                if on_text is None:
                    response = client.post(self.url, json=body, headers=headers)
                    _raise_for_status(response)
                    return _parse_completion(response.json())
                with client.stream("POST", self.url, json=body, headers=headers) as response:
                    if response.is_error:
                        response.read()
                        _raise_for_status(response)
                    return _read_stream(response.iter_lines(), on_text, deadline=deadline)
        except httpx.TimeoutException:
            raise GenerationError(f"{self.url}: no answer within {self.timeout_s:g} s") from None
        except httpx.HTTPError as exc:
            raise GenerationError(f"{self.url}: {type(exc).__name__}: {exc}") from None
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise GenerationError(f"{self.url}: not a chat completion "
                                  f"({type(exc).__name__}: {exc})") from None


def _raise_for_status(response: Any) -> None:
    if response.is_error:
        text = " ".join(response.text.split())[:_MAX_ERROR]
        raise GenerationError(f"{response.request.url}: HTTP {response.status_code}: {text}")


def _parse_completion(body: Mapping[str, Any]) -> Completion:
    content = body["choices"][0]["message"]["content"]
    if not isinstance(content, str):
        raise TypeError(f"message content is {type(content).__name__}, not text")
    model = body.get("model")
    return Completion(content, model if isinstance(model, str) else None)


def _read_stream(lines: Iterator[str], on_text: Callable[[str], None], *,
                 deadline: float) -> Completion:
    """Server-sent events of chat completion chunks up to ``data: [DONE]``."""
    pieces: list[str] = []
    model: str | None = None
    for line in lines:
        if time.monotonic() > deadline:
            raise GenerationError("the answer took longer than the time-out")
        if not line.startswith("data:"):
            continue  # comments, event names and keep-alives
        data = line[5:].strip()
        if data == "[DONE]":
            break
        chunk = json.loads(data)
        if "error" in chunk:
            raise GenerationError(f"the endpoint failed mid-answer: {chunk['error']}")
        model = chunk.get("model") if isinstance(chunk.get("model"), str) else model
        for choice in chunk.get("choices") or ():
            piece = (choice.get("delta") or {}).get("content")
            if isinstance(piece, str) and piece:
                pieces.append(piece)
                on_text(piece)
    return Completion("".join(pieces), model)
