"""``review --accept-dates``: the dates and links stored documents' texts state, written
into those documents (``chronorag.ingest.adopt``), as an update of the store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from chronorag.errors import ConfigError
from chronorag.ingest.adopt import BY_REVIEW, Titles, adopt
from chronorag.ingest.stated import FROM_TEXT
from chronorag.pipeline.ingest import Embedders, IngestReport, rewrite_documents
from chronorag.pipeline.stated import stored_titles
from chronorag.store.base import Store

__all__ = ["Accepted", "accept_dates"]


@dataclass(frozen=True)
class Accepted:
    """What ``accept_dates`` wrote: per document id, the fields filled and their values."""

    fields: dict[str, dict[str, Any]]
    report: IngestReport

    def to_json(self) -> dict[str, Any]:
        return {"accepted": self.fields, **self.report.to_json()}


def accept_dates(store: Store, ids: Sequence[str] | None, *, embedders: Embedders,
                 now: datetime, tz: tzinfo) -> Accepted:
    """Fill the empty valid_from, modified_at and supersedes of the documents ``ids``
    (all when None) from their texts' proposals; documents without any stay unchanged.

    Raises ``ConfigError`` naming ids that are not stored.
    """
    if ids is not None:
        missing = sorted(set(ids) - set(store.fingerprints(list(ids))))
        if missing:
            raise ConfigError(f"no stored document has the id(s) {', '.join(missing)}; "
                              "see chronorag review for the proposals")
    titles = Titles.of(stored_titles(store))
    changed, fields = [], {}
    for doc in store.documents(None if ids is None else sorted(set(ids))):
        adopted = adopt(doc, titles, by=BY_REVIEW, tz=tz)
        if adopted == doc:
            continue
        before = doc.metadata.get(FROM_TEXT) or {}
        after = adopted.metadata.get(FROM_TEXT) or {}
        fields[doc.id] = {name: entry["value"] for name, entry in after.items()
                          if before.get(name) != entry}
        changed.append(adopted)
    report = rewrite_documents(store, changed, embedders=embedders, now=now, tz=tz)
    return Accepted(fields, report)
