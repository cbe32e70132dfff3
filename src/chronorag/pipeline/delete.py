"""Deleting documents, and the links other documents have to them."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from datetime import datetime, tzinfo

from chronorag.errors import ConfigError, NotFoundError
from chronorag.model import Document
from chronorag.pipeline.ingest import Embedders, rewrite_documents
from chronorag.store.base import CorpusStore

__all__ = ["delete_documents", "linking_to", "links_of", "without_links"]


def delete_documents(store: CorpusStore, ids: Sequence[str], *, unlink: bool, embedders: Embedders,
                     now: datetime, tz: tzinfo) -> tuple[str, ...]:
    """Delete ``ids`` with everything derived from them, in one transaction; the ids
    deleted, sorted. An id not stored raises ``NotFoundError``; a document others name in
    ``supersedes``/``derived_from`` raises ``ConfigError`` naming them unless ``unlink``,
    which removes those names from them in the same transaction. Nothing changes on
    an error."""
    with store.atomic():
        missing = sorted(set(ids) - set(store.fingerprints(ids)))
        if missing:
            raise NotFoundError(
                f"no document {', '.join(map(repr, missing))} in the store; nothing was "
                "deleted (chronorag documents list shows the ids)")
        naming = linking_to(store.documents(text=False), ids)
        if naming and not unlink:
            said = "; ".join(f"{d.id} names {', '.join(sorted(set(ids) & links_of(d)))}"
                             for d in naming)
            raise ConfigError(f"other documents link to what would be deleted ({said}); "
                              "nothing was deleted: delete them too, or remove the links "
                              "(documents delete --unlink)")
        if naming:
            full = store.documents([d.id for d in naming])
            rewrite_documents(store, [without_links(d, ids) for d in full],
                              embedders=embedders, now=now, tz=tz)
        return store.delete(ids)


def links_of(doc: Document) -> set[str]:
    """The ids ``doc`` names in ``supersedes`` and ``derived_from``."""
    return {*doc.supersedes, *doc.derived_from}


def linking_to(documents: Iterable[Document], ids: Collection[str]) -> list[Document]:
    """The documents, not among ``ids``, that name one of ``ids``."""
    gone = set(ids)
    return [d for d in documents if d.id not in gone and links_of(d) & gone]


def without_links(doc: Document, ids: Collection[str]) -> Document:
    """``doc`` no longer naming ``ids`` (a deleted predecessor or origin)."""
    gone = set(ids)
    return replace(doc, supersedes=tuple(i for i in doc.supersedes if i not in gone),
                   derived_from=tuple(i for i in doc.derived_from if i not in gone))
