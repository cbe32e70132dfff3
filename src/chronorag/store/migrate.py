"""Copying one whole store into another (``chronorag migrate``), verified.

Works on the :class:`~chronorag.store.base.Store` protocol only, so it copies between any
two backends (SQLite to PostgreSQL is the main case). Documents travel as the
``PreparedDocument`` batches ingest writes, with their content hash and derivation
stamp: a later ingest of unchanged files, or a second migration after an interrupted
one, finds them unchanged. Not to be confused with ``store.migrations`` (the schema).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from chronorag.errors import ChronoragError
from chronorag.model import Chunk, Document
from chronorag.store.base import CorpusStore, DocumentStore, PreparedDocument, Store

BATCH = 64
"""Documents read and written per transaction: bounds memory on either side."""

SETTINGS: tuple[str, ...] = ("embedder", "judges")
"""Every setting key chronorag writes (``set_setting`` callers); the protocol cannot list
them, so a new key must be added here."""

_SHOWN = 10  # ids named in a refusal; the rest are counted


class MigrationRefused(ChronoragError):
    """The target holds data the source does not have: copying would mix two stores."""

    exit_code = 2


@dataclass(frozen=True)
class MigrationReport:
    """Row counts per table of both stores after the copy, and what else differs."""

    source: Mapping[str, int]
    target: Mapping[str, int]
    copied: int
    unchanged: int
    mismatches: tuple[str, ...] = ()

    @property
    def verified(self) -> bool:
        return dict(self.source) == dict(self.target) and not self.mismatches

    def differences(self) -> list[str]:
        """One line per count or check that differs (empty when verified)."""
        tables = sorted(set(self.source) | set(self.target))
        return [f"{t}: source {self.source.get(t, 0)}, target {self.target.get(t, 0)}"
                for t in tables if self.source.get(t, 0) != self.target.get(t, 0)
                ] + list(self.mismatches)

    def to_json(self) -> dict[str, Any]:
        return {"source": dict(self.source), "target": dict(self.target),
                "copied": self.copied, "unchanged": self.unchanged,
                "mismatches": list(self.mismatches), "verified": self.verified}


def migrate(source: Store, target: Store, *, now: datetime,
            batch: int = BATCH) -> MigrationReport:
    """Copy everything of ``source`` into ``target`` and verify both hold the same.

    Refuses (``MigrationRefused``, nothing written) a target holding anything the source
    does not have. Each document batch commits on its own, so an interrupted run keeps
    what it wrote and a second run completes it. ``now`` stamps the layer assets.
    """
    ids = source.document_ids()
    names = embedder_names(source, ids, batch=batch)
    refuse_conflicts(source, target, ids, batch=batch)
    copied = unchanged = 0
    for part in _batches(ids, batch):
        report = target.write(prepared_documents(source, part, embedders=names))
        copied += len(report.added) + len(report.replaced)
        unchanged += len(report.unchanged)
    _copy_the_rest(source, target, embedders=names, now=now)
    return MigrationReport(tally(source, ids, embedders=names, batch=batch),
                           tally(target, target.document_ids(), embedders=names, batch=batch),
                           copied, unchanged, mismatches(source, target, ids, batch=batch))


def _batches(ids: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def embedder_names(source: CorpusStore, ids: Sequence[str], *, batch: int) -> tuple[str, ...]:
    """Every embedder the source may hold vectors of: chunk vectors counted, the store's
    embedder setting (layer vectors) and those the documents' stamps name (sentences,
    token encoders)."""
    names = set(source.vector_counts())
    names.update(filter(None, [source.setting("embedder")]))
    for part in _batches(ids, batch):
        for _, stamp in source.fingerprints(part).values():
            fields = dict(p.split("=", 1) for p in stamp.split(";") if "=" in p)
            for key in ("embedders", "sentences", "tokens"):
                names.update(filter(None, fields.get(key, "").split(",")))
    return tuple(sorted(names))


def prepared_documents(source: CorpusStore, ids: Sequence[str], *,
                       embedders: Sequence[str]) -> list[PreparedDocument]:
    """The stored documents ``ids`` as ingest prepared them: chunks, vectors, stamps."""
    docs = source.documents(ids)
    by_doc: dict[str, list[Chunk]] = {doc.id: [] for doc in docs}
    for chunk in source.chunks(sorted(source.chunk_ids_of(ids))):  # chunk ids, not doc ids
        by_doc[chunk.doc_id].append(chunk)
    chunk_ids = [c.id for chunks in by_doc.values() for c in chunks]
    vectors = {e: source.chunk_vectors(chunk_ids, e) for e in embedders}
    sentences = {e: source.sentence_vectors(chunk_ids, e) for e in embedders}
    tokens = {e: source.token_vectors(chunk_ids, e) for e in embedders}
    prints = source.fingerprints(ids)
    return [_prepared(doc, sorted(by_doc[doc.id], key=lambda c: c.index), prints[doc.id],
                      vectors=vectors, sentences=sentences, tokens=tokens) for doc in docs]


def _prepared(doc: Document, chunks: list[Chunk], fingerprint: tuple[str, str], *,
              vectors: Mapping[str, Mapping[str, np.ndarray]],
              sentences: Mapping[str, Mapping[str, np.ndarray]],
              tokens: Mapping[str, Mapping[str, np.ndarray]]) -> PreparedDocument:
    content_hash, stamp = fingerprint
    return PreparedDocument(doc, content_hash, tuple(chunks),
                            _matrices(doc.id, chunks, vectors, stack=_float32(np.stack)),
                            stamp,
                            _matrices(doc.id, chunks, sentences,
                                      stack=_float32(np.concatenate)),
                            _matrices(doc.id, chunks, tokens, stack=tuple))


def _float32(join: Callable[[list[np.ndarray]], np.ndarray]
             ) -> Callable[[list[np.ndarray]], np.ndarray]:
    """``join`` of the chunks' rows, as float32."""
    return lambda rows: join(rows).astype(np.float32)


def _matrices(doc_id: str, chunks: list[Chunk], found: Mapping[str, Mapping[str, np.ndarray]],
              *, stack: Any) -> dict[str, Any]:
    """Per embedder, the document's rows in chunk order, joined by ``stack``. A document
    has vectors of an embedder for all its chunks or none (ingest embeds it whole);
    anything else cannot be written as one ``PreparedDocument``, so it is an error rather
    than a silent loss."""
    out = {}
    for name, by_chunk in found.items():
        have = [c.id in by_chunk for c in chunks]
        if chunks and all(have):
            out[name] = stack([by_chunk[c.id] for c in chunks])
        elif any(have):
            raise MigrationRefused(
                f"document {doc_id!r} has {name!r} vectors for only some of its chunks; "
                f"run 'chronorag reindex --force' on the source, then migrate again")
    return out


def _copy_the_rest(source: Store, target: Store, *, embedders: Sequence[str],
                   now: datetime) -> None:
    """Settings, people, the semantic layer and API keys, in one transaction."""
    # Only assets the target lacks (those it has are equal: see refuse_conflicts), so a
    # second run does not bump the layer generation and rebuild the target's layer index.
    # Vectors are keyed by more than assets (columns too): all of them go, as upserts.
    held = {r.key for r in target.layer_records()}
    records = [r for r in source.layer_records() if r.key not in held]
    layer = {e: source.layer_vectors(e) for e in embedders} if records else {}
    digests, stored = source.api_key_digests(), target.api_key_digests()
    live = {k.id for k in target.api_keys() if k.revoked_at is None}
    with target.atomic():
        for key in SETTINGS:
            value = source.setting(key)
            if value is not None:
                target.set_setting(key, value)
        target.replace_people(source.people())
        if records:
            target.write_layer(records, vectors={e: kv for e, kv in layer.items() if kv[0]},
                               now=now)
        for record in source.api_keys():
            if record.id not in stored:
                target.add_api_key(record, digest=digests[record.id])
            elif record.revoked_at is not None and record.id in live:
                # revoked on the source since an interrupted run copied it
                target.revoke_api_key(record.id, at=record.revoked_at)


def refuse_conflicts(source: Store, target: Store, ids: Sequence[str], *, batch: int) -> None:
    """Raise ``MigrationRefused`` naming what the target holds that the source has not:
    other documents, other versions of them, other keys, layer assets or people. An
    empty target, or one a previous run of this migration filled partly, passes."""
    problems = []
    other, changed = _document_conflicts(source, target, ids, batch=batch)
    if other:
        problems.append(f"documents not in the source: {_named(other)}")
    if changed:
        problems.append(f"documents that differ from the source: {_named(changed)}")
    theirs, ours = target.api_key_digests(), source.api_key_digests()
    keys = sorted(k for k, d in theirs.items() if ours.get(k) != d)
    if keys:
        problems.append(f"API keys not in the source: {_named(keys)}")
    hashes = {r.key: r.content_hash for r in source.layer_records()}
    assets = sorted(r.key for r in target.layer_records() if hashes.get(r.key) != r.content_hash)
    if assets:
        problems.append(f"semantic-layer assets not in the source: {_named(assets)}")
    people = target.people()
    if people.people and people != source.people():
        problems.append("people or access grants that differ from the source")
    if problems:
        raise MigrationRefused(
            "the target already holds " + "; ".join(problems) + ". Migrate into an empty "
            "store (a new database or file), or delete those from the target first")


def _document_conflicts(source: DocumentStore, target: DocumentStore, ids: Sequence[str], *,
                        batch: int) -> tuple[list[str], list[str]]:
    """Target ids the source lacks, and ids whose hash or derivation differ."""
    known = set(ids)
    held = target.document_ids()
    other = [i for i in held if i not in known]
    changed: list[str] = []
    for part in _batches([i for i in held if i in known], batch):
        theirs, ours = target.fingerprints(part), source.fingerprints(part)
        changed.extend(i for i in part if theirs.get(i) != ours.get(i))
    return other, changed


def _named(ids: Sequence[str]) -> str:
    shown = ", ".join(repr(i) for i in ids[:_SHOWN])
    return shown + (f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else "")


def tally(store: Store, ids: Sequence[str], *, embedders: Sequence[str],
          batch: int) -> dict[str, int]:
    """Rows per table, vectors per embedder: what must be equal after a copy."""
    counts = dict(store.count())
    counts.update({f"vectors:{e}": n for e, n in sorted(store.vector_counts().items())})
    directory = store.people()
    counts["people"] = len(directory.people)
    counts["access_grants"] = sum(len(v) for v in directory.access.values())
    counts["layer_records"] = len(store.layer_records())
    for name in embedders:
        keys, _ = store.layer_vectors(name)
        if keys:
            counts[f"layer_vectors:{name}"] = len(keys)
    counts["api_keys"] = len(store.api_keys())
    for part in _batches(ids, batch):
        chunk_ids = sorted(store.chunk_ids_of(part))
        for name in embedders:
            for table, read in (("sentence_vectors", store.sentence_vectors),
                                ("token_vectors", store.token_vectors)):
                rows = sum(m.shape[0] for m in read(chunk_ids, name).values())
                if rows:
                    key = f"{table}:{name}"
                    counts[key] = counts.get(key, 0) + rows
    return counts


def mismatches(source: Store, target: Store, ids: Sequence[str], *,
               batch: int) -> tuple[str, ...]:
    """What equal counts would not show: document fingerprints, settings, key hashes."""
    found = []
    if target.document_ids() != list(ids):
        found.append("the target's document ids differ from the source's")
    changed: list[str] = []
    for part in _batches(ids, batch):
        ours, theirs = source.fingerprints(part), target.fingerprints(part)
        changed.extend(i for i in part if ours.get(i) != theirs.get(i))
    if changed:
        found.append(f"documents with another hash or derivation: {_named(changed)}")
    found.extend(f"setting {key!r} differs" for key in SETTINGS
                 if source.setting(key) != target.setting(key))
    if source.api_key_digests() != target.api_key_digests():
        found.append("API key hashes differ")
    if source.people() != target.people():
        found.append("people or access grants differ")
    return tuple(found)
