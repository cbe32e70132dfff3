"""The versions of a document the asker may see: its ``supersedes`` chain, with texts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from chronorag.model import Document
from chronorag.rank.links import version_lineages
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
