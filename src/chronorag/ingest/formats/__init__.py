"""Readers that turn Markdown, HTML, PDF and DOCX files into plain document text.

``reader_for(name).read(data, name=name)`` gives an ``Extracted``: the text without
markup (headings as lines of their own, paragraphs separated by blank lines, list items
and table rows one a line), the file's title, and its ``Layout`` (headings, blocks, PDF
pages, and a source map back into the file). Ingest stores the layout in
``Document.metadata["_layout"]``; ``section_path`` reads the headings around an offset
from it. Each reader is found by suffix in ``READERS``; the ``Reader`` protocol is the
plug-in point.
"""

from chronorag.ingest.formats.base import Extracted, FormatError, Reader
from chronorag.ingest.formats.layout import LAYOUT_KEY, Layout, section_path, source_offset
from chronorag.ingest.formats.readers import READERS, reader_for

__all__ = [
    "LAYOUT_KEY",
    "READERS",
    "Extracted",
    "FormatError",
    "Layout",
    "Reader",
    "reader_for",
    "section_path",
    "source_offset",
]
