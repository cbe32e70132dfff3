"""``review --accept-dates``: the dates and links stored documents' texts state, written
into those documents (``chronorag.ingest.adopt``), as an update of the store.
``review --accept-versions``: the version chains the review finds
(``chronorag.ingest.versions``), written as ``supersedes`` links."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from typing import Any

from chronorag.errors import ConfigError
from chronorag.ingest.adopt import BY_REVIEW, BY_VERSIONS, Titles, adopt, states_own_links
from chronorag.ingest.stated import FROM_TEXT
from chronorag.ingest.versions import Chain, version_chains, version_pairs
from chronorag.model import Document
from chronorag.pipeline.ingest import Embedders, IngestReport, rewrite_documents
from chronorag.pipeline.stated import stored_titles
from chronorag.store.base import CorpusStore, DocumentStore

__all__ = ["BY_VERSIONS", "Accepted", "Linked", "accept_dates", "accept_versions"]


@dataclass(frozen=True)
class Accepted:
    """What ``accept_dates`` wrote: per document id, the fields filled and their values."""

    fields: dict[str, dict[str, Any]]
    report: IngestReport

    def to_json(self) -> dict[str, Any]:
        return {"accepted": self.fields, **self.report.to_json()}


@dataclass(frozen=True)
class Linked:
    """What ``accept_versions`` wrote: per document id, the predecessors it now
    supersedes; the chains left as they were, each with why; and per document given its
    last edit as its valid_from, that date as its text states it."""

    links: dict[str, list[str]]
    skipped: list[dict[str, Any]]
    report: IngestReport
    dated: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"linked": self.links, "skipped": self.skipped, "valid_from_last_edit":
                self.dated, **self.report.to_json()}


def _missing(store: DocumentStore, ids: Sequence[str] | None) -> None:
    if ids is not None:
        missing = sorted(set(ids) - set(store.fingerprints(list(ids))))
        if missing:
            raise ConfigError(f"no stored document has the id(s) {', '.join(missing)}; "
                              "see chronorag review for the proposals")


def accept_dates(store: CorpusStore, ids: Sequence[str] | None, *, embedders: Embedders,
                 now: datetime, tz: tzinfo) -> Accepted:
    """Fill the empty valid_from, modified_at and supersedes of the documents ``ids``
    (all when None) from their texts' proposals; documents without any stay unchanged.

    Raises ``ConfigError`` naming ids that are not stored.
    """
    _missing(store, ids)
    titles = Titles.of(stored_titles(store))
    changed, fields = [], {}
    for doc in store.documents(None if ids is None else sorted(set(ids))):
        adopted = adopt(doc, titles, by=BY_REVIEW, tz=tz)
        if adopted == doc:
            continue
        before = doc.metadata.get(FROM_TEXT) or {}
        after = adopted.metadata.get(FROM_TEXT) or {}
        fields[doc.id] = {name: entry["value"] for name, entry in after.items()
                          if before.get(name) != entry}
        changed.append(adopted)
    report = rewrite_documents(store, changed, embedders=embedders, now=now, tz=tz)
    return Accepted(fields, report)


def accept_versions(store: CorpusStore, ids: Sequence[str] | None, *, embedders: Embedders,
                    now: datetime, tz: tzinfo) -> Linked:
    """Link each version chain ``review`` proposes (those holding one of ``ids``; all
    when None): every version ``supersedes`` the one before it.

    Only a chain whose every version has a date of its own (valid_from, published_at or
    modified_at) and no two the same is linked, because its order is then the documents'
    own; a version that states its own ``supersedes`` is left as it is (a link is added,
    never one replaced). A link takes effect from its successor's valid_from (else
    published_at): a later version dated only by its last edit ("Last updated: December
    2025") is given that date as its valid_from, since the wording stored is the one of
    that edit and applied from it on (before it, another wording did); without it the
    link would displace the version before it at every time, its whole history included.
    Each link is recorded under ``metadata["_from_text"]`` with ``by`` = ``BY_VERSIONS``
    and the texts' overlap, and so is a valid_from taken from a last edit. Raises
    ``ConfigError`` naming ids that are not stored.
    """
    _missing(store, ids)
    documents = {d.id: d for d in store.documents()}
    changed: dict[str, Document] = {}
    links: dict[str, list[str]] = {}
    skipped: list[dict[str, Any]] = []
    dated: dict[str, str] = {}
    for chain in version_chains(documents, version_pairs(list(documents.values()))):
        if ids is not None and not set(ids) & set(chain.doc_ids):
            continue
        why = _unlinkable(chain, documents)
        if why:
            skipped.append({"doc_ids": list(chain.doc_ids), "why": why})
            continue
        for older, newer in zip(chain.doc_ids, chain.doc_ids[1:], strict=False):
            doc = changed.get(newer, documents[newer])
            if older in doc.supersedes:
                continue
            edited = _from_last_edit(doc)
            if edited is not doc:
                dated[newer] = edited.metadata[FROM_TEXT]["valid_from"]["value"]
            changed[newer] = _linked(edited, older, overlap=chain.overlap)
            links.setdefault(newer, []).append(older)
    report = rewrite_documents(store, list(changed.values()), embedders=embedders,
                               now=now, tz=tz)
    return Linked(links, skipped, report, dated)


def _field_date(doc: Document) -> datetime | None:
    for value in (doc.valid_from, doc.published_at, doc.modified_at):
        if value is not None and value.start is not None:
            return value.start
    return None


def _unlinkable(chain: Chain, documents: dict[str, Document]) -> str | None:
    """Why ``chain`` cannot be linked as it stands, else None."""
    dates = [_field_date(documents[i]) for i in chain.doc_ids]
    undated = [i for i, d in zip(chain.doc_ids, dates, strict=True) if d is None]
    if undated:
        return (f"{', '.join(undated)} has no date of its own to order the chain by "
                "(chronorag review --accept-dates, or its front matter)")
    known = [d for d in dates if d is not None]
    if len(set(known)) < len(known):
        return "two versions have the same date: the order is not known"
    if known != sorted(known):
        # The chain is ordered by the dates the texts state; the fields disagree with it.
        return "their own dates order the versions otherwise than their texts' dates"
    stated = [i for i in chain.doc_ids[1:] if states_own_links(documents[i])]
    if stated:
        return f"{', '.join(stated)} states its own supersedes: link the chain by hand"
    return None


def _from_last_edit(doc: Document) -> Document:
    """``doc`` with its last edit (``modified_at``) as its valid_from when it has neither
    valid_from nor published_at for a link to take effect from; else ``doc``."""
    edited = doc.modified_at
    if (doc.valid_from is not None or doc.published_at is not None or edited is None
            or edited.start is None):
        return doc
    record = dict(doc.metadata.get(FROM_TEXT) or {})
    edit = record.get("modified_at") or {}
    entry = {"value": edit.get("value") or edited.start.isoformat(), "by": BY_VERSIONS,
             "from": "modified_at"}
    if "sentence" in edit:
        entry["sentence"] = edit["sentence"]
    record["valid_from"] = entry
    return replace(doc, valid_from=doc.modified_at, metadata={**doc.metadata, FROM_TEXT: record})


def _linked(doc: Document, older: str, *, overlap: float) -> Document:
    record = dict(doc.metadata.get(FROM_TEXT) or {})
    entry = dict(record.get("supersedes") or {})
    entry["value"] = [*entry.get("value", []), older]
    entry.setdefault("by", BY_VERSIONS)
    entry["versions"] = {**entry.get("versions", {}), older: round(overlap, 3)}
    record["supersedes"] = entry
    return replace(doc, supersedes=(*doc.supersedes, older),
                   metadata={**doc.metadata, FROM_TEXT: record})

