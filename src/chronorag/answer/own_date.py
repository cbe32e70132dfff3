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
from collections.abc import Mapping
from dataclasses import replace
from datetime import tzinfo

from chronorag.answer.decide import Decision
from chronorag.answer.when import AnswerTime, format_interval
from chronorag.ingest.stated import FROM_TEXT
from chronorag.lang import has_han
from chronorag.model import AnswerStatus, Document, Interval
from chronorag.timex import sentence_mentions

__all__ = ["asked_field", "own_date"]

_WHEN = re.compile(r"\b(?:when|what\s+(?:date|day)|which\s+(?:date|day|version)|since\s+when"
                   r"|(?:effective|revision|update)\s+date|date\s+of)\b"
                   r"|哪天|哪一天|什么时候|何时|几号|哪个版本|哪一版|日期", re.IGNORECASE)
_EFFECTIVE = re.compile(r"\b(?:takes?\s+effect|took\s+effect|taken\s+effect|effective"
                        r"|in\s+(?:effect|force)|c[oa]mes?\s+into\s+(?:force|effect)"
                        r"|enter(?:s|ed)?\s+into\s+force)\b|生效|施行|实施|起效",
                        re.IGNORECASE)
# A numbered part of a document: "version 2.1", "section 4", "v3", 第三条, 第2版.
_PART = re.compile(r"\b(?:version|v\.?|section|article|part|clause|chapter|rule|§)\s*"
                   r"(\d+(?:\.\d+)*)\b|第\s*(\d+|[一二三四五六七八九十百]+)\s*[条章版节款项]",
                   re.IGNORECASE)
# "The cookie list in force in February 2022": the time a question is asked at, not the
# date it asks for.
_AS_OF = re.compile(r"\b(?:in\s+(?:effect|force)|effective|applicable|valid)\s+(?:in|on|at|as\s+of|"
                    r"during|today|now|then)\b", re.IGNORECASE)
# What has a date of its own to take effect on.
_DOCUMENT = re.compile(r"\b(?:terms|polic(?:y|ies)|notices?|statements?|agreements?|conditions|"
                       r"versions?|addend(?:um|a)|sections?|documents?|guidelines|rules|pages?|"
                       r"licen[cs]es?|contracts?|effective\s+date)\b|条款|声明|政策|协议|版本|规则|"
                       r"规定|办法|条例|通知|文件|守则|须知|许可", re.IGNORECASE)
# A sentence that says when its own subject takes effect: "…, effective immediately."
_TAKES_EFFECT_NOW = re.compile(r"\b(?:effective|take[sn]?\s+effect|took\s+effect)\s+immediately\b|"
                               r"\bimmediately\s+effective\b|立即生效|即时生效|即刻生效|立刻生效",
                               re.IGNORECASE)
_UPDATED = re.compile(r"\blast\s+(?:updated|modified|revised|changed|amended)\b"
                      r"|\b(?:updated|revised)\b|最后更新|最近更新|更新|修订", re.IGNORECASE)


def asked_field(question: str) -> str | None:
    """``valid_from`` when ``question`` asks when a document takes effect,
    ``modified_at`` when it asks when one was updated, else None."""
    asked = _AS_OF.sub(" ", question)
    if _WHEN.search(asked) is None:
        return None
    if _UPDATED.search(asked):
        return "modified_at"
    return "valid_from" if _EFFECTIVE.search(asked) else None


def own_date(decision: Decision, *, question: str, documents: Mapping[str, Document],
             tz: tzinfo) -> Decision | None:
    """The decision answered with its document's own date, or None when the question
    does not ask for it, no single document decides, or that document has no such date."""
    name = asked_field(question)
    if (name is None or len(decision.deciding) != 1
            or decision.status is AnswerStatus.NOT_FOUND):
        return None
    item = decision.deciding[0]
    if _names_a_part(question, item.sentence or "") or (
            _TAKES_EFFECT_NOW.search(item.sentence or "") and not _DOCUMENT.search(question)):
        # "From when does that take effect?" over "…, effective immediately.": the
        # sentence says when its own subject does, and the question names no document.
        return None
    doc = documents.get(item.doc_id)
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
