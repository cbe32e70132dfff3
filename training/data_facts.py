"""TimeQA questions as facts: who/what held a relation on a page, during which time.

A question id is ``page#relation#qN``; the questions of one page and relation are the
periods of one fact ("employer of X"), the *siblings* of each other. The time of each
question is read with the product's own question understanding (``chronorag.understand``),
and kept only when it is one closed period ("from 2004 to 2005", "in 1954") — the span the
perturbed questions are cut from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from chronorag.evaluate.harness import EVAL_NOW, load_questions
from chronorag.evaluate.metrics import contains_sequence, normalize_tokens
from chronorag.model import Constraint, Interval, Relation
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import relate
from chronorag.understand import understand

__all__ = ["NOW", "Fact", "GoldTime", "answer_tokens", "gold_time", "holds_any", "load_facts",
           "mentions_answer", "same_answer"]

# Questions are read at the evaluation harness's fixed moment, so a relative expression
# cannot make the data depend on the day it is built.
NOW = EVAL_NOW
_PERIOD = (Relation.BETWEEN, Relation.IN)


@dataclass(frozen=True)
class GoldTime:
    """The time a question asks about and where it is written (relation words included)."""

    interval: Interval
    start: int
    end: int


@dataclass(frozen=True)
class Fact:
    """One TimeQA question: a relation of a page over one period.

    ``time`` is ``None`` when the question names no single closed period (no time, an open
    one such as "since 2011", a typo like "from 1998 to 200"): such a fact still labels its
    own windows, but no variant is cut from it and it never decides another question's label.
    """

    qid: str
    page: str
    relation: str
    question: str
    content: str
    answers: tuple[str, ...]
    evidence: tuple[tuple[int, int], ...]
    time: GoldTime | None

    @property
    def answerable(self) -> bool:
        return bool(self.answers)


def gold_time(question: str, *, now: datetime = NOW,
              constraint: Constraint | None = None) -> GoldTime | None:
    """The question's closed period as the product reads it, with its span in the text;
    ``constraint``: the question's, when the caller has already understood it."""
    if constraint is None:
        constraint = understand(question, now=now).constraint
    interval = constraint.interval
    if (constraint.relation not in _PERIOD or interval is None or interval.start is None
            or interval.end is None):
        return None
    for found in find(question, context(now, UTC)):
        if found.interval is None:
            continue
        related = relate(question, found)
        if related.relation is constraint.relation and related.interval == interval:
            return GoldTime(interval, related.start, related.end)
    return None


def load_facts(path: Path, *, now: datetime = NOW) -> list[Fact]:
    """Every question of a TimeQA ``questions.jsonl``, in file order."""
    facts = []
    for q in load_questions(path):
        page, relation = q.id.split("#")[:2]
        understanding = understand(q.text, now=now)
        facts.append(Fact(
            qid=q.id, page=page, relation=relation, question=q.text,
            content=understanding.content, answers=q.answers,
            evidence=tuple((e.start, e.end) for e in q.evidence if e.doc_id == page),
            time=gold_time(q.text, now=now, constraint=understanding.constraint),
        ))
    return facts


def same_answer(a: Fact, b: Fact) -> bool:
    """True when the two facts share an answer (token-normalised, as AR@k compares)."""
    left = {tuple(normalize_tokens(x)) for x in a.answers}
    return any(tuple(normalize_tokens(x)) in left for x in b.answers)


def answer_tokens(answers: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The answers as AR@k compares them: token runs, empty ones dropped."""
    return tuple(t for t in (tuple(normalize_tokens(a)) for a in answers) if t)


def holds_any(tokens: Sequence[str], needles: Sequence[Sequence[str]]) -> bool:
    """True when one of ``needles`` occurs as a token run in ``tokens``."""
    return any(contains_sequence(tokens, n) for n in needles)


def mentions_answer(text: str, answers: Sequence[str]) -> bool:
    """True when ``text`` holds one of ``answers`` as a token run."""
    return holds_any(normalize_tokens(text), answer_tokens(answers))
