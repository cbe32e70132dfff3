"""What a knowledge-base owner must look at: ``review(store, as_of=...) -> ReviewReport``.

Four lists, all judged at ``as_of`` with the validity rules of ``chronorag.rank.validity``:

* ``undated``: documents with no usable date (no valid_from, occurred_at or published_at);
  answers resting on them are ``uncertain``. Retired documents are left out.
* ``unanchored``: documents with no reference time (no published_at or occurred_at) whose
  text holds relative phrases ("yesterday", 上周五): without the moment the text was
  written they name no day, so ingest reads only its absolute dates.
* ``stale_copies``: copies (``derived_from``) that are live themselves (not draft/retired,
  not expired by their own ``valid_to``) while an origin is not applicable (superseded,
  expired, retired, ...): the copy must be rewritten from the successor or retired.
* ``similar_pairs``: pairs of applicable documents of different owners (both set), with no
  ``supersedes``/``derived_from`` link between them (directly or through their version
  lineage or copy origin), whose stored chunk vectors reach cosine ``>= threshold``: a
  missing ``supersedes``, or parallel views that their owners should confirm.
* ``proposed_dates``: dates and predecessors a document's text states
  (``chronorag.ingest.stated``) for fields it leaves empty, each with its sentence; one
  command writes them in: ``chronorag review --accept-dates [ID ...]``.
* ``duplicates`` and ``versions``: documents that look like versions of one another by
  name and text overlap, whatever their owners (``chronorag.ingest.versions``): identical
  texts first, then each chain, oldest first, with the ``supersedes`` that would link it
  (a chain already linked in that order is left out).
* ``dangling_links``: a ``supersedes``/``derived_from`` naming an id that is not stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

import numpy as np

from chronorag.config import get_preset
from chronorag.contract import OmitNone, Rounded, to_json
from chronorag.flags import Flag
from chronorag.ingest.adopt import Titles, adoptable
from chronorag.ingest.links import LINK_FIELDS
from chronorag.ingest.versions import Chain, version_chains, version_pairs
from chronorag.model import Document, Status
from chronorag.rank.validity import ValidityIndex
from chronorag.rank.verdict import Validity
from chronorag.store.base import CorpusStore, DocumentStore
from chronorag.timex import relative_phrases

DEFAULT_THRESHOLD = 0.9
_BLOCK = 1024  # rows per similarity block: bounds memory to _BLOCK x n floats


@dataclass(frozen=True)
class ReviewItem:
    """One finding: its kind, the documents and owners involved, and why."""

    kind: str
    doc_ids: tuple[str, ...]
    owners: tuple[str | None, ...]
    reason: str
    similarity: Annotated[float | None, Rounded(4)] = None
    # What a finding proposes, as data: a proposal's field, value and sentence; a chain's
    # dates and the links that would join it.
    details: Annotated[dict[str, Any] | None, OmitNone] = None

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class ReviewReport:
    """Findings of :func:`review` at ``as_of``, in the order of its JSON."""

    as_of: datetime
    threshold: float
    undated: tuple[ReviewItem, ...] = ()
    proposed_dates: tuple[ReviewItem, ...] = ()
    unanchored: tuple[ReviewItem, ...] = ()
    stale_copies: tuple[ReviewItem, ...] = ()
    duplicates: tuple[ReviewItem, ...] = ()
    versions: tuple[ReviewItem, ...] = ()
    dangling_links: tuple[ReviewItem, ...] = ()
    similar_pairs: tuple[ReviewItem, ...] = ()
    unindexed: tuple[ReviewItem, ...] = ()

    @property
    def items(self) -> tuple[ReviewItem, ...]:
        """All findings, in section order."""
        return (*self.undated, *self.proposed_dates, *self.unanchored, *self.stale_copies,
                *self.duplicates, *self.versions, *self.dangling_links, *self.similar_pairs,
                *self.unindexed)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


def review(store: CorpusStore, *, as_of: datetime, threshold: float = DEFAULT_THRESHOLD,
           embedder: str | None = None, tokens: str | None = None) -> ReviewReport:
    """Review every stored document at ``as_of`` (tz-aware); see the module docstring.

    ``embedder`` names the stored vectors to compare (default: the store's own, else the
    default preset's); ``tokens`` the token encoder whose vectors every document should
    have (default: the default preset's; "" for none).
    """
    if as_of.tzinfo is None:
        raise ValueError(f"as_of must be timezone-aware, got {as_of!r}; attach a tzinfo")
    documents = {d.id: d for d in store.documents()}
    index = ValidityIndex.build(documents.values())
    verdicts = {i: index.judge(i, as_of=as_of) for i in documents}
    name = embedder or store.setting("embedder") or get_preset("default").embedder
    pairs = version_pairs(list(documents.values()))
    return ReviewReport(
        as_of=as_of, threshold=threshold,
        undated=tuple(_undated(documents, verdicts)),
        unanchored=tuple(_unanchored(documents)),
        stale_copies=tuple(_stale_copies(documents, verdicts)),
        similar_pairs=tuple(_similar_pairs(store, documents, verdicts, index,
                                           threshold=threshold, embedder=name)),
        proposed_dates=tuple(_proposed(documents)),
        duplicates=tuple(ReviewItem(
            "duplicate", (p.a, p.b), (documents[p.a].owner, documents[p.b].owner),
            "the same text: keep one (delete the other), or mark the copy derived_from the "
            "original", similarity=1.0) for p in pairs if p.duplicate),
        versions=tuple(_chain_item(c, documents) for c in version_chains(documents, pairs)
                       if not _chained(c, documents)),
        dangling_links=tuple(_dangling(documents)),
        unindexed=tuple(_unindexed(store, documents, get_preset("default").late
                                   if tokens is None else tokens)),
    )


def _unindexed(store: DocumentStore, documents: dict[str, Document], tokens: str
               ) -> list[ReviewItem]:
    """One finding naming the documents stored without ``tokens``' token vectors (an
    older store, or one ingested with late interaction off): the late-interaction stage
    leaves them where the first retrieval put them."""
    if not tokens or not documents:
        return []
    stamps = store.fingerprints(sorted(documents))
    missing = sorted(i for i, (_, stamp) in stamps.items()
                     if tokens not in _stamp_part(stamp, "tokens"))
    if not missing:
        return []
    return [ReviewItem(
        "unindexed", tuple(missing), tuple(documents[i].owner for i in missing),
        f"{len(missing)} of {len(documents)} documents have no {tokens} token vectors, so "
        "late interaction does not reorder them; add them with: chronorag reindex",
        details={"tokens": tokens, "documents": len(missing)})]


def _stamp_part(stamp: str, part: str) -> set[str]:
    fields = dict(p.split("=", 1) for p in stamp.split(";") if "=" in p)
    return set(filter(None, fields.get(part, "").split(",")))


def _proposed(documents: dict[str, Document]) -> list[ReviewItem]:
    titles = Titles.of((i, d.title) for i, d in documents.items())
    items = []
    for doc_id, doc in documents.items():
        for proposal, value in adoptable(doc, titles):
            shown = value if isinstance(value, str) else proposal.value
            items.append(ReviewItem(
                "proposed_date", (doc_id,), (doc.owner,),
                f"{proposal.field} {shown}, as its text states: {proposal.sentence!r}; "
                f"accept with: chronorag review --accept-dates {doc_id}",
                details={**proposal.to_json(), "value": shown}))
    return items


def _chained(chain: Chain, documents: dict[str, Document]) -> bool:
    """Whether each version of ``chain`` already names the one before it."""
    return all(older in documents[newer].supersedes
               for older, newer in zip(chain.doc_ids, chain.doc_ids[1:], strict=False))


def _chain_item(chain: Chain, documents: dict[str, Document]) -> ReviewItem:
    links = [{"doc_id": newer, "supersedes": older}
             for older, newer in zip(chain.doc_ids, chain.doc_ids[1:], strict=False)
             if older not in documents[newer].supersedes]
    front = "; ".join(f"in {k['doc_id']}: supersedes: [{k['supersedes']}]" for k in links)
    dates = [None if d is None else d.date().isoformat() for d in chain.dates]
    undated = " (undated ones last: check their order)" if None in dates else ""
    return ReviewItem(
        "versions", chain.doc_ids, tuple(documents[i].owner for i in chain.doc_ids),
        f"look like versions of one document, oldest first{undated}; link them with front "
        f"matter {front}", similarity=chain.overlap,
        details={"dates": dates, "links": links})


def _dangling(documents: dict[str, Document]) -> list[ReviewItem]:
    return [ReviewItem("dangling_link", (doc_id, target), (doc.owner, None),
                       f"{name} names {target!r}, which is not stored: ingest it, or fix "
                       "the id", details={"field": name, "target": target})
            for doc_id, doc in documents.items() for name in LINK_FIELDS
            for target in getattr(doc, name) if target not in documents]


def _undated(documents: dict[str, Document], verdicts: dict[str, Validity]) -> list[ReviewItem]:
    return [
        ReviewItem("undated", (i,), (d.owner,),
                   "no valid_from, occurred_at or published_at: answers resting on it are "
                   "uncertain; add its dates")
        for i, d in documents.items()
        if Flag.UNDATED in verdicts[i].flags and d.status is not Status.RETIRED
    ]


def _unanchored(documents: dict[str, Document]) -> list[ReviewItem]:
    items = []
    for doc_id, doc in documents.items():
        if doc.reference_time is not None or doc.status is Status.RETIRED:
            continue
        phrases = relative_phrases(doc.text)
        if phrases:
            quoted = ", ".join(f"{p!r}" for p in phrases)
            items.append(ReviewItem(
                "unanchored", (doc_id,), (doc.owner,),
                f"says {quoted} but has no published_at or occurred_at to read it against: "
                "only its absolute dates count; add when it was written"))
    return items


def _stale_copies(documents: dict[str, Document], verdicts: dict[str, Validity],
                  ) -> list[ReviewItem]:
    items = []
    for doc_id, doc in documents.items():
        if not doc.derived_from or doc.status in (Status.DRAFT, Status.RETIRED):
            continue
        for origin in doc.derived_from:
            verdict = verdicts.get(origin)
            if verdict is None or verdict.applicable:
                continue
            why = ", ".join(f for f in verdict.flags if f not in (Flag.DERIVED_COPY, Flag.UNDATED))
            by = f" by {', '.join(verdict.superseded_by)}" if verdict.superseded_by else ""
            items.append(ReviewItem(
                "stale_copy", (doc_id, origin), (doc.owner, documents[origin].owner),
                f"copy of {origin}, which is {why}{by}: rewrite the copy or retire it"))
    return items


def _similar_pairs(store: CorpusStore, documents: dict[str, Document],
                   verdicts: dict[str, Validity], index: ValidityIndex, *,
                   threshold: float, embedder: str) -> list[ReviewItem]:
    chunk_ids, matrix = store.vectors(embedder)
    if not chunk_ids:
        return []
    doc_of = {c.id: c.doc_id for c in store.chunks()}
    rows = [r for r, cid in enumerate(chunk_ids)
            if (d := doc_of.get(cid)) in documents and verdicts[d].applicable
            and documents[d].owner]
    owners = [doc_of[chunk_ids[r]] for r in rows]
    best = _best_doc_pairs(matrix[rows], owners, threshold=threshold)
    items = []
    for (a, b), score in sorted(best.items()):
        da, db = documents[a], documents[b]
        if da.owner == db.owner or _linked(index, verdicts, a, b, documents):
            continue
        items.append(ReviewItem(
            "similar_unlinked", (a, b), (da.owner, db.owner),
            "applicable, highly similar, different owners, no supersedes/derived_from "
            "link: add the missing supersedes, or confirm them as parallel views",
            similarity=score))
    return items


def _best_doc_pairs(matrix: np.ndarray, doc_ids: Sequence[str], *,
                    threshold: float) -> dict[tuple[str, str], float]:
    """Highest chunk cosine per pair of distinct documents, for pairs at ``threshold``."""
    if len(doc_ids) < 2:
        return {}
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = matrix / np.where(norms == 0, 1.0, norms)
    best: dict[tuple[str, str], float] = {}
    for start in range(0, len(doc_ids), _BLOCK):
        sims = unit[start : start + _BLOCK] @ unit.T
        for i, j in zip(*np.nonzero(sims >= threshold), strict=True):
            a, b = doc_ids[start + int(i)], doc_ids[int(j)]
            if a < b:
                key = (a, b)
                best[key] = max(best.get(key, -1.0), float(sims[i, j]))
    return best


def _linked(index: ValidityIndex, verdicts: dict[str, Validity], a: str, b: str,
            documents: dict[str, Document]) -> bool:
    """True when ``a`` and ``b`` are versions of one lineage or copies of one origin."""
    if index.lineage(a) == index.lineage(b):
        return True
    root_a = verdicts[a].origin or a
    root_b = verdicts[b].origin or b
    return (root_a == root_b or b in documents[a].derived_from
            or a in documents[b].derived_from)
