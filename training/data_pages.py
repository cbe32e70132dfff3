"""Pages and the sentence windows the reader sees, cut by the product's own code.

A window is what ``WindowReranker`` hands its model at ask time: the page title, ``": "``,
then one sentence of a chunk with ``context`` sentences on each side (never crossing the
chunk). Chunks, sentences and their time mentions come from ``chunk_document`` and
``with_event_time``, exactly as ``chronorag ingest`` makes them, so training and inference
read the same text.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path

from chronorag.ingest import chunk_document
from chronorag.ingest.loaders import load_paths
from chronorag.model import Document, Interval
from chronorag.pipeline.ingest import with_event_time
from chronorag.rank.rerank_windows import WindowReranker, window_sentences, window_text
from chronorag.timex.relations import constrain

__all__ = ["Window", "load_pages", "page_windows", "product_context"]


@dataclass(frozen=True)
class Window:
    """One candidate window of a page.

    Attributes:
        page: document id.
        index: the centre sentence's index in the document (``Sentence.index``).
        start, end: offsets of the centre sentence in the page text.
        low, high: offsets of the whole window (context sentences included).
        text: what the reader sees, title prefix included.
        times: the time mentions of every sentence in the window, as the intervals their
            relation words select ("from 1970" is ``[1970, None)``).
    """

    page: str
    index: int
    start: int
    end: int
    low: int
    high: int
    text: str
    times: tuple[Interval, ...]

    def centre_overlaps(self, start: int, end: int) -> bool:
        return self.start < end and start < self.end

    def overlaps(self, start: int, end: int) -> bool:
        return self.low < end and start < self.high


def product_context() -> int:
    """The ``context`` ``ask`` uses: the window reranker's default, read from its signature
    so a change in the product shows up here without an edit."""
    default = inspect.signature(WindowReranker.__init__).parameters["context"].default
    return int(default)


def load_pages(path: Path) -> dict[str, Document]:
    """Documents of a ``corpus.jsonl`` read and validated as ``chronorag ingest`` reads them."""
    return {doc.id: doc for source in load_paths([path]) for doc in source.documents}


def page_windows(doc: Document, *, context: int) -> tuple[Window, ...]:
    """Every sentence window of ``doc``, in document order."""
    windows = []
    for chunk in with_event_time(doc, chunk_document(doc)):
        for position, sentence in enumerate(chunk.sentences):
            around = window_sentences(chunk, position, context=context)
            windows.append(Window(
                page=doc.id, index=sentence.index, start=sentence.start, end=sentence.end,
                low=around[0].start, high=around[-1].end,
                text=window_text(chunk, position, context=context, title=doc.title),
                times=tuple(constrain(m.relation, m.interval) for s in around for m in s.mentions),
            ))
    return tuple(windows)
