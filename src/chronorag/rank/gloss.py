"""A dictionary's vote on passages and sentences written in the other language.

Between texts of one language the keyword retriever's bm25 votes beside the multilingual
models (``rank.multilingual.lexical_votes``); between a Chinese question and an English
passage, or the reverse, no word is shared and the models alone decided. Read through
CC-CEDICT (``retrieve.glossary``), the two share words after all: "可接受使用政策" holds
"accept", "use" and "policy". On XQuAD's cross-language pairs this vote raised the first
passage's accuracy by 2 to 5 points (benchmarks/README.md §49).

Each of the question's concepts counts once, matched by any of its words, weighted by
how few of the judged passages match it (a concept every passage holds, "GitHub" in a
store of GitHub's policies, tells none apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chronorag.model import Hit
from chronorag.rank.base import rarity, zscores
from chronorag.retrieve.glossary import concepts, stems_of
from chronorag.retrieve.tokenize import is_mostly_cjk

__all__ = ["GlossVotes", "gloss_votes"]


@dataclass(frozen=True)
class GlossVotes:
    """Per hit: the passage's vote (a z-score among the other-language passages) and the
    vote of each of its sentences (a z-score among the passage's sentences); None where
    the passage is in the question's language or the dictionary tells nothing apart."""

    passages: list[float | None]
    sentences: list[np.ndarray | None]


def gloss_votes(question: str, hits: Sequence[Hit]) -> GlossVotes:
    """The dictionary's votes on ``hits`` for ``question`` (see the module docstring)."""
    passages: list[float | None] = [None] * len(hits)
    sentences: list[np.ndarray | None] = [None] * len(hits)
    script = is_mostly_cjk(question)
    other = [i for i, h in enumerate(hits) if is_mostly_cjk(h.chunk.text) != script]
    # The dictionary is read only when some passage needs it.
    wanted = [c for c in dict.fromkeys(concepts(question)) if c] if other else []
    if not wanted:
        return GlossVotes(passages, sentences)
    # A chunk's words are its sentences' words; a chunk without sentences is one.
    bags = {i: [stems_of(s.text) for s in hits[i].chunk.sentences]
            or [stems_of(hits[i].chunk.text)] for i in other}
    whole = {i: frozenset().union(*bags[i]) for i in other}
    counts = [sum(bool(c & whole[i]) for i in other) for c in wanted]
    weights = [rarity(n, len(other)) for n in counts]

    def score(bag: frozenset[str]) -> float:
        return sum(w for c, w in zip(wanted, weights, strict=True) if c & bag)

    # Values that do not differ give no vote rather than an equal one, which would only
    # dilute the models' votes.
    votes = zscores([score(whole[i]) for i in other])
    if votes is not None:
        for k, i in enumerate(other):
            passages[i] = float(votes[k])
    for i in other:
        if hits[i].chunk.sentences:
            sentences[i] = zscores([score(bag) for bag in bags[i]])
    return GlossVotes(passages, sentences)
