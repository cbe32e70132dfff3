"""chronorag: retrieval for RAG that knows when a statement is true."""

from chronorag.engine import Engine

__all__ = ["Engine"]
__version__ = "0.1.0"
