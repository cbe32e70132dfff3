"""The versions of a document the asker may see: its ``supersedes`` chain, with texts; and
the period none of them applies in, around a time asked about."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from chronorag.flags import Flag
from chronorag.model import Answer, Document, Hole, Interval, Query, Status
from chronorag.rank.links import version_lineages
from chronorag.rank.validity import ValidityIndex
from chronorag.store.base import DocumentStore, PeopleStore


def chain_of(doc_id: str, links: Iterable[tuple[str, str, str]]) -> set[str]:
    """The ids linked to ``doc_id`` by ``supersedes``, either way, transitively: its
    lineage, as validity reads it (``rank.links.version_lineages``)."""
    edges: dict[str, tuple[str, ...]] = {}
    for src, dst, kind in links:
        if kind == "supersedes":
            edges[src] = (*edges.get(src, ()), dst)
    lineages = version_lineages(edges)
    if doc_id not in lineages:
        return {doc_id}
    return {d for d, root in lineages.items() if root == lineages[doc_id]}


class VersionStore(DocumentStore, PeopleStore, Protocol):
    """What reading versions needs: the documents and links, and who may see them."""


def visible_versions(store: VersionStore, doc_id: str, *, user: str | None,
                     admin: bool) -> list[Document]:
    """Every document linked to ``doc_id`` by ``supersedes`` (either way, transitively),
    itself included, that ``user`` may see, with its text."""
    chain = chain_of(doc_id, store.links("supersedes"))
    if len(chain) < 2:
        return []
    visible = store.visible_doc_ids(user, admin=admin, among=sorted(chain))
    return store.documents(sorted(chain if visible is None else chain & set(visible)))


def uncovered(versions: Sequence[Document], *, at: datetime) -> Interval | None:
    """The period around ``at`` in which no version of a lineage applies, or None when one
    applies at ``at`` or none declares its validity.

    Only declared validity counts (``valid_from``, ``valid_to``, a successor's start, as
    the validity rules read them): the times a text states are events, not a record of
    everything between them ("joined in 1990 … left in 1996" leaves 1991-1995 unstated,
    yet the state held throughout), and a hole read from them falls on 27% of TimeQA's
    answerable questions (``benchmarks/coverage_holes.py``). Drafts and retired versions
    are no versions. An undated version applies at every time, so it leaves no hole.
    """
    live = [v for v in versions if v.status not in (Status.DRAFT, Status.RETIRED)]
    index = ValidityIndex.build(versions)
    if not live or any(index.judge(v.id, as_of=at).applicable for v in live):
        return None
    ended = [end for v in live if (end := index.until(v.id)) is not None and end <= at]
    later = [start for v in live if v.valid_from is not None
             and (start := v.valid_from.start) is not None and start > at]
    if not ended and not later:
        return None
    return Interval(max(ended, default=None), min(later, default=None))


def not_covered(store: VersionStore, query: Query, answer: Answer, *,
                min_semantic: float) -> Answer:
    """A ``not_found`` answer whose most relevant document has no stored version that
    applies at ``as_of`` names the period none covers (``time_not_covered``)."""
    first = next((e for e in (*answer.evidence, *answer.upcoming)
                  if e.scores.get("semantic", 0.0) >= min_semantic
                  and Flag.NOT_APPLICABLE not in e.flags), None)
    if first is None:
        return answer
    versions = (visible_versions(store, first.doc_id, user=query.user, admin=query.admin)
                or store.documents([first.doc_id], text=False))
    hole = uncovered(versions, at=query.as_of)
    if hole is None:
        return answer
    return replace(answer, flags=(*answer.flags, Flag.TIME_NOT_COVERED),
                   uncovered=Hole(first.doc_id, first.title, hole.start, hole.end))
