"""Markdown stored as raw text before Markdown was parsed, read again on ``reindex``.

A document ingested from a ``.md`` file before the Markdown reader existed holds its
markup in its text (``#`` headings, ``**bold**``, table pipes) and has no layout. When its
file is still where it was read from and its body is still exactly the stored text, the
file is read again through the reader: same content, without the markup, with headings
as sections. A file that changed since is left alone (re-ingest it): reindex never
brings in text the store did not hold.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from chronorag.ingest.formats import LAYOUT_KEY
from chronorag.ingest.formats.markdown import read_markdown
from chronorag.ingest.frontmatter import split_front_matter
from chronorag.model import Document

__all__ = ["reread_markdown"]

_MARKDOWN = (".md", ".markdown")


def reread_markdown(doc: Document) -> Document | None:
    """``doc`` read again from its Markdown file (see the module docstring), or None."""
    if LAYOUT_KEY in doc.metadata or not doc.source:
        return None
    path = Path(doc.source)
    if path.suffix.lower() not in _MARKDOWN:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    front = split_front_matter(text)
    if front.error is not None or front.body.strip() != doc.text:
        return None
    extracted = read_markdown(front.body)
    if not extracted.text.strip():
        return None
    layout = extracted.layout.shifted(len(text) - len(front.body), source_length=len(text))
    return replace(doc, text=extracted.text,
                   metadata={**doc.metadata, LAYOUT_KEY: layout.to_json()})
