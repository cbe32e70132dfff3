"""The terms BM25 indexes a chunk under and searches a question for."""

from __future__ import annotations

from chronorag.retrieve.pinyin import joined_names, with_pinyin
from chronorag.retrieve.tokenize import normalize, tokenize


def document_terms(text: str) -> list[str]:
    """The terms a chunk is indexed under: its words, and the pinyin of its Chinese names."""
    return with_pinyin(tokenize(text))


def query_terms(text: str) -> list[str]:
    """The terms a question searches for: as a chunk's, plus neighbouring Latin words that
    spell one Chinese name ("Zhang Wei" -> "zhangwei")."""
    return document_terms(text) + joined_names(normalize(text))
