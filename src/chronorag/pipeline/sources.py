"""Checked before anything is written: no document silently replaces a stored one that
was read from another file.

Two files can carry one id (``privacy/2018-05-25.md`` and ``tos/2018-05-25.md`` ingested
with different roots, or a JSON line that reuses an id). Replacing the stored document is
then refused unless the caller says so (``replace=True``, ``--replace``); an unchanged
document is a no-op whatever its file, so it is never refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import tzinfo
from os import PathLike

from chronorag.errors import FieldError, ValidationError
from chronorag.ingest import CheckedFile, check_paths
from chronorag.ingest.ids import IdRoot, same_source, source_file
from chronorag.model import Document
from chronorag.pipeline.conditions import DocumentConditions, declared
from chronorag.store.base import DocumentStore

__all__ = ["ReplacementCheck", "StoreCheck", "id_root"]

# Stored documents are compared this many ids at a time (bounded queries and memory).
_WINDOW = 1000


def id_root(store: DocumentStore, root: str | PathLike[str] | None) -> IdRoot:
    """Ids from paths relative to ``root``; a file already stored keeps its stored id."""
    return IdRoot(root, store.ids_by_source)


@dataclass(frozen=True)
class _Read:
    digest: str
    source: str
    shown: str


class ReplacementCheck:
    """Collects each valid document as it is checked (pass it as ``check_paths``'s
    ``seen``), then lists those that would replace a stored document of another file."""

    def __init__(self) -> None:
        self._read: dict[str, _Read] = {}

    def __call__(self, document: Document, shown: str, line: int) -> None:
        self._read[document.id] = _Read(document.content_hash(), document.source, shown)

    def problems(self, store: DocumentStore) -> list[FieldError]:
        """One ``file:0: id:`` problem per document that would replace another file's."""
        ids = list(self._read)
        out: list[FieldError] = []
        for start in range(0, len(ids), _WINDOW):
            out += self._window(store, ids[start:start + _WINDOW])
        return out

    def _window(self, store: DocumentStore, ids: Sequence[str]) -> list[FieldError]:
        stored = store.fingerprints(ids)
        changed = [i for i in ids if i in stored and stored[i][0] != self._read[i].digest]
        out: list[FieldError] = []
        for old in store.documents(changed, text=False) if changed else ():
            new = self._read[old.id]
            if not same_source(old.source, new.source):
                out.append(FieldError(new.shown, 0, "id", f"would replace {old.id!r} read "
                                      f"from {source_file(old.source)}; pass --replace"))
        return out


@dataclass(frozen=True)
class StoreCheck:
    """How the document files are checked against the store: ids from paths relative to
    ``root``, conditions (``applies_to``) among the declared ones, and no replacement of
    another file's document unless ``replace``."""

    store: DocumentStore
    root: str | PathLike[str] | None
    replace: bool

    def __call__(self, paths: Sequence[str | PathLike[str]], *, tz: tzinfo
                 ) -> list[CheckedFile]:
        replacing = None if self.replace else ReplacementCheck()
        conditions = DocumentConditions(declared(self.store))

        def seen(document: Document, shown: str, line: int) -> None:
            conditions(document, shown, line)
            if replacing is not None:
                replacing(document, shown, line)

        files = check_paths(paths, tz=tz, root=id_root(self.store, self.root), seen=seen)
        conditions.raise_problems()
        problems = [] if replacing is None else replacing.problems(self.store)
        if problems:
            raise ValidationError(problems)
        return files
