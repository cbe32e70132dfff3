"""Semantic layer for analytics questions: tables, metrics, terms, joins, approved
examples and rules, retrieved by four engines and packed for text-to-SQL.

Entry points: :func:`build_context` (``chronorag context``), :func:`for_ask` (the hook
``Engine.ask`` calls), :func:`load_layers` (validation). Nothing loads at import.
"""

from __future__ import annotations

from chronorag.semantic.context import ContextPack, SemanticContext, build_context, for_ask
from chronorag.semantic.load import load_layers
from chronorag.semantic.model import Binding, JoinPath, SemanticOptions

__all__ = ["Binding", "ContextPack", "JoinPath", "SemanticContext", "SemanticOptions",
           "build_context", "for_ask", "load_layers"]
