"""Adopting the dates and links a text states (``chronorag.ingest.stated``) as fields.

``adopt`` fills the fields a document leaves empty (``valid_from``, ``modified_at``,
``supersedes``) from its proposals, never one its front matter or JSON states, and
records each adopted field under ``metadata["_from_text"]``:
``{field: {"value", "sentence", "start", "end", "by"}}``, where ``by`` says who adopted it
(``ingest --dates-from-text`` or ``review --accept-dates``), so evidence and review can
say the value came from the text. A ``supersedes`` name becomes an id only when exactly
one other document has that id or title (``Titles``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, tzinfo
from typing import Any

from chronorag.ingest.dates import DateError, parse_date
from chronorag.ingest.stated import FROM_TEXT, Proposal, clean_name, proposals_of
from chronorag.model import Document, Interval

__all__ = ["BY_INGEST", "BY_REVIEW", "BY_VERSIONS", "Titles", "adopt", "adoptable",
           "keep_accepted", "states_own_links"]

BY_INGEST = "ingest --dates-from-text"
BY_REVIEW = "review --accept-dates"
BY_VERSIONS = "review --accept-versions"
_ACCEPTED = frozenset({BY_REVIEW, BY_VERSIONS})
_DATE_FIELDS = ("valid_from", "modified_at")


def _key(name: str) -> str:
    return re.sub(r"[\W_]+", " ", clean_name(name).casefold()).strip()


@dataclass(frozen=True)
class Titles:
    """Document ids by id and by title, normalised (case, markup, punctuation)."""

    ids: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, pairs: Iterable[tuple[str, str]]) -> Titles:
        """From ``(id, title)`` pairs; an id also counts by its last path part."""
        found: dict[str, set[str]] = {}
        for doc_id, title in pairs:
            for name in {doc_id, doc_id.rsplit("/", 1)[-1], title}:
                if name and _key(name):
                    found.setdefault(_key(name), set()).add(doc_id)
        return cls({k: frozenset(v) for k, v in found.items()})

    def resolve(self, name: str, *, besides: str) -> str | None:
        """The one document other than ``besides`` that ``name`` names, else None."""
        ids = self.ids.get(_key(name), frozenset()) - {besides}
        return next(iter(ids)) if len(ids) == 1 else None


def adoptable(doc: Document, titles: Titles, *, tz: tzinfo = UTC
              ) -> list[tuple[Proposal, Any]]:
    """The proposals ``adopt`` would use, each with the field value it becomes (an
    ``Interval`` for a date, a document id for ``supersedes``)."""
    out: list[tuple[Proposal, Any]] = []
    for proposal in proposals_of(doc.metadata):
        value = _value(doc, proposal, titles, tz=tz)
        # One proposal per date field (``propose`` keeps the first), names may be several.
        if value is not None and all(v != value for _, v in out):
            out.append((proposal, value))
    return out


def adopt(doc: Document, titles: Titles, *, by: str, tz: tzinfo = UTC) -> Document:
    """``doc`` with its empty date and link fields filled from its proposals."""
    chosen = adoptable(doc, titles, tz=tz)
    if not chosen:
        return doc
    changes: dict[str, Any] = {}
    record = dict(doc.metadata.get(FROM_TEXT) or {})
    for proposal, value in chosen:
        if proposal.field == "supersedes":
            changes["supersedes"] = (*changes.get("supersedes", ()), value)
        else:
            changes[proposal.field] = value
        entry = {"value": proposal.value, "sentence": proposal.sentence,
                 "start": proposal.start, "end": proposal.end, "by": by}
        if proposal.field == "supersedes":
            entry["value"] = [*(record.get("supersedes", {}).get("value", [])), value]
            entry["names"] = [*(record.get("supersedes", {}).get("names", [])),
                              proposal.value]
        record[proposal.field] = entry
    return replace(doc, **changes, metadata={**doc.metadata, FROM_TEXT: record})


def keep_accepted(new: Document, stored: Document) -> Document:
    """``new``, the document read again from its file, with what a review accepted into
    its ``stored`` copy (``review --accept-dates`` / ``--accept-versions``, recorded under
    ``FROM_TEXT``): the user accepted those dates and links once, and ingesting the same
    folder again must not drop them. A field the file or ingest now fills itself, and a
    date the file now states, are the file's; accepted predecessors are added to the
    file's own."""
    record = stored.metadata.get(FROM_TEXT)
    if not isinstance(record, dict):
        return new
    own = dict(new.metadata.get(FROM_TEXT) or {})
    changes: dict[str, Any] = {}
    for name, entry in record.items():
        if not isinstance(entry, dict) or entry.get("by") not in _ACCEPTED or name in own:
            continue
        if name == "supersedes":
            kept = tuple(i for i in stored.supersedes
                         if i in entry.get("value", ()) and i not in new.supersedes)
            if not kept:
                continue
            changes[name] = (*new.supersedes, *kept)
        elif name in _DATE_FIELDS and getattr(new, name) is None \
                and getattr(stored, name) is not None:
            changes[name] = getattr(stored, name)
        else:
            continue
        own[name] = entry
    if not changes:
        return new
    return replace(new, **changes, metadata={**new.metadata, FROM_TEXT: own})


def states_own_links(doc: Document) -> bool:
    """Whether ``doc``'s front matter or JSON names predecessors of its own (links adopted
    from its text, or by ``review --accept-versions``, are recorded and do not count)."""
    adopted = (doc.metadata.get(FROM_TEXT) or {}).get("supersedes", {}).get("value", [])
    return bool(set(doc.supersedes) - set(adopted))


def _value(doc: Document, proposal: Proposal, titles: Titles, *, tz: tzinfo) -> Any:
    if proposal.field == "supersedes":
        if states_own_links(doc):
            return None
        target = titles.resolve(proposal.value, besides=doc.id)
        return None if target is None or target in doc.supersedes else target
    if proposal.field not in _DATE_FIELDS or getattr(doc, proposal.field) is not None:
        return None
    try:
        interval = parse_date(proposal.value, tz=tz)
    except DateError:
        return None
    return interval if _in_order(doc, proposal.field, interval) else None


def _in_order(doc: Document, name: str, interval: Interval) -> bool:
    """A start from text must come before the document's stated end."""
    if name != "valid_from" or doc.valid_to is None or doc.valid_to.start is None:
        return True
    return interval.start is not None and interval.start < doc.valid_to.start
