"""The Store protocol, in parts by concern, and the values its methods take and return.

A backend implements every part (``Store``); a consumer annotates only the part(s) it
uses, so a fake, or a backend that carries less, owes only those methods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np

from chronorag.model import Chunk, Document, Interval
from chronorag.people.model import Directory

LINK_KINDS: tuple[str, ...] = ("supersedes", "derived_from")
"""Kinds of document-to-document edges a store records (from the Document fields)."""


@dataclass(frozen=True)
class PreparedDocument:
    """A validated document with everything ingest computed for it, ready to store.

    ``vectors`` maps an embedder name to a float32 matrix with one row per chunk, in
    chunk order; ``sentence_vectors`` one with a row per sentence, chunk by chunk in
    sentence order; ``token_vectors`` maps a token encoder's name to one matrix per
    chunk, in chunk order, with a row per token (``rank.late``). ``derivation`` names
    what the chunks and vectors were made with (see ``derivation``); a stored document
    is unchanged only when hash and derivation match.
    """

    document: Document
    content_hash: str
    chunks: tuple[Chunk, ...]
    vectors: Mapping[str, np.ndarray] = field(default_factory=dict)
    derivation: str = ""
    sentence_vectors: Mapping[str, np.ndarray] = field(default_factory=dict)
    token_vectors: Mapping[str, tuple[np.ndarray, ...]] = field(default_factory=dict)


def derivation(chunker: str, embedders: Sequence[str], *, text: str = "",
               sentences: Sequence[str] = (), tokens: Sequence[str] = ()) -> str:
    """The stamp of what derives from a document's text: chunker version, the embedders of
    its chunks, the version of the text each chunk is embedded as (``text``, when given),
    the embedders of its sentences (``sentences``, when any) and the token encoders of
    its chunks (``tokens``, when any)."""
    stamp = f"chunker={chunker};embedders={','.join(sorted(embedders))}"
    if text:
        stamp += f";text={text}"
    if sentences:
        stamp += f";sentences={','.join(sorted(sentences))}"
    if tokens:
        stamp += f";tokens={','.join(sorted(tokens))}"
    return stamp


def reusable_embedders(stored: str, current: str, *, part: str = "embedders") -> frozenset[str]:
    """The embedders whose vectors of a document stamped ``stored`` may serve one stamped
    ``current``: ``part`` "embedders" for chunk vectors, "sentences" for sentence vectors,
    "tokens" for chunks' token matrices.

    Those named in both stamps, when the texts were written the same way (a known
    embedded-text version): only the chunker or the other embedders differ, so a text
    that is unchanged has the vector it would get again. A stamp without a text version
    never qualifies.
    """
    def parts(stamp: str) -> dict[str, str]:
        return dict(p.split("=", 1) for p in stamp.split(";") if "=" in p)

    old, new = parts(stored), parts(current)
    if not old.get("text") or old.get("text") != new.get("text"):
        return frozenset()
    names = [set(filter(None, stamp.get(part, "").split(","))) for stamp in (old, new)]
    return frozenset(names[0] & names[1])


@dataclass(frozen=True)
class ChunkRow:
    """What a search index keeps of one stored chunk: its ``seq`` (a number that never
    changes and is never reused), the chunk, and the fields of its document that decide
    who and which questions may retrieve it (``subject``, ``occurred_at``)."""

    seq: int
    id: str
    doc_id: str
    index: int
    text: str
    subject: str | None
    occurred_at: Interval | None


@dataclass(frozen=True)
class WriteReport:
    """Which document ids a write added, replaced and left unchanged (batch order)."""

    added: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()


@dataclass(frozen=True)
class LayerRecord:
    """One stored asset of a semantic layer, as the store keeps it.

    ``body`` is the asset's JSON (its meaning belongs to ``chronorag.semantic``; a store
    only keeps it). ``join`` is ``(left_table, right_table, on, fanout)`` for a join
    asset: the store indexes joins so it can walk them (``walk_joins``).
    """

    kind: str
    id: str
    status: str | None
    body: str
    source: str
    content_hash: str
    join: tuple[str, str, str, str] | None = None

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True)
class ApiKey:
    """An API key of the service, as stored: never the key itself, only its hash (kept
    by the store beside it). ``user`` is who the key asks as; ``admin`` keys may write."""

    id: str
    user: str
    admin: bool
    created_at: datetime
    revoked_at: datetime | None = None


@runtime_checkable
class DocumentStore(Protocol):
    """Documents with their chunks, sentences and links, and store-wide settings.

    ``write`` is atomic: either every document of the batch is stored (new ones added,
    changed ones replacing their old version) or nothing changes.
    """

    def generation(self) -> int:
        """A number that changes whenever stored content changes (cache key)."""
        ...

    def atomic(self) -> AbstractContextManager[None]:
        """A block whose writes (of every part) commit together or not at all."""
        ...

    def setting(self, key: str) -> str | None:
        """A store-wide setting (e.g. ``"embedder"``), None when unset."""
        ...

    def set_setting(self, key: str, value: str) -> None:
        """Record a store-wide setting."""
        ...

    def write(self, batch: Sequence[PreparedDocument], *, force: bool = False) -> WriteReport:
        """Store a batch in one transaction.

        Same content hash: unchanged (no-op) unless ``force``; other hash: replaced;
        new id: added. On any error nothing changes and StoreError is raised.
        """
        ...

    def delete(self, ids: Sequence[str]) -> tuple[str, ...]:
        """Delete documents (with chunks, sentences, vectors, outgoing links); the ids
        that existed, sorted."""
        ...

    def fingerprints(self, ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """``(content_hash, derivation)`` of each id that exists."""
        ...

    def documents(self, ids: Sequence[str] | None = None, *,
                  text: bool = True) -> list[Document]:
        """Documents by id (all when ``ids`` is None), in id order; ``text=False`` leaves
        each ``text`` empty (metadata only, for ranking)."""
        ...

    def document_ids(self) -> list[str]:
        """Every stored document id, sorted (without loading the documents)."""
        ...

    def ids_by_source(self, sources: Sequence[str]) -> dict[str, str]:
        """For each of ``sources`` some stored document records as its ``source``, the
        id of that document (the smallest id when several do)."""
        ...

    def chunk_counts(self, ids: Sequence[str] | None = None) -> dict[str, int]:
        """How many chunks each of these documents has (all when ``ids`` is None);
        a stored document without chunks has 0, an id that is not stored is absent."""
        ...

    def chunks(self, ids: Sequence[str] | None = None) -> list[Chunk]:
        """Chunks with their sentences and mentions (all when ``ids`` is None)."""
        ...

    def chunk_ids_of(self, doc_ids: Sequence[str]) -> frozenset[str]:
        """Ids of every chunk of the given documents."""
        ...

    def links(self, kind: str | None = None) -> list[tuple[str, str, str]]:
        """``(src, dst, kind)`` edges from supersedes/derived_from, sorted."""
        ...

    def count(self) -> dict[str, int]:
        """Row counts: documents, chunks, sentences, vectors, links."""
        ...


@runtime_checkable
class VectorStore(Protocol):
    """The chunks' vectors, and the chunk rows a search index reads (by ``seq``)."""

    def vector_counts(self) -> dict[str, int]:
        """How many chunk vectors each embedder has."""
        ...

    def vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        """Chunk ids and their vectors (rows aligned) for one embedder."""
        ...

    def chunk_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]:
        """The stored vector of each of these chunks that has one for ``embedder``."""
        ...

    def sentence_vectors(self, ids: Sequence[str], embedder: str) -> dict[str, np.ndarray]:
        """Each of these chunks' ``(sentences, dim)`` matrix for ``embedder``, when stored."""
        ...

    def token_vectors(self, ids: Sequence[str], model: str) -> dict[str, np.ndarray]:
        """Each of these chunks' ``(tokens, dim)`` matrix of token encoder ``model``, when
        stored (kept as int8 with a scale per token: ``codec.encode_tokens``)."""
        ...

    def chunk_seqs(self) -> np.ndarray:
        """The ``seq`` of every stored chunk, ascending (int64)."""
        ...

    def chunk_summary(self) -> tuple[int, int, int]:
        """``(count, sum, maximum)`` of the chunks' ``seq`` numbers (a quick check that a
        saved index matches the store)."""
        ...

    def chunk_rows(self, seqs: Sequence[int]) -> list[ChunkRow]:
        """The chunks of these ``seq`` numbers that exist, in ``seq`` order."""
        ...


@runtime_checkable
class PeopleStore(Protocol):
    """People, access grants, and the privacy rule computed in the store's query."""

    def people(self) -> Directory:
        """The stored people and access grants (empty when none were loaded)."""
        ...

    def replace_people(self, directory: Directory) -> None:
        """Replace the stored people and access grants in one transaction."""
        ...

    def visible_doc_ids(self, user: str | None, *, admin: bool = False,
                        subjects: Sequence[str] | None = None,
                        among: Sequence[str] | None = None) -> frozenset[str] | None:
        """Ids of the documents ``user`` may see, computed in the store query.

        A document without ``subject`` is public; one with a subject is visible to that
        subject, to readers the subject granted access, and to ``admin``. ``subjects``
        keeps only documents about those people, ``among`` only these ids (then the
        answer is never ``None``). ``None`` means every document.
        """
        ...


@runtime_checkable
class KeyStore(Protocol):
    """API keys of the service, kept by the hash of their secret (``chronorag.serve``)."""

    def add_api_key(self, key: ApiKey, *, digest: str) -> None:
        """Store a new key by the hash of its secret (``digest``; ids and digests unique)."""
        ...

    def api_key(self, digest: str) -> ApiKey | None:
        """The key whose secret hashes to ``digest`` (revoked ones included), or None."""
        ...

    def api_keys(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        ...

    def revoke_api_key(self, key_id: str, *, at: datetime) -> bool:
        """Revoke a key from ``at`` on; False when no unrevoked key has that id."""
        ...

    def api_key_digests(self) -> dict[str, str]:
        """Key id -> the stored hash of its secret, revoked keys included (what a copy of
        the store needs so the same keys authenticate on it)."""
        ...


@runtime_checkable
class LayerStore(Protocol):
    """A semantic layer's assets for analytics questions, kept beside the documents
    (``chronorag.semantic`` gives them meaning; the store only keeps and walks them)."""

    def layer_generation(self) -> int:
        """A counter bumped by every layer write that changes an asset; 0: no layer."""
        ...

    def layer_records(self) -> list[LayerRecord]:
        """Every stored layer asset, ordered by kind and id."""
        ...

    def layer_vectors(self, embedder: str) -> tuple[list[str], np.ndarray]:
        """Asset keys (``kind:id``) and their vectors (rows aligned) for one embedder."""
        ...

    def write_layer(self, records: Sequence[LayerRecord], *,
                    vectors: Mapping[str, tuple[Sequence[str], np.ndarray]],
                    now: datetime) -> None:
        """Upsert ``records`` and asset vectors (embedder -> (keys, matrix)) in one
        transaction, bumping ``layer_generation`` when ``records`` is not empty."""
        ...

    def walk_joins(self, seeds: Sequence[str], *, allowed: Sequence[str],
                   depth: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Every cycle-free path of at most ``depth`` joins from a seed table, walking only
        the joins in ``allowed`` (either direction): ``(tables, join ids)``, unsorted."""
        ...


@runtime_checkable
class CorpusStore(DocumentStore, VectorStore, Protocol):
    """Documents with their vectors: what ingest, review and the search indexes use."""


@runtime_checkable
class Store(CorpusStore, PeopleStore, KeyStore, LayerStore, Protocol):
    """A whole store, as a backend implements it: documents, vectors, people, API keys
    and a semantic layer. Searching inside the store is an extra capability a backend
    may add (``chronorag.store.search.InStoreSearch``)."""

    def close(self) -> None:
        """Close the store; further calls raise StoreError."""
        ...

