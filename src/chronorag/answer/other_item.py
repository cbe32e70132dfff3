"""The item of a list a question does not say, when it names the others and asks which
other one ("Besides Google, Bing, DuckDuckGo and Wikipedia, which provider does it list?").

The sentence that shares most words with such a question is one of the items it names,
which cannot answer it; the list's one item the question leaves out does. A list is a run
of consecutive sentences the question says in full (one line per item, as a Markdown list
or a table column is read), the item the one sentence just before or after that run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from chronorag.lang import SET_ASIDE
from chronorag.model import Sentence

__all__ = ["asks_other", "other_item"]

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
