"""Relevance across languages, judged from multilingual vectors stored at ingest.

The cross-encoder reads English only, and no multilingual cross-encoder, NLI or QA model
ships offline. For a pair it cannot read (a question or a passage mostly Chinese) this
judge combines, for each multilingual embedder, the cosine of the question with the whole
chunk and with the chunk's best sentence ("title: sentence"). A passage that merely shares
the subject scores well on the chunk; the one that answers has a sentence close to the
question. Two models trained differently (e5 and USE) vote: on XQuAD's cross-language sets
the order of the first ten candidates by the four signals together beat every single
signal and pair of signals (benchmarks/README.md §11).

Each model's cosines are divided by their spread over candidate passages (``spread``),
so each signal votes with the same weight; the mean is the judge's score. Where question
and passage share a script, the keyword retriever's bm25 votes too (``lexical_votes``): on
ChronoQA's Chinese news the vectors alone ordered the first ten below plain hybrid
retrieval, whose order rests on the names both texts spell (benchmarks/README.md §27).
Where they do not, a dictionary votes instead (``gloss_votes``): the question's words read
in the passage's language through CC-CEDICT and matched against the passage's words
(benchmarks/README.md §49).

The judge decides the order, not the level: how relevant the best passage is stays the
dense retriever's relevance, calibrated per script pair so that a question whose subject
is not in the store abstains as often in every pair (``levels``). Scores of different
pairs sit at different levels and their spread is not the cross-encoder's: on a store
mixing languages, a score mapped to relevance would let a merely related page of the other
language compete with the right one (benchmarks/README.md §14).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from chronorag.model import Hit
from chronorag.rank.base import zscores
from chronorag.rank.gloss import gloss_votes
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.tokenize import is_mostly_cjk


class StoredVectors(Protocol):
    """Where the judge reads the vectors ingest stored (a ``VectorStore``)."""

    def chunk_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]: ...

    def sentence_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]: ...


@dataclass(frozen=True)
class Judgement:
    """One passage judged: its score (higher is more relevant) and the index
    (``Sentence.index``) of its best sentence (None for a chunk without sentences)."""

    score: float
    sentence: int | None


def levels(hits: Sequence[Hit], scores: Sequence[float], relevance: Sequence[float]
           ) -> list[float]:
    """Each hit's relevance once judged: the hits with passages of one script keep their
    ``relevance`` values as a set, dealt out in the order of ``scores`` (the best score
    takes the highest value), so the judge reorders the passages of one pair without
    moving the pair's calibrated level."""
    out = list(relevance)
    groups: dict[bool, list[int]] = {}
    for i, hit in enumerate(hits):
        groups.setdefault(is_mostly_cjk(hit.chunk.text), []).append(i)
    for members in groups.values():
        values = sorted((relevance[i] for i in members), reverse=True)
        ranked = sorted(members, key=lambda i: -scores[i])
        for i, value in zip(ranked, values, strict=True):
            out[i] = value
    return out


class MultilingualJudge:
    """Relevance of passages to a question from the stored chunk and sentence vectors of
    ``embedders``; a passage with none of them stored is not judged (None)."""

    def __init__(self, *, embedders: Sequence[Embedder], vectors: StoredVectors) -> None:
        self.embedders = list(embedders)
        self.vectors = vectors

    def judge(self, question: str, hits: Sequence[Hit]) -> list[Judgement | None]:
        """One judgement per hit, in order."""
        if not hits:
            return []
        ids = [h.chunk.id for h in hits]
        chunk_votes: list[list[float]] = [[] for _ in hits]
        sentence_votes: list[list[np.ndarray]] = [[] for _ in hits]
        for embedder in self.embedders:
            spread = embedder.scale.unit()
            q = embedder.embed([question], kind="query")[0]
            chunks = self.vectors.chunk_vectors(ids, embedder.name)
            sentences = self.vectors.sentence_vectors(ids, embedder.name)
            for i, chunk_id in enumerate(ids):
                if chunk_id in chunks:
                    chunk_votes[i].append(float(chunks[chunk_id] @ q) / spread)
                matrix = sentences.get(chunk_id)
                # Rows must match the chunk's sentences: a stale matrix is not read.
                if matrix is not None and len(matrix) == len(hits[i].chunk.sentences) > 0:
                    sentence_votes[i].append((matrix @ q) / spread)
        lexical = lexical_votes(question, hits)
        glossed = gloss_votes(question, hits)
        lexical = [same if same is not None else other
                   for same, other in zip(lexical, glossed.passages, strict=True)]
        return [_one(hit, chunk_votes[i], sentence_votes[i], lexical[i], glossed.sentences[i])
                for i, hit in enumerate(hits)]


def lexical_votes(question: str, hits: Sequence[Hit]) -> list[float | None]:
    """The keyword retriever's vote on each passage written in the question's script.

    Words shared with the question are evidence only between texts of one language: for
    those passages bm25 votes beside the models, as its z-score among them (a passage the
    keyword retriever did not return scores 0); across languages it has no vote (None).
    """
    script = is_mostly_cjk(question)
    same = [i for i, h in enumerate(hits) if is_mostly_cjk(h.chunk.text) == script]
    out: list[float | None] = [None] * len(hits)
    if not any("bm25" in hits[i].scores for i in same):
        return out
    votes = zscores([hits[i].scores.get("bm25", 0.0) for i in same])
    # Equal scores: no vote says more than another, so each passage votes 0.
    for k, i in enumerate(same):
        out[i] = 0.0 if votes is None else float(votes[k])
    return out


def _one(hit: Hit, chunk_votes: list[float], sentence_votes: list[np.ndarray],
         lexical: float | None, glossed: np.ndarray | None) -> Judgement | None:
    # Each model votes with its best sentence; the sentence shown as evidence is the one
    # the models favour together, with the dictionary's vote on each sentence beside them.
    votes = [*chunk_votes, *(float(v.max()) for v in sentence_votes)]
    if votes and lexical is not None:
        votes.append(lexical)
    if not votes:
        return None
    sentence = None
    if sentence_votes:
        together = np.sum(sentence_votes, axis=0)
        if glossed is not None:
            together = together + glossed
        sentence = hit.chunk.sentences[int(np.argmax(together))].index
    return Judgement(score=float(np.mean(votes)), sentence=sentence)
