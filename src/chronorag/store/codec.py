"""Encoding of model values to and from SQL column values; shared by SQL backends.

Times are stored as fixed-width ISO 8601 text in UTC with microseconds
(``2021-01-01T00:00:00.000000+00:00``), so text order is time order and SQL filters can
compare bound parameters made with :func:`encode_time`. An interval field is three
columns ``<f>_start``, ``<f>_end`` (NULL = open side) and ``<f>_gran``; ``<f>_gran`` is NULL
exactly when the field itself is absent, and ``''`` for an interval without granularity.
"""

from __future__ import annotations

import enum
import json
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from chronorag.contract import field_names, options
from chronorag.errors import StoreError
from chronorag.model import (
    INTERVAL_FIELDS,
    Chunk,
    Document,
    Granularity,
    Interval,
    Mention,
    Relation,
    Sentence,
)
from chronorag.store.base import PreparedDocument

NO_GRANULARITY = ""


def _columns(name: str) -> tuple[str, ...]:
    if name in INTERVAL_FIELDS:
        return (f"{name}_start", f"{name}_end", f"{name}_gran")
    return (name,)


DOC_COLUMNS: tuple[str, ...] = (
    *(column for name in field_names(Document) for column in _columns(name)),
    "content_hash")
"""The documents table's columns: the document's fields in order, each time field as three
(``<f>_start``, ``<f>_end``, ``<f>_gran``), then the content hash."""

IntervalKey = tuple[str | None, str | None, str | None]


def encode_time(value: datetime | None) -> str | None:
    """A tz-aware datetime as fixed-width UTC ISO text; ``None`` stays ``None``."""
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError(f"naive datetime {value!r}: the store only accepts tz-aware times")
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def decode_time(text: str | None) -> datetime | None:
    """Inverse of :func:`encode_time`; returns a UTC datetime."""
    return None if text is None else datetime.fromisoformat(text).astimezone(UTC)


def encode_interval(value: Interval | None) -> IntervalKey:
    """``(start, end, gran)`` column values of an optional interval."""
    if value is None:
        return (None, None, None)
    gran = NO_GRANULARITY if value.granularity is None else value.granularity.value
    return (encode_time(value.start), encode_time(value.end), gran)


class IntervalDecoder:
    """Decodes interval columns, reusing equal intervals (most mentions repeat)."""

    def __init__(self) -> None:
        self._cache: dict[IntervalKey, Interval | None] = {}

    def __call__(self, start: str | None, end: str | None, gran: str | None) -> Interval | None:
        key = (start, end, gran)
        try:
            return self._cache[key]
        except KeyError:
            pass
        value = None if gran is None else Interval(
            decode_time(start), decode_time(end),
            None if gran == NO_GRANULARITY else Granularity(gran),
        )
        self._cache[key] = value
        return value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _column_codec(hint: Any) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """How a document field of type ``hint`` (not a time field) is written to its column
    and read back: times as :func:`encode_time` text, enum members as their value, lists
    and mappings as JSON text, strings as they are."""
    kind = next(a for a in options(hint) if a is not type(None))
    origin = typing.get_origin(kind) or kind
    if kind is datetime:
        return encode_time, decode_time
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return ((lambda v: None if v is None else v.value),
                (lambda v: None if v is None else kind(v)))
    if isinstance(origin, type) and issubclass(origin, Mapping):
        return (lambda v: _dumps(dict(v))), json.loads
    if isinstance(origin, type) and issubclass(origin, Sequence) and origin is not str:
        return (lambda v: _dumps(list(v))), (lambda v: tuple(json.loads(v)))
    return (lambda v: v), (lambda v: v)


_HINTS = typing.get_type_hints(Document)
# Each field with its column codec; None for a time field (three columns).
_FIELDS = tuple((name, None if name in INTERVAL_FIELDS else _column_codec(_HINTS[name]))
                for name in field_names(Document))


def document_row(doc: Document, content_hash: str) -> tuple[Any, ...]:
    """Column values of ``doc`` in :data:`DOC_COLUMNS` order.

    Raises ``TypeError``/``ValueError`` when metadata is not JSON or a time is naive.
    """
    row: list[Any] = []
    for name, codec in _FIELDS:
        if codec is None:
            row.extend(encode_interval(getattr(doc, name)))
        else:
            row.append(codec[0](getattr(doc, name)))
    row.append(content_hash)
    return tuple(row)


def document_from_row(row: Sequence[Any], intervals: IntervalDecoder) -> Document:
    """Inverse of :func:`document_row` (the content hash column is ignored)."""
    values = iter(row)
    fields: dict[str, Any] = {}
    for name, codec in _FIELDS:
        if codec is None:
            fields[name] = intervals(next(values), next(values), next(values))
        else:
            fields[name] = codec[1](next(values))
    return Document(**fields)


def encode_mentions(mentions: Iterable[Mention]) -> str | None:
    """Mentions as a JSON list of ``{text,start,end,istart,iend,gran,inherited[,rel][,anchor]}``."""
    items = []
    for m in mentions:
        istart, iend, gran = encode_interval(m.interval)
        item = {
            "text": m.text, "start": m.start, "end": m.end, "istart": istart, "iend": iend,
            "gran": gran or None, "inherited": m.inherited,
        }
        if m.relation is not Relation.IN:
            item["rel"] = m.relation.value  # absent means IN: stores written before read alike
        if m.anchor is not None:
            item["anchor"] = encode_time(m.anchor)  # absent: an absolute phrase
        items.append(item)
    return _dumps(items) if items else None


def decode_mentions(text: str | None, intervals: IntervalDecoder) -> tuple[Mention, ...]:
    """Inverse of :func:`encode_mentions`."""
    if text is None:
        return ()
    out = []
    for item in json.loads(text):
        interval = intervals(item["istart"], item["iend"], item["gran"] or NO_GRANULARITY)
        assert interval is not None
        out.append(Mention(item["text"], item["start"], item["end"], interval,
                           item["inherited"], Relation(item.get("rel", "in")),
                           decode_time(item.get("anchor"))))
    return tuple(out)


CHUNK_COLUMNS = 'id, doc_id, idx, start, "end", text'
"""The chunk columns :func:`chunk_rows` writes and :func:`build_chunks` reads, in order."""
SENTENCE_COLUMNS = 'chunk_id, idx, doc_id, start, "end", text, mentions'
"""The sentence columns :func:`chunk_rows` writes and :func:`build_chunks` reads."""


def chunk_rows(
    chunks: Iterable[Chunk],
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """``(chunk rows, sentence rows)`` for insertion."""
    chunk_out: list[tuple[Any, ...]] = []
    sent_out: list[tuple[Any, ...]] = []
    for c in chunks:
        chunk_out.append((c.id, c.doc_id, c.index, c.start, c.end, c.text))
        sent_out.extend(
            (c.id, s.index, s.doc_id, s.start, s.end, s.text, encode_mentions(s.mentions))
            for s in c.sentences
        )
    return chunk_out, sent_out


def build_chunks(
    chunk_rows: Iterable[Sequence[Any]], sentence_rows: Iterable[Sequence[Any]]
) -> list[Chunk]:
    """Chunks from rows ``(id, doc_id, idx, start, end, text)`` and sentence rows
    ``(chunk_id, idx, doc_id, start, end, text, mentions)`` ordered by chunk, idx."""
    intervals = IntervalDecoder()
    by_chunk: dict[str, list[Sentence]] = {}
    for chunk_id, idx, doc_id, start, end, text, mentions in sentence_rows:
        by_chunk.setdefault(chunk_id, []).append(
            Sentence(doc_id, idx, start, end, text, decode_mentions(mentions, intervals))
        )
    return [
        Chunk(cid, doc_id, idx, start, end, text, tuple(by_chunk.get(cid, ())))
        for cid, doc_id, idx, start, end, text in chunk_rows
    ]


def validate_batch(batch: Sequence[PreparedDocument]) -> None:
    """Reject a malformed batch before touching the database."""
    seen: set[str] = set()
    for prepared in batch:
        doc = prepared.document
        if doc.id in seen:
            raise StoreError(f"document {doc.id!r} appears twice in one batch; "
                             "deduplicate the batch and retry")
        seen.add(doc.id)
        if not prepared.content_hash:
            raise StoreError(f"document {doc.id!r} has an empty content_hash; "
                             "set it from Document.content_hash()")
        for chunk in prepared.chunks:
            bad = chunk.doc_id != doc.id or any(s.doc_id != doc.id for s in chunk.sentences)
            if bad:
                raise StoreError(f"chunk {chunk.id!r} or one of its sentences does not "
                                 f"belong to document {doc.id!r}; fix the chunker output")
        for name, matrix in prepared.vectors.items():
            _check_matrix(doc.id, name, matrix, len(prepared.chunks))
        sentences = sum(len(c.sentences) for c in prepared.chunks)
        for name, matrix in prepared.sentence_vectors.items():
            _check_matrix(doc.id, f"{name} (sentences)", matrix, sentences)
        for name, matrices in prepared.token_vectors.items():
            if len(matrices) != len(prepared.chunks):
                raise StoreError(f"document {doc.id!r}: {len(matrices)} token matrices of "
                                 f"{name!r} for {len(prepared.chunks)} chunks; one per chunk")
            for chunk, tokens in zip(prepared.chunks, matrices, strict=True):
                _check_matrix(doc.id, f"{name} (tokens of {chunk.id})", tokens,
                              np.asarray(tokens).shape[0])


def sentence_vector_rows(prepared: PreparedDocument) -> list[tuple[str, str, int, int, bytes]]:
    """``(chunk_id, embedder, rows, dim, blob)`` of each chunk's sentence matrix."""
    out = []
    for name, matrix in prepared.sentence_vectors.items():
        arr = np.ascontiguousarray(matrix, dtype="<f4")
        row = 0
        for chunk in prepared.chunks:
            part = arr[row:row + len(chunk.sentences)]
            out.append((chunk.id, name, part.shape[0], arr.shape[1], part.tobytes()))
            row += len(chunk.sentences)
    return out


def token_vector_rows(prepared: PreparedDocument) -> list[tuple[str, str, int, int, bytes]]:
    """``(chunk_id, model, rows, dim, blob)`` of each chunk's token matrix; a matrix of no
    rows (a chunk late interaction does not read) is not kept."""
    return [(chunk.id, name, *np.shape(tokens), encode_tokens(tokens))
            for name, matrices in prepared.token_vectors.items()
            for chunk, tokens in zip(prepared.chunks, matrices, strict=True)
            if np.shape(tokens)[0]]


def encode_tokens(matrix: np.ndarray) -> bytes:
    """A token matrix as int8 values, row by row, then one float32 scale per row.

    Token vectors are many (a chunk has hundreds) and each only votes in a maximum, so a
    quarter of float32's bytes is the store's cost; rows are unit vectors, whose int8
    rounding error (under 1/254 of the largest component) moves MaxSim by far less than
    the gap between passages.
    """
    arr = np.asarray(matrix, dtype=np.float32)
    scale = np.abs(arr).max(axis=1, initial=0.0) / 127.0
    safe = np.where(scale > 0, scale, 1.0)
    values = np.clip(np.rint(arr / safe[:, None]), -127, 127).astype(np.int8)
    return values.tobytes() + scale.astype("<f4").tobytes()


def decode_tokens(rows: int, dim: int, blob: bytes) -> np.ndarray:
    """The float32 ``(rows, dim)`` matrix ``encode_tokens`` wrote."""
    values = np.frombuffer(blob, dtype=np.int8, count=rows * dim).reshape(rows, dim)
    scale = np.frombuffer(blob, dtype="<f4", count=rows, offset=rows * dim)
    return values.astype(np.float32) * scale[:, None]


def decode_matrix(rows: int, dim: int, blob: bytes) -> np.ndarray:
    """A ``(rows, dim)`` float32 matrix from its little-endian bytes."""
    return np.frombuffer(blob, dtype="<f4").reshape(rows, dim).astype(np.float32)


def _check_matrix(doc_id: str, name: str, matrix: Any, rows: int) -> None:
    arr = np.asarray(matrix)
    if arr.ndim != 2 or arr.shape[0] != rows or arr.shape[1] == 0:
        raise StoreError(f"document {doc_id!r}: vectors for embedder {name!r} have shape "
                         f"{arr.shape}, expected ({rows}, dim): one row per chunk (or "
                         "sentence), in order")
    if not np.issubdtype(arr.dtype, np.number) or not np.isfinite(arr).all():
        raise StoreError(f"document {doc_id!r}: vectors for embedder {name!r} must be finite "
                         "numbers; check the embedder output")


def sort_batch(batch: Sequence[PreparedDocument], stored: dict[str, tuple[str, str]], *,
               force: bool) -> tuple[list[str], list[str], list[str], list[PreparedDocument]]:
    """``(added, replaced, unchanged, to_write)`` ids of a batch against the stored
    ``(content_hash, derivation)`` of its ids: unchanged ones are skipped unless ``force``."""
    added: list[str] = []
    replaced: list[str] = []
    unchanged: list[str] = []
    todo: list[PreparedDocument] = []
    for prepared in batch:
        doc_id = prepared.document.id
        if doc_id not in stored:
            added.append(doc_id)
        elif stored[doc_id] == (prepared.content_hash, prepared.derivation) and not force:
            unchanged.append(doc_id)
            continue
        else:
            replaced.append(doc_id)
        todo.append(prepared)
    return added, replaced, unchanged, todo


def check_dims(embedder: str, dims: set[int], stored: int | None) -> None:
    """Refuse vectors of sizes ``dims`` when they differ from each other or from the size
    already stored for ``embedder``."""
    if stored is not None:
        dims = dims | {stored}
    if len(dims) > 1:
        raise StoreError(f"embedder {embedder!r} would mix vector sizes {sorted(dims)}; "
                         "store each model under its own embedder name")
