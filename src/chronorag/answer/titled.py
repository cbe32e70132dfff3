"""The document a question names by its title decides before others.

"What is the effective date of the GitHub Marketplace Terms of Service in force today?"
ranked the GitHub Terms of Service's own date line first: the reranker reads a passage,
not which document it belongs to, and both date lines answer "what is the effective
date". The question says one document's whole title, "GitHub Marketplace Terms of
Service", and the other's only in pieces; of the titles it says whole, the longest is the
document it asks about. Its relevant passages go before the rest, in their
order, flagged ``title_named``. A title is said when the question writes its words in
order as the title does (capitals included: "Terms of Use" names a document, "terms of
use" may describe any), with nothing but joining words between, so "Firefox Focus Terms
of Use" says no "Firefox Terms of Use"; a title with Chinese in it is said as one piece
(Firefox 使用条款). A title of a kind of document alone ("Terms of Service") names none.
A document the search found named by its title in another script (its passages flagged
``title_named``, ``pipeline.named``) counts as said.
Nothing is moved when no title, or two different titles of one length, are said, or when
the first passage stays (``_kept``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chronorag.flags import Flag
from chronorag.lang import EN_STOP_WORDS, HAN, HAN_RE, has_han
from chronorag.model import Evidence

__all__ = ["named_first", "says_title"]

_PIECE = re.compile(r"[A-Za-z0-9](?:[\w+-]|\.(?=\w))*")
_HAN_RUN = re.compile(f"[{HAN}]+")
# Words of a kind of document: a title of these alone names no one document.
_GENERIC = frozenset({"terms", "service", "services", "use", "conditions", "policy",
                      "policies", "privacy", "notice", "statement", "agreement", "general",
                      "legal", "user", "data", "cookie", "cookies", "acceptable", "faq"})


def named_first(question: str, items: Sequence[Evidence], *, relevant: Sequence[bool]
                ) -> list[Evidence]:
    """``items`` with the relevant passages of the document whose title ``question`` says
    first (see the module docstring); ``relevant`` says which items may move."""
    titled = {item.title for item, ok in zip(items, relevant, strict=True) if ok}
    # The search flags the passages of a document the question names by its title in
    # another script ("可接受使用政策": "Acceptable Use Policy", ``pipeline.named``).
    said = {title for title in titled if says_title(question, title)} | {
        item.title for item, ok in zip(items, relevant, strict=True)
        if ok and Flag.TITLE_NAMED in item.flags}
    if not said:
        return list(items)
    longest = max(_size(t) for t in said)
    titles = [t for t in said if _size(t) == longest]
    if len(titles) != 1 or not items or _kept(question, items[0], titles[0]):
        return list(items)
    moved = {i for i, (item, ok) in enumerate(zip(items, relevant, strict=True))
             if ok and item.title == titles[0]}
    first = [_flagged(items[i]) for i in sorted(moved)]
    return [*first, *(item for i, item in enumerate(items) if i not in moved)]


def says_title(question: str, title: str) -> bool:
    """Whether ``question`` writes ``title`` whole: its words in order, as the title
    writes them, with nothing but joining words between ("the GitHub Marketplace Terms of
    Service", "GitHub's Privacy Statement"); a title with Chinese in it as one piece,
    spaces aside."""
    if has_han(title):
        compact = re.sub(r"\s+", "", title)
        return bool(compact) and compact in re.sub(r"\s+", "", question)
    wanted = _pieces(title)
    asked = _pieces(re.sub(r"['’]s\b", "", question))
    if all(p.lower() in _GENERIC for p in wanted):
        # "Terms of Service" is what many documents are; it names none of them.
        return False
    return any(asked[i:i + len(wanted)] == wanted for i in range(len(asked) - len(wanted) + 1))


def _kept(question: str, first: Evidence, title: str) -> bool:
    """Whether the first passage stays first: it is of the document the question names,
    or names that document itself, or its own title, as long or longer, has every word in
    the question too ("… the GitHub Terms of Service … for GitHub Marketplace purchases"
    says "GitHub Marketplace Terms of Service" in pieces): the question names both, and the
    more specific one was ranked first."""
    if first.title == title or says_title(first.text, title):
        return True
    own = _pieces(first.title) + _HAN_RUN.findall(first.title)
    words = set(_pieces(re.sub(r"['’]s\b", "", question)))
    compact = re.sub(r"\s+", "", question)
    return len(own) >= _size(title) and bool(own) and all(
        p in compact if HAN_RE.match(p) else p in words for p in own)


def _pieces(text: str) -> list[str]:
    # Words a title joins its name with ("of", "and", "the") a question may leave out.
    return [p for p in _PIECE.findall(text) if p.lower() not in EN_STOP_WORDS]


def _flagged(item: Evidence) -> Evidence:
    if Flag.TITLE_NAMED in item.flags:
        return item
    return replace(item, flags=(*item.flags, Flag.TITLE_NAMED))


def _size(title: str) -> int:
    """How many words a title has, a run of Chinese counting as one."""
    return len(_pieces(title)) + len(_HAN_RUN.findall(title))
