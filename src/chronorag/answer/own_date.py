"""Questions about a document's own date: "When did the current Terms of Use take
effect?", "When was the privacy notice last updated?", 现行条款是哪天生效的？

Their answer is not a date some sentence of the best chunk mentions but the deciding
document's ``valid_from`` (it takes effect) or ``modified_at`` (it was updated). When that
field was adopted from the document's text ("Effective date: November 16, 2020"), the
answer is the date as the text writes it, a span of the document, and the answer time
carries the sentence; when it comes from front matter, the date at its granularity.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import tzinfo

from chronorag.answer.asks_date import asked_field, names_document
from chronorag.answer.decide import Decision
from chronorag.answer.section_date import section_date
from chronorag.answer.when import AnswerTime, format_interval
from chronorag.ingest.stated import FROM_TEXT
from chronorag.lang import has_han
from chronorag.model import AnswerStatus, Document, Evidence, Interval
from chronorag.timex import sentence_mentions

__all__ = ["own_date"]

# A numbered part of a document: "version 2.1", "section 4", "v3", 第三条, 第2版.
_PART = re.compile(r"\b(?:version|v\.?|section|article|part|clause|chapter|rule|§)\s*"
                   r"(\d+(?:\.\d+)*)\b|第\s*(\d+|[一二三四五六七八九十百]+)\s*[条章版节款项]",
                   re.IGNORECASE)
# A sentence that says when its own subject takes effect: "…, effective immediately."
_TAKES_EFFECT_NOW = re.compile(r"\b(?:effective|take[sn]?\s+effect|took\s+effect)\s+immediately\b|"
                               r"\bimmediately\s+effective\b|立即生效|即时生效|即刻生效|立刻生效",
                               re.IGNORECASE)


def own_date(decision: Decision, *, question: str, documents: Mapping[str, Document],
             tz: tzinfo, items: Sequence[Evidence] = ()) -> Decision | None:
    """The decision answered with its document's own date, or None when the question
    does not ask for it, no single document decides, or that document has no such date.

    A question naming a section of the document that states its own date under its
    heading ("the Canada addendum"), shown by one of ``items``, is answered with that
    date (``answer.section_date``)."""
    name = asked_field(question)
    if (name is None or len(decision.deciding) != 1
            or decision.status is AnswerStatus.NOT_FOUND):
        return None
    item = decision.deciding[0]
    if _names_a_part(question, item.sentence or "") or (
            _TAKES_EFFECT_NOW.search(item.sentence or "") and not names_document(question)):
        # "From when does that take effect?" over "…, effective immediately.": the
        # sentence says when its own subject does, and the question names no document.
        return None
    doc = documents.get(item.doc_id)
    part = None if doc is None else section_date(question, name, document=doc,
                                                 items=items, tz=tz)
    if part is not None:
        time = AnswerTime(part.interval, "text", part.item.doc_id, part.item.chunk_id,
                          phrase=part.phrase, sentence=part.sentence)
        # The item showing the section's date line is the one the answer rests on.
        return replace(decision, answer=part.phrase, time=time, deciding=(part.item,))
    interval = None if doc is None else getattr(doc, name)
    if doc is None or interval is None or interval.start is None:
        return None
    stated = _stated(doc, name, interval, tz=tz)
    if stated is None:
        time = AnswerTime(interval, "metadata", doc.id, item.chunk_id)
        return replace(decision, answer=format_interval(interval, tz=tz,
                                                        zh=has_han(question)), time=time)
    phrase, sentence = stated
    time = AnswerTime(interval, "text", doc.id, item.chunk_id, phrase=phrase,
                      sentence=sentence)
    return replace(decision, answer=phrase, time=time)


def _names_a_part(question: str, sentence: str) -> bool:
    """Whether the question names a numbered part the best sentence dates ("When did
    version 2.1 of the Terms take effect?" over "Version 2.1 … took effect on March 17,
    2026"): it asks about that part, not the document's own date."""
    asked = {a or b for a, b in _PART.findall(question)}
    return bool(asked & {a or b for a, b in _PART.findall(sentence)})


def _stated(doc: Document, name: str, interval: Interval, *, tz: tzinfo
            ) -> tuple[str, str] | None:
    """The date as ``doc``'s text writes it and the sentence it stands in, when the field
    was adopted from the text and the sentence still reads that date."""
    entry = (doc.metadata.get(FROM_TEXT) or {}).get(name)
    sentence = entry.get("sentence") if isinstance(entry, dict) else None
    if not isinstance(sentence, str) or not sentence:
        return None
    # The sentence is stored with the field (the answer stage's documents carry no text).
    (mentions,) = sentence_mentions(sentence, [(0, len(sentence))], tz=tz)
    assert interval.start is not None
    day = interval.start.date()
    for mention in mentions:
        # Each start is midnight in its own zone: compare the calendar days.
        moment = mention.interval.start
        if not mention.inherited and moment is not None and moment.date() == day:
            return sentence[mention.start:mention.end], sentence
    return None
