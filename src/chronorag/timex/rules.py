"""Recognizer registry: a regex, a handler that turns a match into an interval, and flags.

Each language module registers its recognizers in priority order (most specific first).
The scanner compiles all of them into one alternation so a text is scanned in one pass.

A handler answers in one of three ways. An interval (or a ``Clock``) is a reading. ``None``
means "this rule does not apply here" (a too-wide year range, "Dec to Jan"): the scanner
tries the next rule at the same place. Raising ``ValueError`` or ``OverflowError`` (from
``datetime`` or ``calendar.Unheld``) means "this is a time, but an impossible one or one the
calendar cannot hold" (31 Feb, 500 BC, 9999-12): the scanner skips the whole match, so no
part of it is re-read as a different, wrong time. Handlers never catch these themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from chronorag.model import Interval
from chronorag.timex.calendar import Context

FLAGS = re.IGNORECASE
# Era markers, upper case only: "ad", "ce" and "bc" (because) are ordinary lower-case words.
# The final dot is optional because ``parse_one`` strips a trailing full stop ("500 B.C.").
BC = r"(?-i:BCE?|B\.C\.E\.?|B\.C\.?)(?![^\W\d_])"
AD = r"(?-i:AD|A\.D\.?|CE|C\.E\.?)(?![^\W\d_])"
#: Somewhere in a text that may hold an era: every ``era`` rule and every BC / AD / CE
#: after a time needs one of these, so a text without any skips that work. Loose on
#: purpose ("ADVANCED" passes): a plain alternation is searched many times faster.
ERA_MARK = re.compile(r"B\.?C|A\.?D|C\.?E|公元|前\d")


@dataclass(frozen=True)
class Clock:
    """A bare time of day; it becomes an interval once attached to a day."""

    hour: int
    minute: int | None


Result = Interval | Clock | None
Handler = Callable[[re.Match[str], Context], Result]


@dataclass(frozen=True)
class Rule:
    """One recognizer. ``relative`` rules need ``now``; ``kind`` is point, range or time;
    ``era`` rules only match next to an era marker (BC, AD, CE, 公元, 前), so a scanner
    leaves them out for a text without one. A rule that ``borrows`` "year" (6月, 3月5日) or
    "month" (31日) takes only that from ``now``: an earlier time of the same sentence at that
    granularity or finer anchors it instead (``engine.anchor_yearless``)."""

    name: str
    pattern: str
    handler: Handler
    relative: bool = False
    kind: str = "point"
    era: bool = False
    borrows: str | None = None
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, FLAGS))


class Registry:
    """An ordered list of rules, filled by the ``rule`` decorator."""

    def __init__(self) -> None:
        self.rules: list[Rule] = []

    def rule(self, pattern: str, *, relative: bool = False, kind: str = "point",
             era: bool = False, borrows: str | None = None) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self.rules.append(Rule(handler.__name__, pattern, handler, relative, kind, era,
                                   borrows))
            return handler
        return register
