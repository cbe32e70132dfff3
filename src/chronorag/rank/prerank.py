"""Pre-ranks: the order a reranker's pool is in before a model reads its first few.

A reranker judges only the first ``rerank_top`` candidates, so the order it receives
decides which passages are read at all. The search runs a pre-rank as a stage of its own
(``SearchConfig.prerank``), the same for every reranker, built-in or plug-in.

``"names"``: a Chinese question's Latin-letter names ("GitHub") put the Chinese
passages of documents naming none of them behind the rest; the passages of a document
the question names by its title in another script (flagged ``title_named`` by the search)
go first (``rank.spelled``).

Several pre-ranks run in turn when joined by "+" ("time+names").

``"time"``: when the question names a time, candidates are ordered by the gated rule of
the final ranking (``rank.temporal``: the tier of their fit first) with retrieval
relevance × fit inside a tier, so the model's budget goes to passages that are about the
subject *and* speak of the asked period. Retrieval relevance is a weak signal, which is
why the fit weighs in here (``fit_weight=1``) where the final ranking orders a tier by the
model's relevance alone; relevance alone here moved TimeQA AR@1 by 0.2-0.3 points (noise).
The pool's first candidate, the one retrieval found best (fused, or late-ordered), stays
first: the pre-rank chooses what else the model reads, never whether it reads that one.
Relevance here is the calibrated dense level, which knows nothing of BM25; a Chinese news
story that states the asked day and is first by fusion sat at 0.12 against 0.42, below the
gate, and went unread (benchmarks/README.md §54).
It uses chronorag's tiers whichever temporal scorer the search then runs ("mrag",
"none"); the scores it leaves are provisional, and the search's temporal stage writes
``temporal`` and ``combined`` (and ``time_tier``, ``time_order``) over them.
"""

from __future__ import annotations

from collections.abc import Sequence

from chronorag.model import Hit, Query
from chronorag.rank.base import Reranker
from chronorag.rank.rerank_none import NoReranker
from chronorag.rank.spelled import NamesPrerank
from chronorag.rank.temporal import ChronoTemporal
from chronorag.registry import Registry


class TimePrerank:
    """The pool by time tier, then retrieval relevance × fit (see the module docstring)."""

    name = "time"

    def __init__(self) -> None:
        self._temporal = ChronoTemporal(fit_weight=1.0)

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        if query.constraint.interval is None or not hits:
            return list(hits)
        ordered = self._temporal.rerank(query, NoReranker().rerank(query, hits))
        at = next(i for i, h in enumerate(ordered) if h.chunk.id == hits[0].chunk.id)
        return [ordered[at], *ordered[:at], *ordered[at + 1:]]


PRERANKS: Registry[Reranker] = Registry("pre-rank")
PRERANKS.add("time", TimePrerank)
PRERANKS.add("names", NamesPrerank)
