"""A period the store has no valid version for: the hole an unanswered question falls in.

A corpus is only as good as its record of the period asked about. When nothing relevant
applies at ``as_of``, the versions of a document group (relevant evidence and upcoming
items of one title) may say why: one ended at or before ``as_of`` and the next starts
after it, or the only versions start later, or the last one ended. Only *declared*
validity counts (``valid_from``, ``valid_to`` and the start of a successor): the times a
text states are events, not a record of everything between them ("joined in 1990 … left
in 1996" leaves 1991-1995 unstated, yet the state held throughout), so a hole read from
them would be wrong for a quarter of TimeQA's answerable questions
(``benchmarks/coverage_holes.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from chronorag.flags import Flag
from chronorag.model import Evidence, Interval, Status

__all__ = ["uncovered"]


def uncovered(items: Sequence[Evidence], *, at: datetime) -> Interval | None:
    """The period around ``at`` that no version of the most relevant document group
    covers, or None when one covers it or the group declares no validity. ``items`` are
    the relevant evidence and upcoming items, best first; the group is the items with the
    first one's title (its id when it has none). A draft or retired version, or one for
    other askers, is no version of the asker's and is passed over."""
    versions = [i for i in items if i.status not in (Status.DRAFT, Status.RETIRED)
                and Flag.NOT_APPLICABLE not in i.flags]
    if not versions:
        return None
    key = _group(versions[0])
    group = [i for i in versions if _group(i) == key
             and (i.valid_from is not None or _end(i) is not None)]
    if not group or any(_covers(item, at) for item in group):
        return None
    ended = [end for item in group if (end := _end(item)) is not None and end <= at]
    later = [s for item in group if (s := item.valid_from) is not None and s > at]
    return Interval(max(ended, default=None), min(later, default=None))


def _group(item: Evidence) -> str:
    return item.title or item.doc_id


def _end(item: Evidence) -> datetime | None:
    """Where the item's validity ends: its ``valid_to`` or its successor's start."""
    return item.valid_until or item.valid_to


def _covers(item: Evidence, at: datetime) -> bool:
    end = _end(item)
    return (item.valid_from is None or item.valid_from <= at) and (end is None or at < end)
