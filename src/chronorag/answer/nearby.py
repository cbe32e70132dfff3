"""The span a question asks for, from the sentences beside the best one.

The reranker names the sentence most *about* the question; the number, date or address
the question asks for is often stated by the next one: "Upon request, we will make a
reasonable effort to provide an Account owner with a copy of your Account contents after
Account cancellation." is followed by "…you must make the request within 90 days of
cancellation." When the best sentence holds no span of the wanted kind (``shape.wanted``:
a number, a duration, a date, an address), the nearest sentence of the same passage that
holds one and shares a content word with the question gives it (two English words past
the ``REACH`` nearest sentences), the following sentence before the preceding one at equal
distance. The answer stays a span of the evidence text.
Names and yes/no questions are left to the best sentence: a name of the next sentence is
as likely another party's, and a yes/no is decided by the sentence itself. Only the name a
text gives a thing ("a state called …", asked what it is called) is looked for beside it.
"""

from __future__ import annotations

from datetime import datetime

from chronorag.answer.called import asks_called, called_span
from chronorag.answer.choose import content_words
from chronorag.answer.shape import (
    Want,
    counted_noun,
    labelled_number,
    short_answer,
    span_of,
    wanted,
)
from chronorag.ingest.sentences import split_sentences
from chronorag.lang import has_han

REACH = 2
"""How many sentences away from the best one a span is looked for."""

FAR_SHARED = 2
"""Content words a sentence farther than ``REACH`` shares with the question to give the
span ("Any liability for Mozilla under this agreement is limited to $500." four
sentences after the one about indemnity, for "What is the cap on Mozilla's liability?");
a farther sentence with Chinese in it gives none."""

SPAN_WANTS = frozenset({Want.NUMBER, Want.DURATION, Want.DATE, Want.LINK})
"""The kinds of answer that are a span of a sentence rather than the sentence itself."""


def answer_near(question: str, sentence: str, text: str, *,
                now: datetime | None = None) -> str:
    """``shape.short_answer`` of ``sentence``, or, when that finds no span of the wanted
    kind, the span of the nearest sentence of ``text`` around ``sentence`` that has one
    (see the module docstring)."""
    said = short_answer(question, sentence, now=now)
    want = wanted(question)
    best = sentence.strip()
    at = text.find(best) if best else -1
    # A name the text gives ("a state called …") is a span like a number: the sentence
    # that gives it is found beside the one most about the question.
    naming = asks_called(question)
    if said != best or not (want in SPAN_WANTS or naming) or at < 0:
        return said
    spans = split_sentences(text)
    inside = [i for i, (s, e) in enumerate(spans) if s < at + len(best) and e > at]
    if not inside:
        return said
    terms = content_words(question)
    for distance in range(1, len(spans)):
        for j in (inside[-1] + distance, inside[0] - distance):
            if not 0 <= j < len(spans):
                continue
            other = text[spans[j][0]:spans[j][1]]
            near = distance <= REACH
            if not near and has_han(other):
                # Two of Chinese's character pairs say less than two words: a far Chinese
                # sentence gives nothing ("联合政府" alone is three pairs).
                continue
            shared = len(terms & content_words(other))
            found = None if shared < (1 if near else FAR_SHARED) else \
                called_span(question, other) if naming else \
                span_of(want, question, other, now=now)
            if found and found.strip():
                return found.strip()
    return said


def gives_span(question: str, sentence: str, text: str, *,
               now: datetime | None = None) -> bool:
    """Whether ``answer_near`` finds a span of the kind ``question`` asks for (a number,
    duration, date or address) in ``sentence`` or beside it in ``text``."""
    return wanted(question) in SPAN_WANTS and \
        answer_near(question, sentence, text, now=now) != sentence.strip()


def gives_asked_span(question: str, sentence: str, text: str, *,
                     now: datetime | None = None) -> bool:
    """Whether ``answer_near`` finds in ``sentence`` or beside it a span that only the
    asked thing can be: an address for "which email address" / "where can I find", a
    number by its label ("Version 1.1" for "what version number", a phone number), or a
    count of the very noun "how many X" asks about ("one user account"). A duration or a
    date is any period's, and a bare count any noun's."""
    want = wanted(question)
    if want not in (Want.LINK, Want.NUMBER):
        return False
    said = answer_near(question, sentence, text, now=now)
    if said == sentence.strip():
        return False
    if want is Want.LINK or labelled_number(question):
        return True
    noun = counted_noun(question)
    return noun is not None and noun in said.lower()
