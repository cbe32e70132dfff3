"""Validity rules: which documents may answer a question about ``as_of`` (DESIGN.md).

Pure and deterministic: nothing reads the clock, ``as_of`` is always a parameter.

A document applies at ``T`` when it is not draft/retired, ``valid_from.start <= T <
valid_to.start`` (``valid_to`` is an exclusive bound at the start of its period: ``valid_to
"2026-11"`` means until 2026-11-01; open sides pass) and no *effective successor* lists it in
``supersedes`` with a start ``<= T``. Conventions beyond DESIGN.md:

* A successor starts superseding at its ``valid_from.start``; without ``valid_from`` at its
  ``published_at.start``; without either, always (it is then flagged ``undated`` itself).
* Draft and retired successors supersede nothing: a draft is a proposal, not a decision, and
  if it displaced the live version no document could answer at all (drafts never answer).
  Hence adding a draft never changes another document's applicability, unless a document
  is declared a copy of it (``derived_from``).
* Supersession is permanent: a successor that later expires or is itself superseded still
  displaces its predecessor.
* A copy (``derived_from``) shares the fate of every transitive origin: when one is not
  applicable the copy is not either, and carries ``derived_copy`` plus the origin's reason
  flags; ``superseded_by`` then also lists the successors of its origins.
* Links that form a cycle (in ``supersedes`` or ``derived_from``) are broken: they are
  ignored and every document on the cycle is flagged ``link_cycle``.
* Links to ids not in the index are ignored; a copy of a missing origin still has
  ``origin`` set to that id so it is not counted as an independent voice.
* ``upcoming`` only for ``approved`` documents (per DESIGN.md), blocked by nothing but
  ``not_yet_valid`` (their own or an origin's): they will apply later. Unknown-status
  documents that start later (e.g. encyclopedic facts) are simply not yet valid.
* ``published_at`` only orders versions; ``modified_at`` and ``ingested_at`` are never read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from chronorag.flags import Flag, Flags
from chronorag.model import Document, Hit, Interval, Status
from chronorag.rank.authority import AuthorityPrior
from chronorag.rank.base import named_score
from chronorag.rank.links import copy_roots, cycle_components, same_cycle, version_lineages
from chronorag.rank.verdict import BLOCKING, FLAG_ORDER, Validity

log = logging.getLogger(__name__)

DEFAULT_EPSILON = 0.01
"""``combined`` scores within this distance of a band's first count as tied (see
apply_validity)."""

_NEVER_ANSWER = {Status.DRAFT: Flag.DRAFT, Status.RETIRED: Flag.RETIRED}
_RANK = {flag: i for i, flag in enumerate(FLAG_ORDER)}


@dataclass(frozen=True, slots=True)
class _Entry:
    """The few fields of a document that validity needs; cheap to hold for 100k docs."""

    status: Status | None
    start: datetime | None
    end: datetime | None
    supersede_from: datetime | None
    published: datetime | None
    undated: bool
    derived: bool


def _exclusive_end(interval: Interval | None) -> datetime | None:
    """``valid_to`` ends at the start of its period; ``[null, X)`` falls back to ``X``."""
    if interval is None:
        return None
    return interval.start if interval.start is not None else interval.end


def _entry(doc: Document) -> _Entry:
    start = None if doc.valid_from is None else doc.valid_from.start
    published = None if doc.published_at is None else doc.published_at.start
    supersede_from = start if doc.valid_from is not None else published
    undated = doc.valid_from is None and doc.occurred_at is None and doc.published_at is None
    return _Entry(doc.status, start, _exclusive_end(doc.valid_to), supersede_from,
                  published, undated, bool(doc.derived_from))


def _ordered(flags: Iterable[Flag]) -> Flags:
    return tuple(sorted(set(flags), key=_RANK.__getitem__))


def _check_aware(as_of: datetime) -> None:
    if as_of.tzinfo is None or as_of.utcoffset() is None:
        raise ValueError(f"as_of must be timezone-aware, got {as_of!r}; attach a tzinfo")


class ValidityIndex:
    """Supersession and derivation links of all documents, built once, judged per ``as_of``."""

    def __init__(self, entries: Mapping[str, _Entry], *,
                 successors: Mapping[str, tuple[str, ...]],
                 parents: Mapping[str, tuple[str, ...]],
                 roots: Mapping[str, str],
                 lineages: Mapping[str, str],
                 in_cycle: frozenset[str]) -> None:
        """Use :meth:`build`; the constructor takes precomputed tables."""
        self._entries = entries
        self._successors = successors
        self._parents = parents
        self._roots = roots
        self._lineages = lineages
        self._in_cycle = in_cycle

    @classmethod
    def build(cls, documents: Iterable[Document]) -> ValidityIndex:
        """Index ``documents`` (a later duplicate id replaces an earlier one)."""
        docs = {doc.id: doc for doc in documents}
        entries = {doc_id: _entry(doc) for doc_id, doc in docs.items()}
        sup_edges = {i: _known(d.supersedes, entries) for i, d in docs.items()}
        der_edges = {i: tuple(dict.fromkeys(d.derived_from)) for i, d in docs.items()}
        sup_cycles = cycle_components(sup_edges)
        der_cycles = cycle_components(der_edges)
        successors: dict[str, list[str]] = {}
        for doc_id in sorted(sup_edges):
            if entries[doc_id].status in _NEVER_ANSWER:
                continue
            for target in sup_edges[doc_id]:
                if not same_cycle(sup_cycles, doc_id, target):
                    successors.setdefault(target, []).append(doc_id)
        parents = {
            i: tuple(t for t in targets if not same_cycle(der_cycles, i, t))
            for i, targets in der_edges.items() if targets
        }
        in_cycle = frozenset(sup_cycles) | frozenset(der_cycles)
        log.debug("validity index: %d documents, %d in link cycles", len(entries), len(in_cycle))
        return cls(entries, successors={k: tuple(v) for k, v in successors.items()},
                   parents=parents, roots=copy_roots(parents, der_cycles),
                   lineages=version_lineages(sup_edges), in_cycle=in_cycle)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def lineage(self, doc_id: str) -> str:
        """An id shared by all versions linked through ``supersedes`` (the smallest id)."""
        return self._lineages.get(doc_id, doc_id)

    def published(self, doc_id: str) -> datetime | None:
        """``published_at.start`` of a document: it orders versions, nothing else."""
        entry = self._entries.get(doc_id)
        return None if entry is None else entry.published

    def until(self, doc_id: str) -> datetime | None:
        """When ``doc_id`` stops applying as far as the store knows, whatever ``as_of``: its
        own ``valid_to`` or the start of its earliest dated successor, whichever comes
        first (None: open, or only undated successors). KeyError if unknown.

        A copy ends with its origins: the earliest end over its ``derived_from`` ancestors
        counts too.
        """
        ends = [self._own_end(doc_id)]
        ends.extend(self._own_end(ancestor) for ancestor in self._ancestors(doc_id))
        known = [end for end in ends if end is not None]
        return min(known) if known else None

    def _own_end(self, doc_id: str) -> datetime | None:
        entry = self._entries[doc_id]
        starts = [self._entries[succ].supersede_from for succ in self._successors.get(doc_id, ())]
        ends = [moment for moment in (entry.end, *starts) if moment is not None]
        return min(ends) if ends else None

    def judge(self, doc_id: str, *, as_of: datetime) -> Validity:
        """Applicability of ``doc_id`` at ``as_of`` with the reasons; KeyError if unknown."""
        _check_aware(as_of)
        entry = self._entries.get(doc_id)
        if entry is None:
            raise KeyError(f"document {doc_id!r} is not in the validity index; rebuild it "
                           "with ValidityIndex.build after ingesting")
        flags, superseded_by = self._own(doc_id, entry, as_of)
        for ancestor in self._ancestors(doc_id):
            inherited, successors = self._own(ancestor, self._entries[ancestor], as_of)
            flags.extend(inherited)
            superseded_by.extend(successors)
        if entry.derived:
            flags.append(Flag.DERIVED_COPY)
        if entry.undated:
            flags.append(Flag.UNDATED)
        if doc_id in self._in_cycle:
            flags.append(Flag.LINK_CYCLE)
        blocking = BLOCKING.intersection(flags)
        root = self._roots.get(doc_id, doc_id)
        return Validity(
            applicable=not blocking,
            flags=_ordered(flags),
            upcoming=entry.status is Status.APPROVED and blocking == {Flag.NOT_YET_VALID},
            superseded_by=tuple(dict.fromkeys(superseded_by)),
            origin=None if root == doc_id else root,
        )

    def _own(self, doc_id: str, entry: _Entry, as_of: datetime) -> tuple[list[Flag], list[str]]:
        """Blocking flags of the document alone, and its successors in force at ``as_of``."""
        flags: list[Flag] = []
        if entry.status in _NEVER_ANSWER:
            flags.append(_NEVER_ANSWER[entry.status])
        if entry.start is not None and as_of < entry.start:
            flags.append(Flag.NOT_YET_VALID)
        if entry.end is not None and as_of >= entry.end:
            flags.append(Flag.EXPIRED)
        superseded_by = [
            succ for succ in self._successors.get(doc_id, ())
            if (since := self._entries[succ].supersede_from) is None or since <= as_of
        ]
        if superseded_by:
            flags.append(Flag.SUPERSEDED)
        return flags, superseded_by

    def _ancestors(self, doc_id: str) -> list[str]:
        """Stored transitive origins over unbroken ``derived_from`` links, nearest first."""
        seen = {doc_id}
        order: list[str] = []
        frontier = [doc_id]
        while frontier:
            nxt: list[str] = []
            for node in frontier:
                for parent in self._parents.get(node, ()):
                    if parent not in seen and parent in self._entries:
                        seen.add(parent)
                        order.append(parent)
                        nxt.append(parent)
            frontier = nxt
        return order


def _known(targets: Sequence[str], entries: Mapping[str, _Entry]) -> tuple[str, ...]:
    """Link targets present in the index (missing ones are ignored), without duplicates."""
    return tuple(t for t in dict.fromkeys(targets) if t in entries)


def apply_validity(
    hits: Sequence[Hit], *, documents: Mapping[str, Document], index: ValidityIndex,
    as_of: datetime, authority: AuthorityPrior | None = None,
    epsilon: float = DEFAULT_EPSILON,
) -> tuple[list[Hit], list[Hit]]:
    """Judge every hit at ``as_of``; return ``(evidence, upcoming)``.

    ``hits`` arrive best first. Each hit gets ``applicable`` (False if it already was, e.g.
    by privacy) and the validity flags added to its own. Evidence keeps every hit: the
    applicable ones first, then the rest, each group in input order, except that within a
    band of applicable hits whose scores lie within ``epsilon`` of the band's first score
    the authority prior decides, and versions of one lineage go newest ``published_at``
    first. ``upcoming`` lists, in evidence order, the hits that will apply later (they also
    stay in evidence, not applicable, flagged ``not_yet_valid``); hits already excluded by
    an earlier stage are never upcoming.

    Bands compare ``scores["combined"]`` (the temporal stage's relevance × fit) and keep
    to one time group (``time_tier``, ``time_order``). Hits move by these rules, not by a
    score, so each keeps its ``score``.
    """
    _check_aware(as_of)
    prior = authority or AuthorityPrior()
    verdicts: dict[str, Validity] = {}
    marked: list[tuple[Hit, bool]] = []
    for hit in hits:
        doc_id = hit.chunk.doc_id
        if doc_id not in verdicts:
            verdicts[doc_id] = index.judge(doc_id, as_of=as_of)
        verdict = verdicts[doc_id]
        flags = tuple(dict.fromkeys((*hit.flags, *verdict.flags)))
        new = replace(hit, applicable=hit.applicable and verdict.applicable, flags=flags,
                      superseded_by=verdict.superseded_by, valid_until=index.until(doc_id))
        marked.append((new, hit.applicable and verdict.upcoming))
    good = [hit for hit, _ in marked if hit.applicable]
    bad = [hit for hit, _ in marked if not hit.applicable]
    ranked = _break_ties(good, documents=documents, index=index, prior=prior,
                         epsilon=epsilon)
    upcoming_ids = {id(hit) for hit, upcoming in marked if upcoming}
    evidence = ranked + bad
    return evidence, [hit for hit in evidence if id(hit) in upcoming_ids]


def _break_ties(hits: list[Hit], *, documents: Mapping[str, Document], index: ValidityIndex,
                prior: AuthorityPrior, epsilon: float) -> list[Hit]:
    """Reorder bands of near-equal ``combined`` scores in one time group by authority
    prior, then versions newest first."""
    combined = [named_score(h, "combined") for h in hits]
    result: list[Hit] = []
    i = 0
    while i < len(hits):
        j = i + 1
        while (j < len(hits) and abs(combined[i] - combined[j]) <= epsilon
               and _time_group(hits[j]) == _time_group(hits[i])):
            j += 1
        band = sorted(hits[i:j], key=lambda h: -prior.prior(_source_type(h, documents)))
        result.extend(_order_versions(band, index=index))
        i = j
    return result


def _time_group(hit: Hit) -> tuple[float | None, float | None]:
    """Where the temporal stage put ``hit`` above relevance (tier, first/last moment): the
    list is ordered by it, so only hits sharing it may swap."""
    return hit.scores.get("time_tier"), hit.scores.get("time_order")


def _source_type(hit: Hit, documents: Mapping[str, Document]) -> str | None:
    doc = documents.get(hit.chunk.doc_id)
    return None if doc is None else doc.source_type


def _order_versions(band: list[Hit], *, index: ValidityIndex) -> list[Hit]:
    """Within the slots a lineage occupies in ``band``, put its newest version first."""
    slots: dict[str, list[int]] = {}
    for pos, hit in enumerate(band):
        slots.setdefault(index.lineage(hit.chunk.doc_id), []).append(pos)
    result = list(band)
    for positions in slots.values():
        if len(positions) < 2:
            continue
        members = sorted((band[p] for p in positions), key=_version_key(index))
        for pos, hit in zip(positions, members, strict=True):
            result[pos] = hit
    return result


def _version_key(index: ValidityIndex) -> Callable[[Hit], tuple[int, float]]:
    """Sort key: newest ``published_at`` first, undated versions last."""

    def key(hit: Hit) -> tuple[int, float]:
        published = index.published(hit.chunk.doc_id)
        return (1, 0.0) if published is None else (0, -published.timestamp())
    return key
