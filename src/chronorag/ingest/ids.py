"""Document ids made from file paths, and where a stored document was read from.

A file whose format has no id of its own (Markdown, text) is known by its path relative
to a root (the current directory unless one is stated), without its suffix:
``privacy/2018-05-25.md`` is ``privacy/2018-05-25``, whichever folder was named on the
command line. A file that is already stored keeps the id it was stored under, so the same
file ingested from two places (or by a store made before roots existed) is one document.
``docs/decisions/document-ids.md`` has the reasons.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from chronorag.errors import FieldError

__all__ = ["IdRoot", "StoredIds", "file_ids", "outside_root", "path_id", "same_source",
           "source_candidates", "source_file"]

StoredIds = Callable[[Sequence[str]], Mapping[str, str]]
"""Stored document sources -> their ids, for the sources that are stored (a store's
``ids_by_source``)."""

_LINE = re.compile(r":\d+$")


@dataclass(frozen=True)
class IdRoot:
    """Where path ids start (``root``; None: the current directory) and how to find the id
    a file is already stored under (``stored``; None: nothing is stored)."""

    root: str | os.PathLike[str] | None = None
    stored: StoredIds | None = None

    def folder(self) -> Path:
        return _absolute(Path(self.root) if self.root is not None else Path.cwd())


def _absolute(path: Path) -> Path:
    """``path`` absolute and normalised, symbolic links kept (they name the place)."""
    return Path(os.path.normpath(path.absolute()))


def path_id(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root``, in ``/`` form without its suffix; None when the file
    lies outside ``root`` (by its own name or once links are followed)."""
    for inner, outer in ((_absolute(path), root), (path.resolve(), root.resolve())):
        try:
            relative = inner.relative_to(outer)
        except ValueError:
            continue
        if relative.parts:
            return relative.with_suffix("").as_posix()
    return None


def source_candidates(path: Path, shown: str) -> list[str]:
    """Every way a store may have recorded ``path`` as a document's source: the file
    itself (what is recorded now), and for stores made before it, the path as named
    then, which is usually how it is named now, or relative to the current directory."""
    out = [str(path.resolve()), str(_absolute(path)), shown]
    if _absolute(path).is_relative_to(Path.cwd()):
        out.append(str(_absolute(path).relative_to(Path.cwd())))
    return list(dict.fromkeys(out))


def source_file(source: str) -> str:
    """The file part of a document's source (``facts.jsonl:3`` -> ``facts.jsonl``)."""
    return _LINE.sub("", source)


def same_source(stored: str, incoming: str) -> bool:
    """Whether a document stored from ``stored`` and one read from ``incoming`` come
    from one file. An unknown stored source (empty) is taken to be the same; a relative
    one (a store made before sources were recorded whole, or an upload's name) is read
    against the current directory."""
    old, new = source_file(stored), source_file(incoming)
    if not old or old == new:
        return True
    if Path(old).is_absolute() or not Path(new).is_absolute():
        return False
    return Path(os.path.normpath(Path.cwd() / old)).resolve() == Path(new).resolve()


def outside_root(shown: str, root: Path) -> FieldError:
    return FieldError(shown, 0, "path", f"is outside the root {str(root)!r}, so no id can "
                      "be made from its path; pass --root with a folder that holds it")


def file_ids(files: Sequence[tuple[Path, str]], ids: IdRoot) -> list[str | FieldError]:
    """The id of each ``(path, shown)`` file: the one it is stored under, else its path
    relative to the root; a problem for a file outside the root that is not stored."""
    root = ids.folder()
    candidates = [source_candidates(path, shown) for path, shown in files]
    stored: Mapping[str, str] = {}
    if ids.stored is not None and files:
        stored = ids.stored([c for found in candidates for c in found])
    out: list[str | FieldError] = []
    for (path, shown), found in zip(files, candidates, strict=True):
        made = next((stored[c] for c in found if c in stored), None) or path_id(path, root)
        out.append(made if made is not None else outside_root(shown, root))
    return out
