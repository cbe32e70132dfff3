"""The sentence that decides a yes/no question.

The reranker names the sentence most *about* the question; a yes/no question about a
policy is decided by the sentence that states its practice or permission with a
polarity, and a policy rules a practice out in so many words: for "Does Mozilla keep what
is said on calls I make through my Relay phone mask?" the best sentence describes the
service ("Firefox Relay allows you to keep your … phone number safe … by making masks"),
the next passage decides ("We do not monitor or store the content of phone calls you make
through Firefox Relay."). A sentence that says no outright, sharing at least as many of
the question's content words as the best sentence (and at least ``MIN_SHARED``), decides
in its place. It is looked for in the passages of the best one's document among the
answer's near-ties (one document keeps the version and validity the first was judged by),
the most words shared first. A best sentence that is itself negated stays.

An affirmative that decides cannot be told by its words from one that only describes, so
only a negation moves the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chronorag.answer.choose import content_words
from chronorag.ingest.sentences import split_sentences
from chronorag.model import Evidence

MIN_SHARED = 2
"""Content words a deciding sentence shares with the question at least: a product's name
alone is no statement about the question's practice."""

# English: a verb's negation. Chinese: 不 before a verb, except in words where it does not
# negate the sentence (不同 different, 不仅 not only, 不超过 a bound, 不断 continuously,
# 不得不 must, …); 不得 (must not) does.
NEGATION = re.compile(
    r"\b(?:not|never|cannot|no\s+longer|unable|neither|nor)\b|n[’']t\b"
    r"|无法|没有|并未|未能|从未|(?<![要])(?<!不得)不(?![同仅断论管久过超少低高足止]|得不)",
    re.IGNORECASE)


def negated(sentence: str) -> bool:
    """Whether ``sentence`` says no outright (see ``NEGATION``)."""
    return NEGATION.search(sentence) is not None


def deciding(question: str, first: Evidence, band: Sequence[Evidence]) -> Evidence:
    """``first``, or the band passage of its document whose negated sentence decides the
    yes/no ``question`` (see the module docstring), with that sentence as its own."""
    chosen = first.sentence or first.text
    if negated(chosen):
        return first
    asked = content_words(question)
    need = max(len(asked & content_words(chosen)), MIN_SHARED)
    best: tuple[int, Evidence, str] | None = None
    for item in (e for e in band if e.doc_id == first.doc_id):
        for start, end in split_sentences(item.text):
            sentence = item.text[start:end].strip()
            shared = len(asked & content_words(sentence))
            if shared >= need and negated(sentence) and (best is None or shared > best[0]):
                best = (shared, item, sentence)
    return first if best is None else replace(best[1], sentence=best[2])
