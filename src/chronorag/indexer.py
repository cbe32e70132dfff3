"""Ingest orchestration: load and validate, chunk, embed, write in one transaction."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from pathlib import Path

import numpy as np

from chronorag.ingest import chunk_document, load_paths
from chronorag.model import Chunk, Document, Interval, Mention
from chronorag.retrieve.base import Embedder
from chronorag.semantic.ingest import store_layer, validate_all
from chronorag.store.base import PreparedDocument, Store

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class IngestReport:
    """What one ingest call did, by document id."""

    files: int
    added: tuple[str, ...]
    replaced: tuple[str, ...]
    unchanged: tuple[str, ...]
    chunks: int

    def to_json(self) -> dict[str, object]:
        return {
            "files": self.files, "added": len(self.added), "replaced": len(self.replaced),
            "unchanged": len(self.unchanged), "chunks": self.chunks,
        }


def ingest_paths(
    store: Store,
    paths: Sequence[str | Path],
    *,
    embedders: Sequence[Embedder],
    now: datetime,
    tz: tzinfo,
    progress: Progress | None = None,
    batch_docs: int = 64,
) -> IngestReport:
    """Validate every file first, then store all documents in one transaction.

    Raises ``ValidationError`` before anything is written when any document is invalid,
    so a rejected ingest leaves the store exactly as it was.
    """
    # Semantic-layer files (.yaml/.yml/.json, issue 7) are split off and validated with
    # the documents, so one bad file in either rejects the whole ingest.
    files, layer = validate_all(store, paths, tz=tz,
                                load_documents=lambda p: load_paths(p, tz=tz))
    documents = [doc for f in files for doc in f.documents]
    stored = store.content_hashes([d.id for d in documents])
    todo: list[tuple[Document, str]] = []
    unchanged: list[str] = []
    for doc in documents:
        digest = doc.content_hash()
        if stored.get(doc.id) == digest:
            unchanged.append(doc.id)
        else:
            todo.append((replace(doc, ingested_at=now), digest))
    prepared: list[PreparedDocument] = []
    for start in range(0, len(todo), batch_docs):
        prepared.extend(_prepare(todo[start:start + batch_docs], embedders))
        if progress is not None:
            progress(min(start + batch_docs, len(todo)), len(todo))
    report = store.write(prepared)
    # Documents first: their write is the one that can still fail on stored data (chunk id
    # clashes); the layer was fully validated above. Two transactions, not one.
    sem_added, sem_replaced, sem_unchanged = store_layer(store, layer, embedders=embedders,
                                                         now=now)
    return IngestReport(
        files=len(files) + len({a.source.rsplit(":", 1)[0] for a in layer}),
        added=report.added + tuple(sem_added), replaced=report.replaced + tuple(sem_replaced),
        unchanged=tuple(unchanged) + report.unchanged + tuple(sem_unchanged),
        chunks=sum(len(p.chunks) for p in prepared),
    )


def _prepare(
    batch: Sequence[tuple[Document, str]], embedders: Sequence[Embedder]
) -> list[PreparedDocument]:
    chunked = [(doc, digest, with_event_time(doc, chunk_document(doc))) for doc, digest in batch]
    texts = [_embed_text(doc, chunk) for doc, _, chunks in chunked for chunk in chunks]
    matrices = {e.name: e.embed(texts, kind="passage") for e in embedders} if texts else {}
    out: list[PreparedDocument] = []
    row = 0
    for doc, digest, chunks in chunked:
        n = len(chunks)
        vectors = {name: np.ascontiguousarray(m[row:row + n]) for name, m in matrices.items()}
        out.append(PreparedDocument(doc, digest, chunks, vectors))
        row += n
    return out


def with_event_time(doc: Document, chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
    """Give every sentence the times its document's metadata states.

    A life-log entry such as "12:30 吃了午饭" says when only in ``occurred_at``, and a
    policy says when it applies only in ``valid_from``/``valid_to``. The temporal scorer
    reads sentence mentions, so these metadata times are attached where it looks.
    """
    extra = metadata_times(doc)
    if not extra:
        return chunks
    out = []
    for chunk in chunks:
        sentences = tuple(
            replace(s, mentions=(*s.mentions,
                                 *(Mention(name, s.start, s.start, iv) for name, iv in extra)))
            for s in chunk.sentences
        )
        out.append(replace(chunk, sentences=sentences))
    return tuple(out)


def metadata_times(doc: Document) -> list[tuple[str, Interval]]:
    """The event time and the validity period of a document, as intervals."""
    times: list[tuple[str, Interval]] = []
    if doc.occurred_at is not None:
        times.append(("occurred_at", doc.occurred_at))
    start = doc.valid_from.start if doc.valid_from else None
    end = doc.valid_to.start if doc.valid_to else None
    if start is not None or end is not None:
        times.append(("valid", Interval(start, end)))
    return times


def _embed_text(doc: Document, chunk: Chunk) -> str:
    # The title disambiguates chunks of long pages ("He was succeeded by ..."), so the
    # embedding sees it; the stored chunk text and its offsets stay the source's own.
    if doc.title and not chunk.text.startswith(doc.title):
        return f"{doc.title}. {chunk.text}"
    return chunk.text
