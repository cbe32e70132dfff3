"""Ingest orchestration: validate everything, then chunk, embed and commit in batches.

Every file is validated before anything is written, so a file with any invalid document
changes nothing. Then documents stream through in batches: each batch is chunked, embedded
and written in its own transaction, so memory stays bounded by the batch and a killed
ingest keeps every batch it committed (running it again skips them as unchanged). When the
ingest carries files an extension claims (a semantic layer), they commit in one transaction
with its documents.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from os import PathLike
from typing import NotRequired, TypedDict

import numpy as np

from chronorag.errors import (
    ChronoragError,
    FieldError,
    IngestError,
    StoreError,
    ValidationError,
)
from chronorag.extensions import Claim, IngestExtension
from chronorag.ingest import (
    CHUNKER_VERSION,
    CheckedFile,
    chunk_document,
    read_documents,
)
from chronorag.ingest.adopt import keep_accepted
from chronorag.model import Chunk, Document, Interval, Mention
from chronorag.pipeline import stated
from chronorag.pipeline.embedding import (
    EMBED_TEXT_VERSION,
    Reuse,
    embed,
    embed_text,
    sentence_texts,
    stored_vectors,
    token_matrices,
)
from chronorag.pipeline.reread import reread_markdown
from chronorag.pipeline.sources import StoreCheck
from chronorag.rank.late import TokenEncoder
from chronorag.rank.late import reads as late_reads
from chronorag.retrieve.base import Embedder
from chronorag.store.base import CorpusStore, PreparedDocument, WriteReport, derivation

log = logging.getLogger(__name__)



@dataclass(frozen=True)
class IngestProgress:
    """How far an ingest or reindex is: ``done`` of ``total`` documents, ``chunks``
    written so far, and the input file being read (``file`` of ``files``, 1-based;
    ``path`` as given; 0 and "" for a reindex, which reads the store)."""

    done: int
    total: int
    chunks: int = 0
    file: int = 0
    files: int = 0
    path: str = ""


Progress = Callable[[IngestProgress], None]

# Everything else that escapes a chunker or embedder is a failure to report, including a
# Rust extension's panic (pyo3's PanicException derives from BaseException).
_INTERRUPTS = (KeyboardInterrupt, SystemExit, GeneratorExit)


class IngestCounts(TypedDict):
    """An ingest's JSON (``ingest --json``, an upload's answer): documents by outcome,
    counted; ``notes`` when there are any."""

    files: int
    added: int
    replaced: int
    unchanged: int
    chunks: int
    notes: NotRequired[list[str]]


@dataclass(frozen=True)
class IngestReport:
    """What one ingest call did, by document id."""

    files: int
    added: tuple[str, ...]
    replaced: tuple[str, ...]
    unchanged: tuple[str, ...]
    chunks: int
    # Lines for the user beside the counts: how dates written in words were read, dangling
    # links let through, fields filled from the text (``pipeline.stated``).
    notes: tuple[str, ...] = ()

    def to_json(self) -> IngestCounts:
        out: IngestCounts = {
            "files": self.files, "added": len(self.added), "replaced": len(self.replaced),
            "unchanged": len(self.unchanged), "chunks": self.chunks,
        }
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True)
class Batching:
    """How much one committed batch holds: at most ``docs`` documents and, beyond its
    first document, at most ``chars`` characters of text (so a 10 MB document is a batch
    of its own)."""

    docs: int = 64
    chars: int = 1_000_000


@dataclass(frozen=True)
class Embedders:
    """What ingest embeds with: every chunk with ``chunks`` (the first is the one dense
    retrieval searches), every sentence (as "title: sentence") with ``sentences``, the
    tokens of every chunk with ``tokens``."""

    chunks: Sequence[Embedder]
    sentences: Sequence[Embedder] = ()
    tokens: Sequence[TokenEncoder] = ()

    def stamp(self) -> str:
        """The derivation stamp of documents ingested now with these embedders."""
        return derivation(CHUNKER_VERSION, [e.name for e in self.chunks],
                          text=EMBED_TEXT_VERSION, sentences=[e.name for e in self.sentences],
                          tokens=[e.name for e in self.tokens])


@dataclass
class _Tally:
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    chunks: int = 0
    done: int = 0
    reread: int = 0


def ingest_paths(
    store: CorpusStore,
    paths: Sequence[str | PathLike[str]],
    *,
    embedders: Embedders,
    now: datetime,
    tz: tzinfo,
    progress: Progress | None = None,
    batching: Batching = Batching(),
    extensions: Sequence[IngestExtension] = (),
    committed: Callable[[], None] | None = None,
    dates_from_text: bool = False,
    allow_dangling: bool = False,
    root: str | PathLike[str] | None = None,
    replace: bool = False,
) -> IngestReport:
    """Validate every file, then store its documents in committed batches.

    ``dates_from_text`` fills each document's missing valid_from, modified_at and
    supersedes from the dates and links its text states (``chronorag.ingest.stated``); a
    link naming an id neither stored nor in this ingest is a ``ValidationError`` unless
    ``allow_dangling`` (then a note of the report).

    ``committed`` is called after each batch is committed (not when the documents and a
    semantic layer commit together, once at the end).

    Raises ``ValidationError`` before anything is written when any document (or any
    file an extension claims) is invalid. A document is unchanged (skipped) when its
    text, chunker version and embedders all match what is stored. What ``extensions``
    claim is written in one transaction with the documents (embedded with the chunk
    embedders). A file without ids of its own is known by its path from ``root`` (default:
    the current directory) unless it is stored already; replacing a stored document read
    from another file is a ``ValidationError`` unless ``replace``
    (``chronorag.pipeline.sources``).
    """
    files, claims = _validate(paths, tz=tz, extensions=extensions,
                              check=StoreCheck(store, root, replace))
    notes = stated.check_links(store, files, allow_dangling=allow_dangling)
    adopting = stated.Adopting(store, files, tz=tz) if dates_from_text else None
    total = sum(f.documents for f in files)
    tally = _Tally()
    stamp = embedders.stamp()

    def report(number: int, path: str) -> None:
        if progress is not None:
            progress(IngestProgress(tally.done, total, tally.chunks, number, len(files), path))

    def run(after_batch: Callable[[], None] | None) -> None:
        for number, checked in enumerate(files, 1):
            report(number, checked.path)
            documents = read_documents(checked, tz=tz)
            if adopting is not None:
                documents = adopting.apply(documents)
            for batch in _batches(documents, batching):
                _ingest_batch(store, checked.path, batch, embedders=embedders, now=now,
                              stamp=stamp, tally=tally, tz=tz)
                report(number, checked.path)
                if after_batch is not None:
                    after_batch()

    written: list[WriteReport] = []
    if not claims:
        run(committed)
    else:
        with store.atomic():
            run(None)
            # Other stores (a semantic layer) are searched by the dense embedder only.
            written = [c.write(embedders=embedders.chunks[:1], now=now) for c in claims]
    return IngestReport(
        files=len(files) + sum(c.files for c in claims),
        added=(*tally.added, *(k for w in written for k in w.added)),
        replaced=(*tally.replaced, *(k for w in written for k in w.replaced)),
        unchanged=(*tally.unchanged, *(k for w in written for k in w.unchanged)),
        chunks=tally.chunks,
        notes=(*(str(r) for f in files for r in f.readings), *notes,
               *(adopting.notes if adopting is not None else ())),
    )


def rewrite_documents(store: CorpusStore, documents: Sequence[Document], *, embedders: Embedders,
                      now: datetime, tz: tzinfo) -> IngestReport:
    """Store new versions of stored documents (fields changed, say): each replaces its
    stored version atomically, and only chunks whose text changed are embedded again."""
    tally = _Tally()
    stored = store.fingerprints([d.id for d in documents])
    todo = [(replace(d, ingested_at=now), d.content_hash()) for d in documents]
    tally.done = len(todo)
    _write_batch(store, "(stored documents)", todo, embedders=embedders,
                 stamp=embedders.stamp(), tally=tally, stored=stored, tz=tz)
    return IngestReport(files=0, added=tuple(tally.added), replaced=tuple(tally.replaced),
                        unchanged=tuple(tally.unchanged), chunks=tally.chunks)


def _validate(paths: Sequence[str | PathLike[str]], *, tz: tzinfo,
              extensions: Sequence[IngestExtension], check: StoreCheck
              ) -> tuple[list[CheckedFile], list[Claim]]:
    """The document files, checked, and what each extension claimed: one
    ``ValidationError`` with every problem of both, before anything is written."""
    claims: list[Claim] = []
    rest: Sequence[str | PathLike[str]] = paths
    for extension in extensions:
        claim = extension.claim(rest, tz=tz)
        if claim.files or claim.errors:
            claims.append(claim)
        rest = claim.documents
    if not claims:
        return check(rest, tz=tz), []
    errors: list[FieldError] = []
    files: list[CheckedFile] = []
    if rest:
        try:
            files = check(rest, tz=tz)
        except ValidationError as exc:
            errors += exc.errors
    errors += [e for c in claims for e in c.errors]
    if errors:
        raise ValidationError(errors)
    return files, claims


def reindex_documents(store: CorpusStore, *, embedders: Embedders, force: bool = False,
                      progress: Progress | None = None, batching: Batching = Batching(),
                      tz: tzinfo = UTC) -> IngestReport:
    """Rebuild chunks, sentences, mentions and vectors of stored documents from their
    stored text, in committed batches; the documents themselves are unchanged. ``tz`` is
    the calendar relative phrases are read in (the zone the documents were ingested in).

    Only documents derived with another chunker version or other embedders are rebuilt
    (all with ``force``), so an interrupted reindex resumes where it stopped.
    """
    ids = store.document_ids()
    tally = _Tally()
    stamp = embedders.stamp()
    for start in range(0, len(ids), batching.docs):
        window = ids[start:start + batching.docs]
        stored = store.fingerprints(window)
        stale = [i for i in window if i in stored and (force or stored[i][1] != stamp)]
        tally.unchanged += [i for i in window if i not in stale]
        todo = [_reread(doc, stored[doc.id][0], tally)
                for doc in store.documents(stale)] if stale else []
        tally.done += len(window)
        _write_batch(store, "(stored documents)", todo, embedders=embedders, stamp=stamp,
                     tally=tally, stored=stored, force=True, tz=tz)
        if progress is not None:
            progress(IngestProgress(tally.done, len(ids), tally.chunks))
    notes = (f"re-read {tally.reread} Markdown document(s) stored before Markdown was "
             "parsed (markup removed, headings kept as sections)",) if tally.reread else ()
    return IngestReport(files=0, added=(), replaced=tuple(tally.replaced),
                        unchanged=tuple(tally.unchanged), chunks=tally.chunks, notes=notes)


def _reread(doc: Document, stored_hash: str, tally: _Tally) -> tuple[Document, str]:
    again = reread_markdown(doc)
    if again is None:
        return doc, stored_hash
    tally.reread += 1
    return again, again.content_hash()


def _batches(documents: Iterable[Document], batching: Batching) -> Iterator[list[Document]]:
    batch: list[Document] = []
    size = 0
    for doc in documents:
        if batch and (len(batch) >= batching.docs or size + len(doc.text) > batching.chars):
            yield batch
            batch, size = [], 0
        batch.append(doc)
        size += len(doc.text)
    if batch:
        yield batch


def _ingest_batch(store: CorpusStore, path: str, batch: list[Document], *,
                  embedders: Embedders, now: datetime, stamp: str,
                  tally: _Tally, tz: tzinfo) -> None:
    stored = store.fingerprints([d.id for d in batch])
    todo: list[tuple[Document, str]] = []
    digests = [d.content_hash() for d in batch]
    # A stored copy that differs may hold dates and links a review accepted: keep them.
    differ = [d.id for d, digest in zip(batch, digests, strict=True)
              if d.id in stored and stored[d.id] != (digest, stamp)]
    previous = {d.id: d for d in store.documents(differ, text=False)} if differ else {}
    for doc, digest in zip(batch, digests, strict=True):
        if doc.id in previous:
            doc = keep_accepted(doc, previous[doc.id])
            digest = doc.content_hash()
        if stored.get(doc.id) == (digest, stamp):
            tally.unchanged.append(doc.id)
        else:
            todo.append((replace(doc, ingested_at=now), digest))
    tally.done += len(batch)
    _write_batch(store, path, todo, embedders=embedders, stamp=stamp, tally=tally,
                 stored=stored, tz=tz)


def _write_batch(store: CorpusStore, path: str, todo: list[tuple[Document, str]], *,
                 embedders: Embedders, stamp: str, tally: _Tally,
                 stored: Mapping[str, tuple[str, str]], force: bool = False,
                 tz: tzinfo = UTC) -> None:
    """Prepare and write ``todo``; ``stored`` is the store's fingerprints of its ids."""
    if not todo:
        return
    # A document stored with the same content hash is the one at hand (a reindex): only
    # the others are read back for the title their texts were embedded with.
    same = {doc.id: doc for doc, digest in todo
            if doc.id in stored and stored[doc.id][0] == digest}
    reuse = stored_vectors(store, [doc for doc, _ in todo], stored, stamp=stamp,
                           known_docs=same)
    prepared = _prepare(path, todo, embedders, stamp, reuse=reuse, tz=tz)
    try:
        report = store.write(prepared, force=force)
    except StoreError as exc:
        raise StoreError(f"{path}: {_where(todo)}: {exc}") from exc
    tally.added += report.added
    tally.replaced += report.replaced
    tally.unchanged += report.unchanged
    tally.chunks += sum(len(p.chunks) for p in prepared)


def _where(todo: Sequence[tuple[Document, str]]) -> str:
    first, last = todo[0][0].id, todo[-1][0].id
    return f"document {first!r}" if first == last else f"documents {first!r} to {last!r}"


def _prepare(path: str, batch: Sequence[tuple[Document, str]], embedders: Embedders,
             stamp: str, *, reuse: Reuse, tz: tzinfo) -> list[PreparedDocument]:
    chunked = []
    for doc, digest in batch:
        try:
            chunks = with_event_time(doc, chunk_document(doc, tz=tz))
        except _INTERRUPTS:
            raise
        except BaseException as exc:  # a bug, not bad input: name the document, store nothing
            raise IngestError(path, f"document {doc.id!r}", "chunking", exc) from exc
        chunked.append((doc, digest, chunks))
    texts = [embed_text(doc, chunk) for doc, _, chunks in chunked for chunk in chunks]
    sentences = [t for doc, _, chunks in chunked for c in chunks for t in sentence_texts(doc, c)]
    matrices = _embed_all(path, batch, embedders.chunks, texts, reuse.chunks)
    sentence_matrices = _embed_all(path, batch, embedders.sentences, sentences,
                                   reuse.sentences)
    tokens = token_matrices(embedders.tokens, texts, known=reuse.tokens,
                            read=[late_reads(c.text) for _, _, cs in chunked for c in cs],
                            on_error=lambda name, exc: IngestError(
                                path, _where(batch), f"encoding tokens with {name}", exc))
    out: list[PreparedDocument] = []
    row = sentence_row = 0
    for doc, digest, chunks in chunked:
        n, m = len(chunks), sum(len(c.sentences) for c in chunks)
        out.append(PreparedDocument(
            doc, digest, chunks,
            {name: np.ascontiguousarray(x[row:row + n]) for name, x in matrices.items()},
            stamp,
            {name: np.ascontiguousarray(x[sentence_row:sentence_row + m])
             for name, x in sentence_matrices.items()},
            {name: tuple(x[row:row + n]) for name, x in tokens.items()}))
        row, sentence_row = row + n, sentence_row + m
    return out


def _embed_all(path: str, batch: Sequence[tuple[Document, str]], embedders: Sequence[Embedder],
               texts: Sequence[str], known: Mapping[str, Mapping[str, np.ndarray]]
               ) -> dict[str, np.ndarray]:
    """Per embedder, ``texts`` embedded (none when there are no texts)."""
    matrices: dict[str, np.ndarray] = {}
    for embedder in embedders if texts else ():
        try:
            matrices[embedder.name] = embed(embedder, texts, known.get(embedder.name, {}))
        except (ChronoragError, *_INTERRUPTS):
            raise
        except BaseException as exc:
            raise IngestError(path, _where(batch), f"embedding with {embedder.name}",
                              exc) from exc
    return matrices


def with_event_time(doc: Document, chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
    """Give sentences the times their document's metadata states.

    A life-log entry such as "12:30 吃了午饭" says when only in ``occurred_at``, and a
    policy says when it applies only in ``valid_from``/``valid_to``. The temporal scorer
    reads sentence mentions, so these metadata times are attached where it looks: the
    validity period to every sentence (it decides what may answer), the event time only
    to sentences that state no time of their own. A record is about the times its text
    states: "Lost my job yesterday", said on 20 January, is about 19 January, and its
    ``occurred_at`` must not make it look like an event of the 20th.
    """
    extra = metadata_times(doc)
    if not extra:
        return chunks
    validity = [(name, iv) for name, iv in extra if name != "occurred_at"]
    out = []
    for chunk in chunks:
        sentences = tuple(
            replace(s, mentions=(*s.mentions, *(
                Mention(name, s.start, s.start, iv)
                for name, iv in (validity if s.mentions else extra))))
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
