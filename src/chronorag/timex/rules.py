"""Recognizer registry: a regex, a handler that turns a match into an interval, and flags.

Each language module registers its recognizers in priority order (most specific first).
The scanner compiles all of them into one alternation so a text is scanned in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from chronorag.model import Interval
from chronorag.timex.calendar import Context

FLAGS = re.IGNORECASE


@dataclass(frozen=True)
class Clock:
    """A bare time of day; it becomes an interval once attached to a day."""

    hour: int
    minute: int | None


Result = Interval | Clock | None
Handler = Callable[[re.Match[str], Context], Result]


@dataclass(frozen=True)
class Rule:
    """One recognizer. ``relative`` rules need ``now``; ``kind`` is point, range or time."""

    name: str
    pattern: str
    handler: Handler
    relative: bool = False
    kind: str = "point"
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(self.pattern, FLAGS))


class Registry:
    """An ordered list of rules, filled by the ``rule`` decorator."""

    def __init__(self) -> None:
        self.rules: list[Rule] = []

    def rule(self, pattern: str, *, relative: bool = False,
             kind: str = "point") -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self.rules.append(Rule(handler.__name__, pattern, handler, relative, kind))
            return handler
        return register


def valid(build: Callable[[], Result]) -> Result:
    """Run ``build``; an impossible date (31 Feb, month 13) means no match."""
    try:
        return build()
    except (ValueError, KeyError, OverflowError):
        return None
