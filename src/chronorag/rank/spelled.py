"""The sources a Chinese question names in Latin letters: "GitHub 的用户名是按什么规则分配的？".

A store may hold one publisher's policies in English only and another's in Chinese too. A
Chinese question about the first ("GitHub", "Octocat", "Marketplace") is nearer, for a
multilingual model, to any Chinese passage than to the English one that answers: the same
script outweighs the subject, and the Chinese passages fill the few places the reranker
reads. The names the question spells in Latin letters say which sources it is about. When
a passage in another script names one of them, the Chinese passages of documents that name
none (no candidate passage of the document does) go behind the rest of the pool, flagged
``names_absent``, so the model reads the sources the question names first. A name that
only passages in the other script spell tells the sources apart by itself: in "GitHub 网站
的会话 Cookie 会保留多久？" Mozilla's Chinese policies spell "Cookie" too, but none spells
"GitHub", so every Chinese passage goes behind. Nothing is
removed, and a question in English, or a pool in one script, keeps its order.

When the search found that the question names a document in the other script by its title
(its passages flagged ``title_named``, ``pipeline.named``), those passages go first and
the passages in the question's script of every other document behind, flagged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chronorag.flags import Flag
from chronorag.model import Hit, Query
from chronorag.retrieve.tokenize import is_mostly_cjk

__all__ = ["NamesPrerank", "latin_names", "naming", "spelled_by", "spelled_names"]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9+-]*[A-Za-z0-9]")


def spelled_names(question: str) -> frozenset[str]:
    """The Latin-letter names of a mostly Chinese question, lowercased ("github",
    "octocat"); none for a question in English."""
    if not is_mostly_cjk(question):
        return frozenset()
    return latin_names(question)


def latin_names(text: str) -> frozenset[str]:
    """Every word of ``text`` in Latin letters, lowercased: in a Chinese text ("Firefox
    隐私声明"), the names it spells."""
    return frozenset(m.group(0).lower() for m in _NAME.finditer(text))


def naming(names: frozenset[str]) -> re.Pattern[str]:
    """A pattern that finds any of ``names`` as a whole word, in any case."""
    return re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(map(re.escape, sorted(names)))
                      + r")(?![A-Za-z0-9])", re.IGNORECASE)


def spelled_by(names: frozenset[str], texts: Sequence[str]) -> frozenset[str]:
    """Those of ``names`` that one of ``texts`` spells as a whole word."""
    patterns = {name: naming(frozenset({name})) for name in names}
    return frozenset(name for name, pattern in patterns.items()
                     if any(pattern.search(text) for text in texts))


class NamesPrerank:
    """The pool with the Chinese passages of documents that name none of the question's
    Latin names behind the rest (see the module docstring)."""

    name = "names"

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        if any(Flag.TITLE_NAMED in h.flags for h in hits):
            return _titled_first(query, hits)
        names = spelled_names(query.text)
        if not names:
            return list(hits)
        chinese = {h.chunk.id for h in hits if is_mostly_cjk(h.chunk.text)}
        named = naming(_telling(names, hits, chinese) or names)
        spelling = [h for h in hits if named.search(h.chunk.text)]
        if not any(h.chunk.id not in chinese for h in spelling):
            return list(hits)
        documents = {h.chunk.doc_id for h in spelling}
        absent = [h for h in hits if h.chunk.id in chinese and h.chunk.doc_id not in documents]
        if not absent:
            return list(hits)
        moved = {id(h) for h in absent}
        return [h for h in hits if id(h) not in moved] + [
            _flagged(h) for h in absent]


def _telling(names: frozenset[str], hits: Sequence[Hit], chinese: set[str]
             ) -> frozenset[str]:
    """The names only passages in another script spell: "GitHub" in "GitHub 网站的会话
    Cookie 会保留多久？" over Mozilla's Chinese policies, which spell "Cookie" too."""
    in_chinese = spelled_by(names, [h.chunk.text for h in hits if h.chunk.id in chinese])
    return spelled_by(names - in_chinese,
                      [h.chunk.text for h in hits if h.chunk.id not in chinese])


def _titled_first(query: Query, hits: Sequence[Hit]) -> list[Hit]:
    """The passages of the documents the question names by title in another script
    (``title_named``, ``pipeline.named``) first, the passages in the question's script of
    other documents last, flagged."""
    cjk = is_mostly_cjk(query.text)
    titled = [h for h in hits if Flag.TITLE_NAMED in h.flags]
    named = {h.chunk.doc_id for h in titled}
    rest = [h for h in hits if Flag.TITLE_NAMED not in h.flags]
    behind = [h for h in rest if h.chunk.doc_id not in named
              and is_mostly_cjk(h.chunk.text) == cjk]
    moved = {id(h) for h in behind}
    return [*titled, *(h for h in rest if id(h) not in moved), *map(_flagged, behind)]


def _flagged(hit: Hit) -> Hit:
    return replace(hit, flags=(*hit.flags, Flag.NAMES_ABSENT))
