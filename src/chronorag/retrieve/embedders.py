"""Registry of embedders: ``EMBEDDERS.create("use-m3")``. Nothing loads at import."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from chronorag.registry import Registry
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.embed_e5 import E5Embedder
from chronorag.retrieve.embed_use import UseEmbedder

DEFAULT_EMBEDDER = "e5-small"

EMBEDDERS: Registry[Embedder] = Registry("embedder")
EMBEDDERS.add("use-m3", UseEmbedder)
EMBEDDERS.add("e5-small", E5Embedder)


class QueryMemo:
    """An embedder that remembers its last query vectors.

    One question is embedded by dense retrieval and again by an extension (the semantic
    layer's example matching), often with the same text; a retried search embeds it
    again. Passages pass straight through: they are embedded once, at ingest.
    """

    def __init__(self, inner: Embedder, *, size: int = 64) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.calibration: tuple[float, float] = getattr(inner, "calibration", (0.0, 1.0))
        self.pair_calibrations = getattr(inner, "pair_calibrations", None)
        self.spread: float | None = getattr(inner, "spread", None)
        self._size = size
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        if kind != "query":
            return self.inner.embed(texts, kind=kind)
        with self._lock:
            known = {t: self._recent[t] for t in texts if t in self._recent}
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            known.update(zip(missing, self.inner.embed(missing, kind="query"), strict=True))
        rows = [known[t] for t in texts]
        with self._lock:
            for text in texts:
                self._recent[text] = known[text]
                self._recent.move_to_end(text)
            while len(self._recent) > self._size:
                self._recent.popitem(last=False)
        return np.stack(rows).astype(np.float32, copy=False) if rows else \
            np.zeros((0, self.dim), np.float32)

    def forget(self) -> None:
        """Drop the remembered query vectors: the next question is embedded afresh (the
        eval harness times each method with its own question embedding)."""
        with self._lock:
            self._recent.clear()
