"""What both framework retrievers share: one question asked of the engine, its evidence
flattened into (text, metadata) pairs that follow the JSON contract of ``ask --json``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from chronorag.clock import system_now
from chronorag.engine import Engine
from chronorag.model import Asking

# Copied from each evidence item of ``Answer.to_json()``, so the metadata cannot drift
# from the contract (``text`` becomes the page content; ``scores`` stays in the answer).
EVIDENCE_FIELDS = (
    "doc_id", "chunk_id", "title", "source_type", "status", "start", "end",
    "valid_from", "valid_to", "occurred_at", "applicable", "flags", "score",
)


@dataclass(frozen=True)
class Hit:
    """One evidence item: its text and its metadata."""

    text: str
    metadata: dict[str, Any]
    score: float


def ask(engine: Engine, question: str, asking: Asking) -> list[Hit]:
    """The first ``asking.k`` evidence items of ``engine.ask(question)``, best first.

    The engine may show more than ``k`` (every decisive item, so a conflict is visible);
    a framework retriever promises ``k`` documents, and the answer's status, carried in
    each item's metadata, still says when the evidence disagrees.

    ``now=None`` reads the clock here, at call time: a retriever built once and kept for
    a long time must not answer "yesterday" relative to the day it was built. The
    engine's own ``llm``, if any, is not asked: the framework's chain writes the answer
    from these documents, and ``answer`` in their metadata is the extractive one.
    """
    moment = asking.now or system_now()
    answer = engine.ask(question, replace(asking, now=moment), generate=False).to_json()
    # The answer's own status lives beside the evidence's (a document's) status.
    shared = {"answer_status": answer["status"], "answer": answer["answer"]}
    return [Hit(text=item["text"],
                metadata={**{f: item[f] for f in EVIDENCE_FIELDS}, **shared},
                score=float(item["score"]))
            for item in answer["evidence"][:asking.k]]
