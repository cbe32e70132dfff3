"""Which chunks a query may retrieve: privacy, the people asked about, and event time.

Computed once per query before retrieval, so a record the asker may not see (or one that
happened outside the asked period) never enters scoring, ranking, counts or answers:

* **Privacy** and **people** are a rule in the store query
  (:meth:`~chronorag.store.base.Store.visible_doc_ids`).
* **Event time**: when the question's constraint has an interval, documents whose
  ``occurred_at`` does not overlap it are removed. Documents without ``occurred_at``
  are unaffected: the temporal scorer judges the times their text states.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from chronorag.model import Constraint, Document, Interval, Query, Relation
from chronorag.store.base import Store
from chronorag.understand.entities import subjects_of


@dataclass(frozen=True)
class Scope:
    """The documents and chunks a query may retrieve; ``None`` means no restriction."""

    doc_ids: frozenset[str] | None = None
    chunk_ids: frozenset[str] | None = None


def event_window(constraint: Constraint) -> Interval | None:
    """The interval a record's ``occurred_at`` must overlap, or ``None`` for no filter.

    ``as_of`` is not a filter: a state recorded earlier may still hold at that time.
    """
    interval, relation = constraint.interval, constraint.relation
    if interval is None or relation in (Relation.NONE, Relation.AS_OF):
        return None
    if relation in (Relation.BEFORE, Relation.UNTIL):
        end = interval.end if relation is Relation.UNTIL else interval.start
        return Interval(None, end or interval.end) if (end or interval.end) else None
    if relation in (Relation.AFTER, Relation.SINCE):
        start = interval.end if relation is Relation.AFTER else interval.start
        return Interval(start or interval.start, None) if (start or interval.start) else None
    return interval


def out_of_window(documents: Iterable[Document], window: Interval) -> set[str]:
    """Ids of documents with an ``occurred_at`` that does not overlap ``window``."""
    return {d.id for d in documents
            if d.occurred_at is not None and not d.occurred_at.overlaps(window)}


def build_scope(store: Store, query: Query, documents: Mapping[str, Document]) -> Scope:
    """The scope of ``query``: visible to ``query.user`` (all for ``query.admin``), about
    the people it names, and inside its event window."""
    visible = store.visible_doc_ids(query.user, admin=query.admin,
                                    subjects=subjects_of(query.understanding.entities))
    window = event_window(query.constraint)
    late = out_of_window(documents.values(), window) if window is not None else set()
    if visible is None and not late:
        return Scope()
    allowed = frozenset((set(documents) if visible is None else visible) - late)
    return Scope(allowed, store.chunk_ids_of(sorted(allowed)))
