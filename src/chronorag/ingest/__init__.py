"""Ingest: load and validate documents, split sentences, cut sentence-aligned chunks.

``load_paths`` reads ``.jsonl``/``.md``/``.txt`` files and folders (``*.chat.jsonl``:
conversation turns, see ``conversation``) into validated ``Document`` objects (or raises
``ValidationError`` listing every problem); ``chunk_document`` cuts a document into
``Chunk`` objects that keep their offsets.
"""

from chronorag.ingest.chunking import CHUNKER_VERSION, chunk_document, text_size
from chronorag.ingest.dates import DateError, parse_date
from chronorag.ingest.loaders import (
    SUFFIXES,
    CheckedFile,
    Named,
    SourceFile,
    check_paths,
    load_paths,
    read_documents,
)
from chronorag.ingest.sentences import split_sentences

__all__ = [
    "CHUNKER_VERSION",
    "SUFFIXES",
    "CheckedFile",
    "DateError",
    "Named",
    "SourceFile",
    "check_paths",
    "chunk_document",
    "load_paths",
    "parse_date",
    "read_documents",
    "split_sentences",
    "text_size",
]
