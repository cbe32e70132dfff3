"""Components beside the document pipeline, created per engine by exact name.

An extension adds to ``ask`` (``Extension.extend``: what goes under ``extras[name]``) and
may take files from an ingest (``IngestExtension.claim``), validated with the documents
and committed in their transaction. It reaches storage only through the ``Store``
protocol, so every backend carries it (the semantic layer, the built-in one, through its
``LayerStore`` part alone); a ``SearchConfig`` names the extensions an engine runs
(``extensions=()`` runs none).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, tzinfo
from os import PathLike
from typing import Any, Protocol, runtime_checkable

from chronorag.errors import FieldError
from chronorag.model import Query
from chronorag.registry import Registry
from chronorag.retrieve.base import Embedder
from chronorag.semantic.plugin import SemanticLayer
from chronorag.store.base import Store, WriteReport


class Extension(Protocol):
    """Adds to the answer of a question; built with ``store=`` and ``embedder=`` (a
    callable giving the engine's embedder, so nothing loads unless it is needed)."""

    def extend(self, query: Query) -> Mapping[str, Any] | None:
        """JSON for ``extras[name]`` of this question's answer; None adds nothing."""
        ...


class Claim(Protocol):
    """The files an extension took from one ingest, validated, waiting to be written."""

    documents: Sequence[str | PathLike[str]]
    files: int
    errors: Sequence[FieldError]

    def write(self, *, embedders: Sequence[Embedder], now: datetime) -> WriteReport:
        """Store what was claimed (inside the ingest's transaction)."""
        ...


@runtime_checkable
class IngestExtension(Protocol):
    """An extension that reads some of the paths given to ``ingest``."""

    def claim(self, paths: Sequence[str | PathLike[str]], *, tz: tzinfo) -> Claim:
        """Take this extension's files out of ``paths`` and validate them; the rest
        (``Claim.documents``) goes to the document loader."""
        ...


EXTENSIONS: Registry[Extension] = Registry("extension")
EXTENSIONS.add("semantic", SemanticLayer)


def create_extensions(names: Sequence[str], *, store: Store,
                      embedder: Callable[[], Embedder]) -> dict[str, Extension]:
    """The named extensions for one store, by name (unknown names are a ConfigError)."""
    return {name: EXTENSIONS.create(name, store=store, embedder=embedder) for name in names}
