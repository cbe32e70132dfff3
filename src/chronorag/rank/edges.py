"""The start or end of the state a time mention dates, for questions about a beginning or
an end ("appointed after 2015", "left in 2005"; see ``chronorag.understand.anchor``).

A mention names a period at some granularity; the state's first (or last) unit at that
granularity is its edge: "served from 2010 to 2018" began in 2010 and ended in 2018,
"in 2018" began and ended in 2018. A relation word can hide an edge: "until 2018" says
when a state ended, not when it began, and "since 2013" the reverse.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from chronorag.model import Anchor, Granularity, Interval, Mention, Relation
from chronorag.timex.calendar import add_months

_MONTHS = {Granularity.CENTURY: 1200, Granularity.DECADE: 120, Granularity.YEAR: 12,
           Granularity.SEASON: 3, Granularity.QUARTER: 3, Granularity.MONTH: 1}
_SPANS = {Granularity.WEEK: timedelta(weeks=1), Granularity.DAY: timedelta(days=1),
          Granularity.HOUR: timedelta(hours=1), Granularity.MINUTE: timedelta(minutes=1),
          Granularity.SECOND: timedelta(seconds=1)}
# Which relations leave an edge unstated.
_HIDES = {Anchor.START: (Relation.UNTIL, Relation.BEFORE, Relation.AFTER),
          Anchor.END: (Relation.SINCE, Relation.AFTER, Relation.BEFORE)}


def _moved(moment: datetime, granularity: Granularity | None, sign: int) -> datetime | None:
    if granularity in _MONTHS:
        try:
            day = add_months(moment.date(), sign * _MONTHS[granularity])
        except ValueError:  # past the calendar's first or last year
            return None
        return datetime.combine(day, moment.timetz())
    step = _SPANS.get(granularity) if granularity is not None else None
    if step is None:
        return None
    try:
        return moment + sign * step
    except OverflowError:
        return None


def edge(mention: Mention, anchor: Anchor) -> Interval | None:
    """The first (``START``) or last (``END``) unit of the mention's period, or None when
    the mention does not state that edge."""
    if mention.relation in _HIDES[anchor]:
        return None
    interval = mention.interval
    if interval.start is None or interval.end is None:
        return None
    g = interval.granularity
    if anchor is Anchor.START:
        moved = _moved(interval.start, g, 1)
        end = interval.end if moved is None else min(moved, interval.end)
        return Interval(interval.start, end, g)
    moved = _moved(interval.end, g, -1)
    start = interval.start if moved is None else max(moved, interval.start)
    return Interval(start, interval.end, g)
