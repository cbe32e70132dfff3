"""Candidates in another script for the names a Chinese question spells in Latin letters.

A multilingual model puts a Chinese question nearer to any Chinese passage than to an
English one: for "2021 年 10 月时，按照 GitHub 当时的隐私声明，新用户的邮箱地址默认是设为私密
的吗？" over a store with Mozilla's policies in Chinese and GitHub's in English only, the
first hundred of the dense list were all Chinese (cosine 0.89 and below; GitHub's
privacy statement, 0.867, came 94th) and BM25 matched Chinese words only, so no passage
of the source the question names was a candidate. When no candidate spells one of the
question's Latin names, the dense list is read deeper for passages in another script
that spell it; they follow the candidates, and the pre-rank "names" (``rank.spelled``)
decides whether they are read first. A name some candidate spells gathers nothing: the
Chinese policies that say "Firefox" already answer questions about Firefox, and their
English twins must not be gathered beside them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chronorag.model import Hit, Query
from chronorag.rank.spelled import naming, spelled_by, spelled_names
from chronorag.retrieve.tokenize import is_mostly_cjk

__all__ = ["spelled_elsewhere"]


def spelled_elsewhere(query: Query, hits: Sequence[Hit], *,
                      deeper: Callable[[int], Sequence[Hit]], depth: int,
                      limit: int) -> list[Hit]:
    """``hits`` followed by up to ``limit`` passages of ``deeper(depth)`` (a dense list
    ``depth`` long) that are not mostly Chinese and spell a Latin name of the question
    that no hit spells (see the module docstring)."""
    names = spelled_names(query.text)
    if not names or depth <= 0 or limit <= 0:
        return list(hits)
    missing = names - spelled_by(names, [h.chunk.text for h in hits])
    if not missing:
        return list(hits)
    spells = naming(missing)
    have = {h.chunk.id for h in hits}
    found = [h for h in deeper(depth) if h.chunk.id not in have
             and spells.search(h.chunk.text) and not is_mostly_cjk(h.chunk.text)]
    return [*hits, *found[:limit]]
