"""Registry of embedders: ``EMBEDDERS.create("use-m3")``. Nothing loads at import."""

from __future__ import annotations

from chronorag.registry import Registry
from chronorag.retrieve.base import Embedder
from chronorag.retrieve.embed_e5 import E5Embedder
from chronorag.retrieve.embed_use import UseEmbedder

DEFAULT_EMBEDDER = "e5-small"

EMBEDDERS: Registry[Embedder] = Registry("embedder")
EMBEDDERS.add("use-m3", UseEmbedder)
EMBEDDERS.add("e5-small", E5Embedder)
