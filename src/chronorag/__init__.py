"""chronorag: retrieval for RAG that knows when a statement is true."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chronorag.engine import Engine
    from chronorag.model import Asking

__all__ = ["Asking", "Engine"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # Lazy, so that importing a small submodule does not pull in every backend.
    if name == "Engine":
        from chronorag.engine import Engine

        return Engine
    if name == "Asking":
        from chronorag.model import Asking

        return Asking
    raise AttributeError(f"module 'chronorag' has no attribute {name!r}")
