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
the most words shared first. A best sentence that is itself negated stays. A premise
restates the question in more of its words than the statement it leads into ("当您订阅
需要付费的服务时，您的付款将依据…进行处理。… Mozilla 不会存储您的全部付款详情。"): in the
best sentence's own passage, a negation at most ``REACH`` sentences after it needs only
``MIN_SHARED`` words, unless the best sentence says the question's modal ("Can I cancel
…?" over "You can cancel …": it states what is asked) or the negation opens with a
contrast ("But", 但: it qualifies the sentence before, which decided).

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

REACH = 2
"""How many sentences after the best one a negation needs only ``MIN_SHARED`` words."""

# What a yes/no question asks with, and a sentence answering it in kind says.
# 能 and 会 inside other words (可能 perhaps, 功能 feature, 会员 member) are no modals.
_MODAL = re.compile(r"\b(?:can|could|will|would|may|might|must|should|shall)\b|可以|必须|"
                    r"(?<![可功性智才技体效本])能(?![力源量])|(?<![机社协学大都理约])会(?![员议话计谈])",
                    re.IGNORECASE)
# "但这并不赋予 Mozilla 对该内容的任何所有权。" after the grant it limits: a sentence opening
# with a contrast qualifies the one before, which decided.
_CONTRAST = re.compile(r"\s*(?:but|however|yet|although|though|still|nevertheless)\b|"
                       r"\s*(?:但是?|然而|不过|可是|尽管)", re.IGNORECASE)

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


# A reply that says yes or no by itself, however short: "Yes.", "No, never.", "可以。"
# (对 opens 对于 "regarding" too, which replies nothing).
_REPLY = re.compile(r"\W*(?:(?:yes|yeah|yep|no|nope|sure|correct|indeed|of\s+course)\b|"
                    r"是的|不是|不可以|可以|不能|不会|没有|对(?!于))", re.IGNORECASE)


def replies(sentence: str) -> bool:
    """Whether ``sentence`` answers a yes/no question by itself, however short: it opens
    with yes or no ("Yes.", "不可以。") or says no outright."""
    return _REPLY.match(sentence) is not None or negated(sentence)


def deciding(question: str, first: Evidence, band: Sequence[Evidence]) -> Evidence:
    """``first``, or the band passage of its document whose negated sentence decides the
    yes/no ``question`` (see the module docstring), with that sentence as its own."""
    chosen = first.sentence or first.text
    if negated(chosen):
        return first
    asked = content_words(question)
    need = max(len(asked & content_words(chosen)), MIN_SHARED)
    states = _says_modal(question, chosen)
    best: tuple[int, Evidence, str] | None = None
    for item in (e for e in band if e.doc_id == first.doc_id):
        spans = split_sentences(item.text)
        near = set() if states or item is not first else _near(chosen, item.text, spans)
        for j, (start, end) in enumerate(spans):
            sentence = item.text[start:end].strip()
            shared = len(asked & content_words(sentence))
            enough = MIN_SHARED if j in near and not _CONTRAST.match(sentence) else need
            if shared >= enough and negated(sentence) and (best is None or shared > best[0]):
                best = (shared, item, sentence)
    return first if best is None else replace(best[1], sentence=best[2])


def _says_modal(question: str, sentence: str) -> bool:
    """Whether ``sentence`` says the modal ``question`` asks with ("Can I cancel …?" over
    "You can cancel …"): it states what is asked, not a premise."""
    asked = {m.lower() for m in _MODAL.findall(question)}
    return bool(asked & {m.lower() for m in _MODAL.findall(sentence)})


def _near(chosen: str, text: str, spans: Sequence[tuple[int, int]]) -> set[int]:
    """The sentences of ``text`` (the chosen sentence's own passage) at most ``REACH``
    after the chosen one: the statement a premise leads into ("… Mozilla will receive your
    account record. Mozilla does not store your full payment details.") shares fewer of the
    question's words than the premise that restates it, and needs only ``MIN_SHARED``."""
    at = text.find(chosen.strip()) if chosen.strip() else -1
    if at < 0:
        return set()
    inside = [j for j, (s, e) in enumerate(spans) if s < at + len(chosen.strip()) and e > at]
    return set(range(inside[-1] + 1, inside[-1] + 1 + REACH)) if inside else set()
