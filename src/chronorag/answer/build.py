"""Turn ranked hits into an Answer: evidence with provenance, status and a short answer.

Two steps, so the metadata always reaches the answer stage: hits first become
:class:`~chronorag.model.Evidence` items (chunk text plus title, source type, status,
owner and dates of its document, and its best sentence; see ``answer.evidence``), then
:func:`~chronorag.answer.decide.decide` chooses from those items only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import tzinfo

from chronorag.answer import personal, when
from chronorag.answer.decide import AnswerRules, Decision, decide, semantic
from chronorag.answer.evidence import best_sentence, to_evidence
from chronorag.answer.listing import list_answer
from chronorag.answer.own_date import own_date
from chronorag.answer.titled import named_first
from chronorag.model import Answer, AnswerStatus, Document, Evidence, Hit, Intent, Query
from chronorag.rank.authority import AuthorityPrior

__all__ = ["best_sentence", "build_answer", "evidence_items", "order_evidence", "to_evidence"]


def evidence_items(query: Query, hits: Sequence[Hit], *, documents: Mapping[str, Document],
                   authority: AuthorityPrior | None = None) -> list[Evidence]:
    """Hits as evidence items, in the same order, each with its document's metadata."""
    return [to_evidence(h, documents.get(h.chunk.doc_id), question=query.text,
                        authority=authority) for h in hits]


def build_answer(
    query: Query,
    hits: Sequence[Hit],
    *,
    upcoming: Sequence[Hit] = (),
    documents: Mapping[str, Document],
    min_semantic: float,
    timings_ms: Mapping[str, float] | None = None,
    rules: AnswerRules | None = None,
) -> Answer:
    """Decide the status and the short answer from the ranked hits.

    The answer only ever comes from applicable, decisive evidence whose semantic score
    clears ``min_semantic`` (``rules`` overrides the margin and authority prior; its own
    ``min_semantic`` is replaced by the argument). Evidence lists the deciding item and
    its parallel views first, then relevant items (applicable or not, so a caller sees
    why a relevant document was not used), then the rest, ``query.k`` items at least.

    Over personal records the answer is shaped by intent and validated
    (``answer.personal``); times are read and shown in ``query.tz``.
    """
    # ``documents`` is what the asker may see (the search narrows it to the privacy scope).
    # A hit outside it, e.g. a record stored after the privacy check but before retrieval
    # read the index, has no known subject and must not reach the answer.
    hits = [h for h in hits if h.chunk.doc_id in documents]
    upcoming = [h for h in upcoming if h.chunk.doc_id in documents]
    base = rules or AnswerRules()
    rules = AnswerRules(min_semantic=min_semantic, margin=base.margin,
                        copy_margin=base.copy_margin, authority=base.authority)
    items = evidence_items(query, hits, documents=documents, authority=rules.authority)
    items = named_first(query.text, items,
                        relevant=[semantic(e) >= min_semantic for e in items])
    later = evidence_items(query, upcoming, documents=documents, authority=rules.authority)
    decision = decide(query.text, items, upcoming=later, as_of=query.as_of, rules=rules)
    zone = query.tz
    if personal.applies(items, decision):
        decision = personal.answer_records(
            query, items, general=decision, documents=documents,
            min_semantic=min_semantic).decision
    elif (dated := own_date(decision, question=query.text, documents=documents,
                            tz=zone, items=items)) is not None:
        decision = dated
    elif (found := list_answer(query, hits, items, min_semantic=min_semantic)) is not None:
        decision = replace(found, upcoming=decision.upcoming)
    elif query.understanding.intent is Intent.TIME and not when.asks_clock(query.text):
        decision = _dated(decision, question=query.text, tz=zone)
    extras = {} if decision.time is None else {"answer_time": decision.time.to_json()}
    return Answer(
        question=query.text, now=query.now, as_of=query.as_of,
        understanding=query.understanding, status=decision.status, answer=decision.answer,
        evidence=order_evidence(items, decision, k=query.k, min_semantic=min_semantic),
        upcoming=decision.upcoming, flags=decision.flags, owners=decision.owners,
        timings_ms=dict(timings_ms or {}), context=dict(query.context), extras=extras,
        tz=zone,
    )


def order_evidence(items: Sequence[Evidence], decision: Decision, *, k: int,
                   min_semantic: float) -> tuple[Evidence, ...]:
    """Deciding item and parallel views first, then relevant items, then the rest.

    Keeps ``k`` items, more only when the deciding item and its views need the room.
    """
    first = list(decision.deciding)
    chosen = {id(e) for e in first}
    rest = [e for e in items if id(e) not in chosen]
    relevant = [e for e in rest if semantic(e) >= min_semantic]
    others = [e for e in rest if semantic(e) < min_semantic]
    return tuple([*first, *relevant, *others][: max(k, len(first))])


def _dated(decision: Decision, *, question: str, tz: tzinfo) -> Decision:
    """A "when" question answered from a document that is no record (news, a wiki page):
    the date its deciding sentence states, with the phrase and its anchor, instead of the
    whole sentence. Left as it is when that text states no date, or the answer also
    speaks for parallel views (upcoming versions are reported beside it, never in it)."""
    if (not decision.deciding or len(decision.deciding) > 1
            or decision.status is AnswerStatus.NOT_FOUND):
        return decision
    item = decision.deciding[0]
    time = when.answer_time(item, tz=tz)
    if time is None or time.source != "text":
        return decision
    text = when.format_answer(time, question=question, tz=tz, published_at=item.published_at,
                         source_type=item.source_type)
    return replace(decision, answer=text, time=time)
