"""One exception tree for chronorag; every message says what to do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class ChronoragError(Exception):
    """Base class of every error chronorag raises on purpose."""

    exit_code = 1


@dataclass(frozen=True)
class FieldError:
    """One problem in one input document: where it is and what is wrong."""

    path: str
    line: int
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: {self.reason}"


class ValidationError(ChronoragError):
    """Input documents were rejected; nothing of the offending file was stored."""

    exit_code = 2

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


class TimeParseError(ChronoragError):
    """A time expression could not be read."""


class ConfigError(ChronoragError):
    """A component name or setting is unknown; the message lists the valid choices."""


class MissingDependencyError(ChronoragError):
    """An optional dependency is not installed; the message names the extra to install."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed; install it with: pip install 'chronorag[{extra}]'"
        )


class StoreError(ChronoragError):
    """The store could not be opened or written."""
