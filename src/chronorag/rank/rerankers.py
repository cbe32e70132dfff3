"""Registry of rerankers: ``RERANKERS.create("cross-encoder", context=RerankContext())``.
Nothing loads at import.

Every factory is given the same :class:`RerankContext` and reads what it needs, so a
plug-in reranker receives what a built-in does (a window reranker of its own gets the
titles and the multilingual judge like ``"windows"``). The order of the pool it receives
is the search's (``SearchConfig.late`` and ``SearchConfig.prerank``), for every reranker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chronorag.rank.base import Reranker
from chronorag.rank.multilingual import MultilingualJudge
from chronorag.rank.rerank_ce import CrossEncoderReranker
from chronorag.rank.rerank_none import NoReranker
from chronorag.rank.rerank_windows import WindowReranker
from chronorag.registry import Registry


@dataclass(frozen=True)
class RerankContext:
    """What the search gives every reranker factory.

    Attributes:
        top_n: how many candidates the reranker judges (``SearchConfig.rerank_top``).
        enough: the relevance at which it may stop reading (``SearchConfig.rerank_enough``).
        titles: document id -> title, the context a window is read in.
        judge: the multilingual judge for pairs an English model cannot read (None: none).
        kin: (documents read, documents unread) -> the unread ones that must be judged
            beside the read ones: versions and variants (None: unknown, so a reranker
            that could stop reading early never does).
    """

    top_n: int = 10
    enough: float | None = None
    titles: Callable[[str], str] | None = None
    judge: MultilingualJudge | None = None
    kin: Callable[[set[str], set[str]], set[str]] | None = None


def window_options(context: RerankContext) -> dict[str, Any]:
    """The keyword arguments of ``WindowReranker`` (or a subclass) a context gives."""
    return {"top_n": context.top_n, "enough": context.enough, "titles": context.titles,
            "judge": context.judge, "kin": context.kin}


def _cross_encoder(*, context: RerankContext) -> Reranker:
    return CrossEncoderReranker(top_n=context.top_n)


def _none(*, context: RerankContext) -> Reranker:
    return NoReranker()


def _windows(*, context: RerankContext) -> Reranker:
    return WindowReranker(**window_options(context))


RERANKERS: Registry[Reranker] = Registry("reranker")
RERANKERS.add("cross-encoder", _cross_encoder)
RERANKERS.add("none", _none)
RERANKERS.add("windows", _windows)
