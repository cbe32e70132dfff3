"""Hits become evidence items: the chunk plus its document's metadata and best sentence.

Everything after this point (deciding the answer, packing context for a generator) reads
``Evidence`` only, so title, source type, status, owner and dates always travel with the
text; nothing downstream sees a bare string.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from chronorag.answer.headings import heading_spans, is_heading, is_run_in
from chronorag.answer.named import named
from chronorag.answer.other_item import aside_item, other_item
from chronorag.flags import Flag
from chronorag.ingest.formats import LAYOUT_KEY, section_path
from chronorag.lang import HAN_RE, has_han
from chronorag.model import Chunk, Document, Evidence, Hit, Interval, Mention, Sentence
from chronorag.rank.authority import AuthorityPrior
from chronorag.retrieve.glossary import concepts, stems_of
from chronorag.retrieve.tokenize import is_mostly_cjk

_WORD = re.compile(r"\w+", re.UNICODE)


def to_evidence(hit: Hit, document: Document | None, *, question: str = "",
                authority: AuthorityPrior | None = None) -> Evidence:
    """One evidence item: the chunk, its document's source fields, scores and best sentence.

    A hit from a source type the authority prior marks non-decisive gains the
    ``non_decisive`` flag, so a caller sees why it did not decide the answer.

    The item's ``score`` is the hit's ``combined`` score (relevance × temporal fit), not
    ``Hit.score``, which only says how a stage ordered its list (see ``Hit``); a hit that
    no temporal scorer saw has no ``combined`` and shows its ``score``.
    """
    chunk, doc = hit.chunk, document
    scores = dict(hit.scores)
    scores.setdefault("semantic", 0.0)
    scores.setdefault("temporal", 1.0)
    source_type = doc.source_type if doc else None
    flags = hit.flags
    if not (authority or AuthorityPrior()).decisive(source_type):
        flags = (*flags, Flag.NON_DECISIVE) if Flag.NON_DECISIVE not in flags else flags
    layout = heading_spans(doc.metadata) if doc else ()
    stated = [s for s in chunk.sentences if not _heading(s, doc, chunk, layout)]
    if chunk.sentences and not stated and Flag.ONLY_HEADINGS not in flags:
        flags = (*flags, Flag.ONLY_HEADINGS)
    sentence = best_sentence(question, chunk, hit.best_sentence,
                             headings=[s.index for s in chunk.sentences if s not in stated])
    return Evidence(
        doc_id=chunk.doc_id, chunk_id=chunk.id, title=doc.title if doc else "",
        text=chunk.text, start=chunk.start, end=chunk.end,
        source_type=source_type,
        status=doc.status if doc else None,
        valid_from=_start(doc.valid_from) if doc else None,
        valid_to=_start(doc.valid_to) if doc else None,
        occurred_at=_start(doc.occurred_at) if doc else None,
        applicable=hit.applicable, flags=flags, score=hit.scores.get("combined", hit.score),
        scores=scores,
        owner=doc.owner if doc else None,
        published_at=_start(doc.published_at) if doc else None,
        sentence=sentence, times=stated_times(chunk, hit.best_sentence),
        section=section_of(doc, chunk, sentence),
        superseded_by=hit.superseded_by,
        valid_until=hit.valid_until,
        applies_to=doc.applies_to if doc else {},
    )


def section_of(document: Document | None, chunk: Chunk, sentence: str
               ) -> tuple[str, ...] | None:
    """The section path (``chronorag.ingest.formats.section_path``) of the evidence's
    ``sentence``, else of the chunk's start; ``None`` when the document has no headings."""
    layout = document.metadata.get(LAYOUT_KEY) if document is not None else None
    if not isinstance(layout, Mapping) or not layout.get("headings"):
        return None
    at = next((s.start for s in chunk.sentences if s.text == sentence), chunk.start)
    try:
        return section_path(layout, at)
    except (KeyError, TypeError, ValueError):  # a layout this version did not write
        return None


def stated_times(chunk: Chunk, index: int | None = None) -> tuple[Mention, ...]:
    """The times the chunk's sentences state themselves, sentence ``index``'s first: no
    inherited mention (it belongs to an earlier sentence) and no date field of the
    document (``Mention.from_metadata``)."""
    ordered = sorted(chunk.sentences, key=lambda s: s.index != index)
    return tuple(m for s in ordered for m in s.mentions
                 if not m.inherited and not m.from_metadata)


# How far after its lead-in a list item is looked for.
_LIST_ITEMS = 20


def best_sentence(question: str, chunk: Chunk, index: int | None = None, *,
                  headings: Sequence[int] = ()) -> str:
    """The chunk sentence that best answers ``question`` (a ranker's choice wins).

    Without a ranker's choice: the sentence sharing most words with the question,
    the earliest on ties; a chunk without sentences answers with its whole text. A
    heading (its index in ``headings``) is never chosen while the chunk has another
    sentence. A lead-in ending with a colon gives way to the item of its list the
    question names (``_list_item``); an item the question names while asking for another
    ("Besides Google and Bing, which …?") to the one item of its list the question leaves
    out (``other_item``); a line about what the question sets aside ("Apart from my
    relationship to them, what …?") to the line of its list that answers (``aside_item``);
    and any choice to the one sentence holding a key the question spells out (``named``:
    the row of the cookie it names).
    """
    if not chunk.sentences:
        return chunk.text
    candidates = [s for s in chunk.sentences if s.index not in headings] or chunk.sentences
    terms = terms_of(question)
    best = next((s for s in candidates if s.index == index), None)
    if best is None:
        best = max(candidates, key=lambda s: (len(terms & terms_of(s.text)), -s.index))

    def said(text: str) -> bool:
        own = terms_of(text)
        return bool(own) and own <= terms

    other = other_item(question, best, chunk.sentences, said=said, headings=headings) \
        or aside_item(question, best, candidates, line=lambda s: _line(s, chunk),
                      headings=headings)
    if other is not None:
        return other
    chosen = _list_item(question, best, candidates, terms) or best.text
    return named(question, chosen, [s.text for s in candidates]) or chosen


def _line(sentence: Sentence, chunk: Chunk) -> bool:
    """Whether ``sentence`` stands on a line of its own in ``chunk``'s text."""
    before = chunk.text[:sentence.start - chunk.start].rstrip(" \t")
    after = chunk.text[sentence.end - chunk.start:].lstrip(" \t")
    return (not before or before.endswith("\n")) and (not after or after.startswith("\n"))


def _list_item(question: str, lead: Sentence, candidates: Sequence[Sentence],
               terms: set[str]) -> str | None:
    """The item of the list ``lead`` introduces ("You may not use our services to:") that
    shares most words with the question: a lead-in says nothing alone. A question in
    another script than the list shares words through the dictionary (``glossary``): "伤害
    用户…恶意代码" with "Harm users such as by using viruses … malicious codes". None when
    ``lead`` ends with no colon or no following item shares a word."""
    if not lead.text.rstrip().endswith((":", "：")):
        return None
    items = [s for s in candidates if lead.index < s.index <= lead.index + _LIST_ITEMS]
    if items and is_mostly_cjk(question) != is_mostly_cjk(lead.text):
        asked = concepts(question)
        scored = [(_glossed(asked, s.text), -s.index, s.text) for s in items]
    else:
        scored = [(len(terms & terms_of(s.text)), -s.index, s.text) for s in items]
    best = max(scored, default=None)
    return best[2] if best is not None and best[0] > 0 else None


def _glossed(asked: Sequence[frozenset[str]], text: str) -> int:
    """How many of the question's concepts ``text`` says, read through the dictionary."""
    stems = stems_of(text)
    return sum(1 for concept in asked if concept & stems)


def _heading(sentence: Sentence, document: Document | None, chunk: Chunk,
             layout: Sequence[tuple[int, int]]) -> bool:
    # The documents an answer is built from are read without their text: a run-in
    # heading is found in the sentence's chunk, a slice of it. (A bare short line is not
    # looked for there: an address line, "GitHub B.V. Prins Bernhardplein 200", stands
    # alone in its block as a heading does.)
    return is_heading(sentence.text, sentence.start, sentence.end,
                      source=None if document is None else document.text, headings=layout) \
        or is_run_in(sentence.text, sentence.start - chunk.start,
                     sentence.end - chunk.start, source=chunk.text)


def terms_of(text: str) -> set[str]:
    """Lower-cased words longer than two letters, plus CJK character bigrams."""
    words = {w.lower() for w in _WORD.findall(text) if len(w) > 2 and not has_han(w)}
    # CJK has no spaces: character bigrams stand in for words.
    cjk = "".join(HAN_RE.findall(text))
    return words | {cjk[i : i + 2] for i in range(len(cjk) - 1)}


def _start(interval: Interval | None) -> datetime | None:
    return None if interval is None else interval.start
