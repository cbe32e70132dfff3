"""Semantic layer for analytics questions: tables, metrics, terms, joins, approved
examples and rules, retrieved by four engines and packed for text-to-SQL.

Entry points: :class:`SemanticLayer` (the engine component: ``ask`` extras and layer
files in ``ingest``), :func:`build_context` (``chronorag context``), :func:`load_layers`
(validation). Storage goes through the store's layer part only (``LayerStore``).
Nothing loads at import.
"""

from __future__ import annotations

from chronorag.semantic.context import ContextPack, SemanticContext, build_context
from chronorag.semantic.load import load_layers
from chronorag.semantic.model import Binding, JoinPath, SemanticOptions
from chronorag.semantic.plugin import SemanticLayer

__all__ = ["Binding", "ContextPack", "JoinPath", "SemanticContext", "SemanticLayer",
           "SemanticOptions", "build_context", "load_layers"]
