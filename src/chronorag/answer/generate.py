"""An answer written by a language model from the evidence, checked before it is shown.

The extractive answer is made first, as always; the model then writes from exactly that
answer's evidence and upcoming versions (``context_for_generation``: ids, sources, dates,
validity and flags). The written text replaces the short answer only when
:func:`~chronorag.answer.written.check_written` accepts it, and never improves the status:
an ``uncertain`` answer stays uncertain, a ``not_found`` one is not sent to the model.
A rejected text turns the answer ``uncertain`` and keeps the extractive answer; an
endpoint that fails keeps the extractive answer and its status. Either way ``generation``
in the JSON says what the model wrote and why it was or was not used.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import tzinfo
from typing import Any

from chronorag.answer.context import context_for_generation
from chronorag.answer.llm import Completion, GenerationError, Generator, Message
from chronorag.answer.written import Verdict, check_written
from chronorag.flags import Flag
from chronorag.model import Answer, AnswerStatus

log = logging.getLogger(__name__)


SYSTEM = """You answer a question from the evidence given, and only from it.
Rules:
1. Use only evidence marked "applicable: yes". Never use an item that is superseded, not \
yet valid, a draft or retired, and never an upcoming version.
2. After each statement, cite the id of the evidence it comes from in square brackets, \
exactly as written after the item's opening bracket, e.g. [policy-2026].
3. Copy every number and date exactly as the evidence states it. Add no number or date \
of your own.
4. If the applicable evidence does not answer the question, say that it does not.
5. Answer in the language of the question, in one or two short sentences."""


def messages_for(answer: Answer) -> list[Message]:
    """The chat messages that ask for a written answer to ``answer``."""
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": context_for_generation(answer)
             + "\nWrite the answer now, citing evidence ids in square brackets."}]


def write_answer(answer: Answer, *, llm: Generator, tz: tzinfo,
                 on_text: Callable[[str], None] | None = None) -> Answer:
    """``answer`` with the model's checked answer, or the extractive one and a flag.

    ``on_text`` receives the model's text as it streams, before it is checked; the
    returned answer says whether it was accepted.
    """
    extractive = {"status": answer.status.value, "answer": answer.answer}
    if answer.status is AnswerStatus.NOT_FOUND or not answer.evidence:
        info: dict[str, Any] = {"used": False, "skipped": "nothing relevant was found",
                                "extractive": extractive}
        return _with(answer, info)
    started = time.perf_counter()
    try:
        written = llm.complete(messages_for(answer), on_text=on_text)
    except GenerationError as exc:
        return _failed(answer, str(exc), extractive, started)
    except Exception as exc:  # a plug-in's own failure: the answer still stands
        log.warning("generator %r failed", llm, exc_info=True)
        return _failed(answer, f"{type(exc).__name__}: {exc}", extractive, started)
    verdict = check_written(written.text, evidence=answer.evidence, question=answer.question,
                            now=answer.now, as_of=answer.as_of, tz=tz,
                            upcoming=answer.upcoming)
    info = _info(written, verdict, extractive, started)
    if verdict.accepted:
        return _with(answer, info, text=written.text.strip())
    return _with(answer, info, status=AnswerStatus.UNCERTAIN, flag=Flag.GENERATED_ANSWER_REJECTED)


def _info(written: Completion, verdict: Verdict, extractive: dict[str, Any],
          started: float) -> dict[str, Any]:
    return {"used": verdict.accepted, "model": written.model, "text": written.text,
            "cited": list(verdict.cited), "problems": [p.to_json() for p in verdict.problems],
            "extractive": extractive, "ms": _ms(started)}


def _failed(answer: Answer, error: str, extractive: dict[str, Any], started: float) -> Answer:
    info = {"used": False, "error": error, "extractive": extractive, "ms": _ms(started)}
    return _with(answer, info, flag=Flag.GENERATION_FAILED)


def _with(base: Answer, info: dict[str, Any], *, text: str | None = None,
          status: AnswerStatus | None = None, flag: Flag | None = None) -> Answer:
    flags = base.flags if flag is None or flag in base.flags else (*base.flags, flag)
    return replace(base, answer=text if text is not None else base.answer,
                   status=status or base.status, flags=flags,
                   extras={**base.extras, "generation": info})


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 1)
