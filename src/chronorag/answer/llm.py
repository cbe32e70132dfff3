"""The plug-in point of generation: a chat model that writes text from messages.

A :class:`Generator` is anything with ``complete``; chronorag ships one backend,
:class:`~chronorag.answer.openai_chat.OpenAIChat`, for any OpenAI-compatible endpoint.
Whatever it writes is checked against the evidence before it is shown
(:mod:`chronorag.answer.written`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from chronorag.errors import ChronoragError

Message = Mapping[str, str]
"""One chat message: ``{"role": "system" | "user" | "assistant", "content": "..."}``."""


@dataclass(frozen=True)
class Completion:
    """What a model wrote, and the model's name as its endpoint reports it."""

    text: str
    model: str | None = None


class GenerationError(ChronoragError):
    """The model could not write an answer: the endpoint is unreachable, timed out,
    refused the request or answered in an unexpected shape. The engine then keeps the
    extractive answer and flags it; this error never reaches a caller of ``ask``."""


@runtime_checkable
class Generator(Protocol):
    """A chat model. ``on_text`` receives the text piece by piece as it is written
    (when the backend streams); the return value is the whole text."""

    def complete(self, messages: Sequence[Message], *,
                 on_text: Callable[[str], None] | None = None) -> Completion: ...
