"""A time named by an event: the clause that says when, not what.

"博鳌亚洲论坛2019年年会当天，开始实施了什么处置方案？" asks what plan began on the day of the Boao
Forum, not about the forum; "On the day Apple released iOS 13.2, what did Huawei announce?"
asks about Huawei. The opening clause names a day (a month, a year) as "on 26 March 2019"
would, so, like a time expression, it leaves the content relevance is scored on: with it,
the words of the event draw the event's own reports above the answer. A time inside the
clause ("2019年") still sets the constraint: the event's day lies within it.

The event's own date is not looked up: the passage found for its words reported the day
of the asked event for 20 of 48 such ChronoQA questions (another year's expo, the day
before), too few to order candidates by.

Only an opening clause that ends at a comma counts, so "当月的通话时长用完以后…" (this month's
minutes) keeps its words.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from chronorag.model import Granularity, NamedTime

__all__ = ["EventClause", "named_time"]

_ZH_UNITS = {"当天": Granularity.DAY, "当日": Granularity.DAY, "那天": Granularity.DAY,
             "那一天": Granularity.DAY, "之日": Granularity.DAY, "当月": Granularity.MONTH,
             "那个月": Granularity.MONTH, "那一个月": Granularity.MONTH,
             "当年": Granularity.YEAR, "那年": Granularity.YEAR, "那一年": Granularity.YEAR}
_ZH = re.compile(
    r"^\s*(?:在|于)?(?P<event>[^，,。？?！!；;:：]{4,80}?)"
    rf"(?P<unit>{'|'.join(sorted(_ZH_UNITS, key=len, reverse=True))})\s*[，,]\s*")
_EN = re.compile(
    r"^\s*(?:on|in|during)\s+the\s+(?:same\s+)?(?P<unit>day|week|month|year)\s+"
    r"(?:that\s+|when\s+)?(?P<event>[^,?!;:]{3,120}?)\s*,\s*", re.IGNORECASE)
# The rest must still ask something: two letters or characters at least.
_ASKS = re.compile(r"\w.*\w", re.DOTALL)
# "On the day of the launch" / "in the year 2019": a time or a noun, not a clause.
_EN_CLAUSE = re.compile(r"^(?:of|before|after)\b|^\d", re.IGNORECASE)


class EventClause(NamedTuple):
    """An opening clause naming the question's time by an event: the time it names, the
    clause's span, and its unit word's span ("当月": the event's month, not now's)."""

    time: NamedTime
    span: tuple[int, int]
    unit_span: tuple[int, int]

    def holds_unit(self, at: int) -> bool:
        """Whether the character at ``at`` is of the unit word."""
        return self.unit_span[0] <= at < self.unit_span[1]


def named_time(question: str) -> EventClause | None:
    """The opening clause of ``question`` that names its time by an event ("…当天，", "On
    the day Apple released iOS 13.2, "), or ``None``."""
    for pattern in (_ZH, _EN):
        found = pattern.match(question)
        if found is None or not _ASKS.search(question[found.end():]):
            continue
        if pattern is _EN and _EN_CLAUSE.match(found["event"]):
            continue
        word = found["unit"]
        unit = _ZH_UNITS.get(word) or Granularity(word.lower())
        return EventClause(NamedTime(found["event"].strip(), unit),
                           (found.start(), found.end()), found.span("unit"))
    return None
