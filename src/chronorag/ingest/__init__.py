"""Ingest: load and validate documents, split sentences, cut sentence-aligned chunks.

``load_paths`` reads ``.jsonl``/``.md``/``.txt`` files and folders into validated
``Document`` objects (or raises ``ValidationError`` listing every problem);
``chunk_document`` cuts a document into ``Chunk`` objects that keep their offsets.
"""

from chronorag.ingest.chunking import chunk_document, text_size
from chronorag.ingest.dates import DateError, parse_date
from chronorag.ingest.loaders import SUFFIXES, SourceFile, load_paths
from chronorag.ingest.sentences import split_sentences

__all__ = [
    "SUFFIXES",
    "DateError",
    "SourceFile",
    "chunk_document",
    "load_paths",
    "parse_date",
    "split_sentences",
    "text_size",
]
