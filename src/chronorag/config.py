"""Declarative search configuration with named presets.

Each stage is chosen by the exact name of a registered component; ``PRESETS`` holds the
configurations that ``ask`` and ``eval`` refer to by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from chronorag.errors import ConfigError


def time_zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name``; ``ConfigError`` saying what a valid one looks like."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"unknown time zone {name!r}; use an IANA name such as "
                          "Asia/Shanghai or Europe/Berlin") from None


IndexPlace = Literal["auto", "store", "local"]
"""Where the retrievers search (``SearchConfig.index``)."""


@dataclass(frozen=True)
class SearchConfig:
    """Which components run at each stage of ``ask`` and with what depth.

    Attributes:
        name: preset name, reported in benchmarks.
        retrievers: candidate generators to fuse ("keyword", "dense").
        candidates: how many candidates each retriever returns.
        reranker: registered reranker name ("cross-encoder", "none", ...).
        rerank_top: how many fused candidates the reranker sees.
        rerank_enough: a relevance (0-1) at which a window reranker stops reading: it
            judges the first half of its ``rerank_top``, with the versions and variants
            of those passages' documents (``Components.kin``), and the rest only when
            none of those reached it (None: it reads them all at once).
        temporal: temporal scorer name ("none", "mrag", "chronorag").
        weights: RRF weight of each retriever, by name (a missing name weighs 1.0).
        embedder: registered embedder name for dense retrieval.
        min_semantic: below this semantic score nothing counts as relevant.
        validity: apply source-validity rules (supersession, drafts, dates).
        extensions: registered components beside the document pipeline, by name (see
            ``chronorag.extensions``); each adds to ``ask`` and may take files from ingest.
        judges: multilingual embedders that judge relevance where the English
            cross-encoder cannot read (a question or a passage mostly Chinese), from the
            vectors of each chunk and of each of its sentences, stored at ingest. Empty:
            ingest stores chunk vectors of ``embedder`` only, and such pairs keep their
            retrieval relevance.
        index: where the retrievers search. "store": inside the database, for a store
            that can (PostgreSQL: pgvector and BM25 in SQL), so a process keeps no index;
            "local": indexes in the process (saved beside a SQLite file); "auto": the
            store's own search when it has one, else local.
        late: the token encoder (``rank.late.TOKEN_ENCODERS``) whose token vectors ingest
            stores for every chunk and the search orders the reranker's pool by, a stage
            of its own ("": none).
        prerank: the pre-ranks (``rank.prerank.PRERANKS``, joined by "+", in turn) that
            order the reranker's pool after ``late`` and before the reranker reads its
            first ``rerank_top``; "time" puts passages that fit the question's time first,
            "names" the sources a Chinese question names in Latin letters ("": none).
        names_depth: how deep the dense list is read for passages in another script
            that spell a Latin name of a Chinese question no candidate spells
            (``pipeline.named``; 0: never).
    """

    name: str
    retrievers: tuple[str, ...] = ("keyword", "dense")
    candidates: int = 100
    reranker: str = "cross-encoder"
    rerank_top: int = 50
    rerank_enough: float | None = None
    temporal: str = "none"
    # bm25 at full weight drags multilingual-e5 down on TimeQA (benchmarks/results/retrieval.md)
    weights: tuple[tuple[str, float], ...] = (("keyword", 0.5), ("dense", 1.0))
    embedder: str = "e5-small"
    min_semantic: float = 0.05
    validity: bool = True
    extensions: tuple[str, ...] = ("semantic",)
    judges: tuple[str, ...] = ("e5-small", "use-m3")
    index: IndexPlace = "auto"
    late: str = ""
    prerank: str = ""
    names_depth: int = 0

    def __post_init__(self) -> None:
        if self.index not in get_args(IndexPlace):
            raise ConfigError(f"unknown index {self.index!r}; choose one of: "
                              f"{', '.join(get_args(IndexPlace))}")


PRESETS: dict[str, SearchConfig] = {
    "bm25": SearchConfig("bm25", retrievers=("keyword",), reranker="none", validity=False),
    "dense": SearchConfig("dense", retrievers=("dense",), reranker="none", validity=False),
    "hybrid": SearchConfig("hybrid", reranker="none", validity=False),
    "hybrid+rerank": SearchConfig("hybrid+rerank", validity=False),
    "mrag": SearchConfig("mrag", temporal="mrag", validity=False),
    "product": SearchConfig("product", temporal="product", validity=False),
    # rerank_enough: past a passage judged this relevant, the rest of the head is read only
    # where it holds versions or variants of what was read (benchmarks/README.md §40).
    "default": SearchConfig("default", reranker="windows", rerank_top=8, rerank_enough=0.95,
                            temporal="chronorag", late="colbert-small", prerank="time+names",
                            names_depth=1000),
}


def get_preset(name: str) -> SearchConfig:
    """The preset called ``name``; the error lists the presets that exist."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError(
            f"unknown search preset {name!r}; choose one of: {', '.join(sorted(PRESETS))}"
        ) from None
