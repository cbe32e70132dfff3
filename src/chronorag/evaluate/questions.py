"""Benchmark questions from ``questions.jsonl``: TimeQA, XQuAD and dated (LoCoMo-style) forms.

One line is one question. ``id`` and ``question`` are required; the rest is optional:
``level`` (else ``category_name``, else ``str(category)``, else "all") groups the report;
``answers`` lists gold answer strings (none: unanswerable); ``evidence`` is either spans
``{"doc_id", "start", "end"}`` or plain document ids (the whole document is gold); ``now``
(ISO 8601; a naive value is read in the engine's zone) is when the question is asked, and
``user`` who asks it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from chronorag.clock import parse_moment
from chronorag.errors import FieldError, ValidationError
from chronorag.evaluate.metrics import GoldEvidence, Span

DEFAULT_LEVEL = "all"


@dataclass(frozen=True)
class Question:
    """One question. ``evidence`` holds gold spans, ``gold_docs`` gold document ids (a
    question has one form or neither); ``now`` None means the harness's fixed moment."""

    id: str
    text: str
    level: str
    answers: tuple[str, ...]
    evidence: tuple[Span, ...]
    gold_docs: tuple[str, ...] = ()
    now: datetime | None = None
    user: str | None = None

    @property
    def gold(self) -> GoldEvidence:
        return GoldEvidence(spans=self.evidence, docs=self.gold_docs)


def load_questions(path: Path, *, limit: int | None = None) -> list[Question]:
    """The questions of ``path``, or an evenly spaced sample of ``limit`` of them.

    Raises ``ValidationError`` naming ``file:line: field: reason`` for every malformed
    line, so a converted benchmark is fixed in one pass rather than one error at a time.
    """
    questions: list[Question] = []
    errors: list[FieldError] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            problems: list[tuple[str, str]] = []
            question = _question(line, problems)
            errors += [FieldError(str(path), number, f, r) for f, r in problems]
            if question is not None and not problems:
                questions.append(question)
    if errors:
        raise ValidationError(errors)
    if not limit or limit >= len(questions):
        return questions
    # An evenly spaced sample: the file is grouped by page, so a prefix would see few pages.
    step = len(questions) / limit
    return [questions[int(i * step)] for i in range(limit)]


def _question(line: str, problems: list[tuple[str, str]]) -> Question | None:
    """One line as a question; what is wrong with it goes to ``problems``."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        problems.append(("line", f"not JSON: {exc.msg}"))
        return None
    if not isinstance(raw, dict):
        problems.append(("line", "not a JSON object"))
        return None
    for name in ("id", "question"):
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            problems.append((name, "required: a non-empty string"))
    answers = raw.get("answers") or []
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        problems.append(("answers", "must be a list of strings"))
        answers = []
    spans, docs = _evidence(raw.get("evidence") or [], problems)
    now = _moment(raw.get("now"), problems)
    user = raw.get("user")
    if user is not None and not isinstance(user, str):
        problems.append(("user", "must be a string"))
    if problems:
        return None
    return Question(raw["id"], raw["question"], _level(raw), tuple(answers), spans,
                    gold_docs=docs, now=now, user=user)


def _level(raw: dict[str, Any]) -> str:
    """The report group: ``level`` (TimeQA, XQuAD), else LoCoMo's ``category_name``, else
    its numeric ``category``."""
    for name in ("level", "category_name", "category"):
        if raw.get(name) is not None:
            return str(raw[name])
    return DEFAULT_LEVEL


def _evidence(items: Any, problems: list[tuple[str, str]]
              ) -> tuple[tuple[Span, ...], tuple[str, ...]]:
    """Gold spans or gold document ids; mixing both in one question is an error, since the
    two are scored differently (see ``metrics.evidence_recall``)."""
    if not isinstance(items, list):
        problems.append(("evidence", "must be a list of spans or of document ids"))
        return (), ()
    docs = tuple(dict.fromkeys(e for e in items if isinstance(e, str)))
    spans = []
    for item in items:
        if isinstance(item, str):
            continue
        if not (isinstance(item, dict) and isinstance(item.get("doc_id"), str)
                and isinstance(item.get("start"), int) and isinstance(item.get("end"), int)):
            problems.append(("evidence", f"{item!r} is neither a document id nor a span "
                                         '{"doc_id": ..., "start": int, "end": int}'))
            continue
        spans.append(Span(item["doc_id"], item["start"], item["end"]))
    if docs and spans:
        problems.append(("evidence", "mixes document ids and spans; use one form"))
    return tuple(spans), docs


def _moment(value: Any, problems: list[tuple[str, str]]) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(("now", "must be an ISO 8601 string"))
        return None
    try:
        return parse_moment(value)
    except ValueError as exc:
        problems.append(("now", str(exc)))
        return None
