"""The versions of a document the asker may see: its ``supersedes`` chain, with texts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from chronorag.model import Document
from chronorag.store.base import DocumentStore, PeopleStore


def chain_of(doc_id: str, links: Iterable[tuple[str, str, str]]) -> set[str]:
    """The ids linked to ``doc_id`` by ``supersedes``, either way, transitively."""
    graph: dict[str, set[str]] = {}
    for src, dst, kind in links:
        if kind == "supersedes":
            graph.setdefault(src, set()).add(dst)
            graph.setdefault(dst, set()).add(src)
    seen, frontier = {doc_id}, [doc_id]
    while frontier:
        for other in graph.get(frontier.pop(), ()):
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return seen


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
