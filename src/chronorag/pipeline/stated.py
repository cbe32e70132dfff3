"""Ingest's use of what texts state: links that must name a document, and (opted in)
dates and predecessors filled from the text (``chronorag.ingest.stated``/``adopt``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from datetime import tzinfo

from chronorag.errors import ValidationError
from chronorag.ingest import CheckedFile, read_documents
from chronorag.ingest.adopt import BY_INGEST, Titles, adopt
from chronorag.ingest.links import dangling
from chronorag.ingest.stated import FROM_TEXT, proposals_of
from chronorag.model import Document
from chronorag.store.base import DocumentStore

__all__ = ["Adopting", "check_links", "stored_titles"]


def check_links(store: DocumentStore, files: Sequence[CheckedFile], *,
                allow_dangling: bool) -> list[str]:
    """Raise ``ValidationError`` for links naming ids neither stored nor ingested; with
    ``allow_dangling`` return them as warnings instead."""
    problems = dangling((k for f in files for k in f.links),
                        stored=lambda ids: store.fingerprints(ids).keys())
    if problems and not allow_dangling:
        raise ValidationError(problems)
    return [f"warning: {p}" for p in problems]


def stored_titles(store: DocumentStore) -> list[tuple[str, str]]:
    """``(id, title)`` of every stored document."""
    return [(d.id, d.title) for d in store.documents(text=False)]


class Adopting:
    """Fills each document's missing dates and links from its text as it streams by.

    Names in "replaces …" resolve against the titles of the stored documents and of every
    document of this ingest, gathered (one more read of the files) only when a document
    proposes a ``supersedes``.
    """

    def __init__(self, store: DocumentStore, files: Sequence[CheckedFile], *, tz: tzinfo) -> None:
        self._store, self._files, self._tz = store, files, tz
        self._titles: Titles | None = None
        self.filled: Counter[str] = Counter()

    def apply(self, documents: Iterable[Document]) -> Iterator[Document]:
        for doc in documents:
            proposals = proposals_of(doc.metadata)
            if not proposals:
                yield doc
                continue
            names = any(p.field == "supersedes" for p in proposals)
            adopted = adopt(doc, self.titles() if names else Titles(), by=BY_INGEST,
                            tz=self._tz)
            self.filled.update((adopted.metadata.get(FROM_TEXT) or {}).keys())
            yield adopted

    def titles(self) -> Titles:
        if self._titles is None:
            ingested = ((d.id, d.title) for f in self._files
                        for d in read_documents(f, tz=self._tz))
            self._titles = Titles.of([*stored_titles(self._store), *ingested])
        return self._titles

    @property
    def notes(self) -> list[str]:
        if not self.filled:
            return []
        counts = ", ".join(f"{n} {name}" for name, n in sorted(self.filled.items()))
        return [f"from the text (--dates-from-text): {counts} filled; chronorag review "
                "lists each with its sentence"]
