"""Which chunks a query may retrieve: privacy, the people asked about, and event time.

Decided once per query before retrieval, so a record the asker may not see never enters
scoring, ranking, counts or answers:

* **Privacy**: a record (a document with a ``subject``) is readable by its subject, by
  the readers the subject granted access, and by an admin; a document without a subject
  is public.
* **People**: a question about named people keeps only records about them. A question
  that names only its asker, by a word for "I", keeps the asker's records and the public
  documents: "How many days do I have to return an item?" asks a policy, not a record.
* **Event time**: when the question's constraint has an interval, the scope carries it
  as a window over ``occurred_at``. It is no filter: a record written a day after its
  event ("yesterday") lies outside it. The search gathers candidates with and without
  it (``pipeline.search``) and the temporal scorer judges the times each text states.

The scope is a rule, not a list of ids: the search indexes turn it into a boolean mask
over their rows (``Catalog.mask``) without a loop over chunks, and the store checks the
same rule in SQL on what was found (``Store.visible_doc_ids``).
"""

from __future__ import annotations

from datetime import timedelta

from chronorag.model import Constraint, Interval, Query, Relation
from chronorag.people.model import Directory
from chronorag.store.scope import Scope
from chronorag.understand.entities import only_the_asker, subjects_of

__all__ = ["Scope", "build_scope", "event_window", "told_window"]

TOLD_AFTER = timedelta(days=14)
"""The least time after a period in which a text still names it by a relative phrase
("yesterday", "two days ago", "last Friday", "last week")."""


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


def told_window(window: Interval) -> Interval:
    """The records that may tell of what happened in ``window``: those said in it, and
    those said soon after, which name it by a phrase relative to when they were said
    ("yesterday", "last week", "last month", "last year"). A bounded window grows by its
    own length, by ``TOLD_AFTER`` at least; an open one is left as it is.

    Only for gathering candidates: the temporal stage then judges each record by the
    times its text states, so one said later about another time ranks below.
    """
    if window.start is None or window.end is None:
        return window
    try:
        return Interval(window.start, window.end + max(window.end - window.start, TOLD_AFTER),
                        window.granularity)
    except OverflowError:
        return Interval(window.start, None, window.granularity)


def build_scope(query: Query, people: Directory) -> Scope:
    """The scope of ``query``: readable by ``query.user`` given the access grants of
    ``people`` (everything for ``query.admin``), about the people it names, and inside
    its event window."""
    readable = None
    if not query.admin:
        user = query.user
        readable = frozenset() if user is None else frozenset(
            {user, *people.access.get(user, ())})
    entities = query.understanding.entities
    about = subjects_of(entities)
    return Scope(readable, None if about is None else frozenset(about),
                 event_window(query.constraint),
                 public=only_the_asker(entities, user=query.user))
