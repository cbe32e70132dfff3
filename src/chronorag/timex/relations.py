"""Relation words around a time expression: "before 1981", "2010年以来", "截至2020年底".

Conventions: "before X" is ``[None, X.start)``; "after X" is ``[X.end, None)`` (after the
*end* of the named period); "since X" / "from X" / X以来 / X至今 is ``[X.start, None)``;
"until X" / "by X" / 直到X / 到X为止 is ``[None, X.end)`` (X itself included); "as of X" /
截至X is ``as_of`` X; a range ("between X and Y", "from X to Y", X到Y之间) is
``[X.start, Y.end)``; any other time (with "in", "on", "during", 在 or no word) is ``in``,
and so is X前后 ("around X", not "before X").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chronorag.model import Interval, Relation
from chronorag.timex.engine import Found

_EN_PREFIX = re.compile(
    r"(?:^|(?<=[\s,(]))(?P<w>ever since|starting (?:in|from|on)|beginning (?:in|from|on)"
    r"|since|before|prior to|earlier than|after|later than"
    r"|until|up until|up till|till|up to|no later than|not later than|by|as of|as at"
    r"|from|starting|beginning|in|on|during|at|within|throughout|around|circa|for)\s+$",
    re.IGNORECASE)
_EN_SUFFIX = re.compile(
    r"\s*(?P<w>onwards?|and later|or later|and after|and earlier|or earlier|and before"
    r")\b", re.IGNORECASE)
_ZH_PREFIX = re.compile(r"(?P<w>自从|自|从|截至|截止到|截止|直到|到|至|在|于|早于|晚于)\s*$")
_ZH_SUFFIX = re.compile(
    r"\s*(?P<w>[或及](?:以前|之前|以后|之后)|以前|之前|前(?![后後])|以后|之后|后|以來|以来|起|开始"
    r"|至今|为止|期间|时|的时候|当时)")

_OWN_PREFIX = re.compile(r"from\b|between\b|[从自在]", re.IGNORECASE)

_WORDS: dict[str, Relation] = {
    "before": Relation.BEFORE, "prior to": Relation.BEFORE, "earlier than": Relation.BEFORE,
    "and earlier": Relation.UNTIL, "or earlier": Relation.UNTIL, "and before": Relation.UNTIL,
    "after": Relation.AFTER, "later than": Relation.AFTER,
    "and later": Relation.SINCE, "or later": Relation.SINCE, "and after": Relation.SINCE,
    "since": Relation.SINCE, "ever since": Relation.SINCE, "from": Relation.SINCE,
    "starting": Relation.SINCE, "starting in": Relation.SINCE, "starting from": Relation.SINCE,
    "starting on": Relation.SINCE, "beginning in": Relation.SINCE,
    "beginning from": Relation.SINCE, "beginning on": Relation.SINCE,
    "beginning": Relation.SINCE, "onwards": Relation.SINCE,
    "onward": Relation.SINCE,
    "until": Relation.UNTIL, "up until": Relation.UNTIL, "up till": Relation.UNTIL,
    "till": Relation.UNTIL, "up to": Relation.UNTIL, "by": Relation.UNTIL,
    "no later than": Relation.UNTIL, "not later than": Relation.UNTIL,
    "as of": Relation.AS_OF, "as at": Relation.AS_OF,
    "以前": Relation.BEFORE, "之前": Relation.BEFORE, "前": Relation.BEFORE,
    "早于": Relation.BEFORE, "以后": Relation.AFTER, "之后": Relation.AFTER,
    "后": Relation.AFTER, "晚于": Relation.AFTER, "自从": Relation.SINCE, "自": Relation.SINCE,
    "从": Relation.SINCE, "以来": Relation.SINCE, "起": Relation.SINCE, "开始": Relation.SINCE,
    "至今": Relation.SINCE, "直到": Relation.UNTIL, "到": Relation.UNTIL, "至": Relation.UNTIL,
    "为止": Relation.UNTIL, "截至": Relation.AS_OF, "截止到": Relation.AS_OF,
    "截止": Relation.AS_OF,
    # "X或之前" (X or before) includes X, as "X and earlier" does.
    "或以前": Relation.UNTIL, "或之前": Relation.UNTIL, "及以前": Relation.UNTIL,
    "及之前": Relation.UNTIL, "或以后": Relation.SINCE, "或之后": Relation.SINCE,
    "及以后": Relation.SINCE, "及之后": Relation.SINCE, "以來": Relation.SINCE,
}


@dataclass(frozen=True)
class Related:
    """A time expression with its relation and the span including the relation words."""

    relation: Relation
    interval: Interval
    start: int
    end: int
    found: Found


def _relation_of(word: str | None) -> Relation:
    return _WORDS.get((word or "").lower(), Relation.IN)


def constrain(relation: Relation, interval: Interval) -> Interval:
    """The interval a relation selects, e.g. before X -> ``[None, X.start)``."""
    g = interval.granularity
    if relation == Relation.BEFORE:
        return Interval(None, interval.start, g)
    if relation == Relation.AFTER:
        return Interval(interval.end, None, g)
    if relation == Relation.SINCE:
        return Interval(interval.start, None, g)
    if relation == Relation.UNTIL:
        return Interval(None, interval.end, g)
    return interval


def relate(text: str, found: Found, *, lo: int = 0, hi: int | None = None) -> Related:
    """The relation of ``found`` in ``text`` from the words right before and after it."""
    assert found.interval is not None
    hi = len(text) if hi is None else hi
    start, end = found.start, found.end
    before = _EN_PREFIX.search(text, max(lo, start - 20), start) or _ZH_PREFIX.search(
        text, max(lo, start - 4), start)
    after = _ZH_SUFFIX.match(text, end, hi) or _EN_SUFFIX.match(text, end, hi)
    pre, post = _relation_of(before and before["w"]), _relation_of(after and after["w"])
    if found.kind == "range" and _OWN_PREFIX.match(text, start):
        before = None  # "play for from 2009 to 2010": the range brings its own word
    if found.kind == "range":
        relation = Relation.BETWEEN
    elif post not in (Relation.IN,):
        relation = post
    else:
        relation = pre
    if before is not None and (pre != Relation.IN or relation == pre or _is_plain(before["w"])):
        start = before.start()
    if after is not None and (post != Relation.IN or _is_plain(after["w"])):
        end = after.end()
    interval = found.interval if relation == Relation.BETWEEN else constrain(
        relation, found.interval)
    return Related(relation, interval, start, end, found)


_PLAIN = {"in", "on", "during", "at", "within", "throughout", "around", "circa", "for",
          "在", "于", "期间", "时", "的时候", "当时"}


def _is_plain(word: str) -> bool:
    return word.lower() in _PLAIN
