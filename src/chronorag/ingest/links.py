"""Links between documents (``supersedes``, ``derived_from``) that must name a document.

A link that names an id neither stored nor in the same ingest is dangling: the version it
retires or the origin it copies is unknown, so validity cannot use it. Ingest refuses it
(``file:line: field: reason``) unless the caller allows dangling links, which are then
warnings; ``chronorag review`` lists the dangling links of a store.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from chronorag.errors import FieldError
from chronorag.ingest.frontmatter import split_front_matter
from chronorag.model import Document

__all__ = ["LINK_FIELDS", "Link", "dangling", "links_of"]

LINK_FIELDS = ("supersedes", "derived_from")


@dataclass(frozen=True)
class Link:
    """``doc_id``'s ``field`` names ``target``; the document was read at ``path:line``
    (``file`` is where it is on disk, to find the field's own line)."""

    doc_id: str
    field: str
    target: str
    path: str
    line: int
    file: str = ""


def links_of(doc: Document, *, path: str, line: int, file: str = "") -> list[Link]:
    """Every link of ``doc``, placed at ``path:line``."""
    return [Link(doc.id, name, target, path, line, file)
            for name in LINK_FIELDS for target in getattr(doc, name)]


def dangling(links: Iterable[Link], *, stored: Callable[[Sequence[str]], Collection[str]]
             ) -> list[FieldError]:
    """A problem for each link whose target ``stored`` does not know (``links`` are those
    whose target is not in the ingest), at the line of its field."""
    pending = list(links)
    if not pending:
        return []
    known = set(stored(sorted({link.target for link in pending})))
    return [FieldError(link.path, _field_line(link), link.field,
                       f"names {link.target!r}, which is neither stored nor in this ingest; "
                       "fix the id, ingest that document too, or pass --allow-dangling")
            for link in pending if link.target not in known]


def _field_line(link: Link) -> int:
    """The line of the link's own field in a file with front matter, else the document's."""
    if not link.file or Path(link.file).suffix.lower() not in (".md", ".txt"):
        return link.line
    try:
        text = Path(link.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return link.line
    return split_front_matter(text).field_lines.get(link.field, link.line)
