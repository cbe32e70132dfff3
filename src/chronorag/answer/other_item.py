"""The item of a list a question does not say, when it names the others and asks which
other one ("Besides Google, Bing, DuckDuckGo and Wikipedia, which provider does it list?").

The sentence that shares most words with such a question is one of the items it names,
which cannot answer it; the list's one item the question leaves out does. A list is a run
of consecutive sentences the question says in full (one line per item, as a Markdown list
or a table column is read), the item the one sentence just before or after that run.

A question that sets one thing aside ("Apart from my relationship to them, what detail
about my own account …?") names no list; when the line the ranker chose is about what is
set aside, the answer is another line of its list that shares the question's other words
(``aside_item``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from chronorag.answer.choose import content_words
from chronorag.lang import SET_ASIDE
from chronorag.model import Sentence
from chronorag.retrieve.glossary import stem

__all__ = ["aside_item", "asks_other", "other_item", "set_aside"]

_OTHER = re.compile(rf"\b(?:{SET_ASIDE}|"
                    r"(?:which|what)\s+other|(?:which|what)\s+else)\b|除了|之外|以外|另外|另一|"
                    r"其他|其它|还有|还列", re.IGNORECASE)
# Items the question says: at least this many, or it names no list.
_SAID = 2


def asks_other(question: str) -> bool:
    """Whether ``question`` names some things and asks for another."""
    return _OTHER.search(question) is not None


def other_item(question: str, best: Sentence, sentences: Sequence[Sentence], *,
               said: Callable[[str], bool], headings: Sequence[int] = ()) -> str | None:
    """The one sentence beside the run of list items around ``best`` that ``question``
    says (``said``), when it asks for another item; None otherwise."""
    if not asks_other(question) or not said(best.text):
        return None
    ordered = sorted(sentences, key=lambda s: s.index)
    at = next((i for i, s in enumerate(ordered) if s.index == best.index), None)
    if at is None:
        return None
    first = last = at
    while first > 0 and said(ordered[first - 1].text):
        first -= 1
    while last + 1 < len(ordered) and said(ordered[last + 1].text):
        last += 1
    if last - first + 1 < _SAID:
        return None
    beside = [ordered[i] for i in (first - 1, last + 1) if 0 <= i < len(ordered)]
    left = [s.text for s in beside if s.index not in headings and not said(s.text)]
    return left[0] if len(left) == 1 else None


# What a question sets aside: "Apart from helping with a visa or work permit, what …",
# "Besides Google, Bing and DuckDuckGo, which …", "除了扫描泄露之外，还…". The phrase runs to
# the question word that follows it (past the commas of a list it names), else to a mark.
_ASIDE = re.compile(rf"\b(?:{SET_ASIDE})\s+(?P<en>.+?)(?=[\s,，]*\b(?:what|which|who|whom|"
                    r"whose|where|when|how|why)\b|\s*[;?；？]|\s*$)|"
                    r"除了(?P<zh>[^，,；;？?]{1,40}?)(?:之外|以外)?(?=[，,]|还)", re.IGNORECASE)
# Of the question's other words, the item that answers shares at least this many.
_REST = 2


def set_aside(question: str) -> str | None:
    """The phrase ``question`` sets aside ("Apart from my relationship to them, what …" →
    "my relationship to them"), or None."""
    match = _ASIDE.search(question)
    return None if match is None else (match.group("en") or match.group("zh")).strip()


def aside_item(question: str, best: Sentence, sentences: Sequence[Sentence], *,
               line: Callable[[Sentence], bool], headings: Sequence[int] = ()) -> str | None:
    """The line of a list that answers a question setting one of its items aside, when
    ``best`` is that item: "Apart from my relationship to them, what detail about my own
    account should my request include?" over a list whose line "Your relationship to the
    deceased account holder" says what is set aside. The line ``best`` is about the phrase
    set aside when it says at least half its words (stems); the answer is the other line of
    the list, not about it, sharing most of the question's other words, at least ``_REST``
    (a lead-in ending with a colon says nothing alone), the nearest to ``best`` on ties.
    Lines only (``line``: a list item, a table row, a one-sentence paragraph): running prose
    often says what is set aside and the answer in one sentence ("Aside from firebox, what
    is another name for …"), and its other sentences are no items of one list."""
    aside = set_aside(question)
    if aside is None or not line(best):
        return None
    said = _stems(aside)
    if not said or not _about(said, _stems(best.text)):
        return None
    rest = _stems(question) - said
    scored: list[tuple[int, int, int, str]] = []
    for s in sentences:
        if s.index == best.index or s.index in headings or not line(s) \
                or s.text.rstrip().endswith((":", "：")):
            continue
        own = _stems(s.text)
        if not _about(said, own):
            scored.append((len(rest & own), -abs(s.index - best.index), -s.index, s.text))
    top = max(scored, default=None)
    return top[3] if top is not None and top[0] >= _REST else None


def _about(said: set[str], own: set[str]) -> bool:
    """Whether a text whose stems are ``own`` says at least half of ``said``."""
    return 2 * len(said & own) >= len(said)


def _stems(text: str) -> set[str]:
    return {stem(w) if w.isascii() else w for w in content_words(text)}
