"""Registry of embedders: ``EMBEDDERS.create("use-m3")``. Nothing loads at import."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from chronorag.errors import ConfigError
from chronorag.registry import Registry
from chronorag.retrieve.base import CosineScale, Embedder
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
        self.scale = _scale(inner)
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


def _scale(embedder: Embedder) -> CosineScale:
    """The embedder's declared ``scale``; an embedder without one is refused here, where
    it is first used, not left to abstain by another model's ranges."""
    scale = getattr(embedder, "scale", None)
    if not isinstance(scale, CosineScale):
        raise ConfigError(
            f"embedder {getattr(embedder, 'name', embedder)!r} declares no scale: give it "
            "a chronorag.retrieve.base.CosineScale (how its cosines read as relevance; "
            "CosineScale() maps [0, 1] as it is)")
    return scale
