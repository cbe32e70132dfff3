"""Registry of format readers by file suffix: ``READERS.create(".md")``. Nothing heavy
loads at import: each reader imports its parser when it first reads a file."""

from __future__ import annotations

from pathlib import PurePosixPath

from chronorag.ingest.formats.base import Reader
from chronorag.ingest.formats.docx import DocxReader
from chronorag.ingest.formats.html import HtmlReader
from chronorag.ingest.formats.markdown import MarkdownReader
from chronorag.ingest.formats.pdf import PdfReader
from chronorag.registry import Registry

__all__ = ["READERS", "reader_for"]

READERS: Registry[Reader] = Registry("format reader")
READERS.add(".md", MarkdownReader)
READERS.add(".markdown", MarkdownReader)
READERS.add(".html", HtmlReader)
READERS.add(".htm", HtmlReader)
READERS.add(".pdf", PdfReader)
READERS.add(".docx", DocxReader)


def reader_for(name: str) -> Reader | None:
    """The reader of a file named ``name`` (by its suffix, any case); ``None`` for a file
    read as it is (``.txt``) or not a document format."""
    suffix = PurePosixPath(name).suffix.lower()
    return READERS.create(suffix) if suffix in READERS else None
