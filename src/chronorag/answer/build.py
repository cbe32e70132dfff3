"""Turn ranked hits into an Answer: evidence with provenance, status and a short answer."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from chronorag.model import (
    Answer,
    AnswerStatus,
    Chunk,
    Document,
    Evidence,
    Hit,
    Interval,
    Query,
)

_WORD = re.compile(r"\w+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u9fff]")


def to_evidence(hit: Hit, document: Document | None) -> Evidence:
    """One evidence item: the chunk, its document's source fields and its scores."""
    chunk = hit.chunk
    scores = dict(hit.scores)
    scores.setdefault("semantic", 0.0)
    scores.setdefault("temporal", 1.0)
    doc = document
    return Evidence(
        doc_id=chunk.doc_id, chunk_id=chunk.id, title=doc.title if doc else "",
        text=chunk.text, start=chunk.start, end=chunk.end,
        source_type=doc.source_type if doc else None,
        status=doc.status.value if doc and doc.status else None,
        valid_from=_start(doc.valid_from) if doc else None,
        valid_to=_start(doc.valid_to) if doc else None,
        occurred_at=_start(doc.occurred_at) if doc else None,
        applicable=hit.applicable, flags=hit.flags, score=hit.score, scores=scores,
    )


def build_answer(
    query: Query,
    hits: Sequence[Hit],
    *,
    upcoming: Sequence[Hit] = (),
    documents: Mapping[str, Document],
    min_semantic: float,
    timings_ms: Mapping[str, float] | None = None,
) -> Answer:
    """Decide the status and the short answer from the ranked hits.

    The answer only ever comes from an applicable hit whose semantic score clears
    ``min_semantic``; resting on undated material makes it ``uncertain``.
    """
    shown = list(hits[: query.k])
    relevant = [h for h in hits if h.scores.get("semantic", 0.0) >= min_semantic]
    deciding = next((h for h in relevant if h.applicable and "violates_time" not in h.flags), None)
    flags: list[str] = []
    if deciding is None:
        status, text = AnswerStatus.NOT_FOUND, None
        if relevant:
            flags.append("no_applicable_evidence")
    else:
        text = best_sentence(query, deciding.chunk, deciding.best_sentence)
        status = AnswerStatus.ANSWERED
        if "undated" in deciding.flags:
            status = AnswerStatus.UNCERTAIN
            flags.append("rests_on_undated")
        if deciding not in shown:
            shown = [deciding, *shown[: max(query.k - 1, 0)]]
    return Answer(
        question=query.text, now=query.now, as_of=query.as_of,
        understanding=query.understanding, status=status, answer=text,
        evidence=tuple(to_evidence(h, documents.get(h.chunk.doc_id)) for h in shown),
        upcoming=tuple(to_evidence(h, documents.get(h.chunk.doc_id)) for h in upcoming),
        flags=tuple(flags), timings_ms=dict(timings_ms or {}),
    )


def best_sentence(query: Query, chunk: Chunk, index: int | None = None) -> str:
    """The chunk sentence that best answers the query (a ranker's choice wins)."""
    if not chunk.sentences:
        return chunk.text
    if index is not None:
        for sentence in chunk.sentences:
            if sentence.index == index:
                return sentence.text
    terms = _terms(query.text)
    best = max(chunk.sentences, key=lambda s: (len(terms & _terms(s.text)), -s.index))
    return best.text


def _terms(text: str) -> set[str]:
    words = {w.lower() for w in _WORD.findall(text) if len(w) > 2 and not _CJK.search(w)}
    # CJK has no spaces: character bigrams stand in for words.
    cjk = "".join(_CJK.findall(text))
    return words | {cjk[i : i + 2] for i in range(len(cjk) - 1)}


def _start(interval: Interval | None) -> str | None:
    if interval is None or interval.start is None:
        return None
    return interval.start.isoformat()
