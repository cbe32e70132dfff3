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
    """A package chronorag needs is missing or broken. The message is one line naming the
    PyPI package and the command that fixes it (``chronorag.deps`` builds these).

    Args:
        package: the PyPI distribution name.
        extra: the chronorag extra that installs it, when ``command`` is not given.
        command: the exact shell command that installs (or reinstalls) it.
        needed_for: what chronorag uses it for.
        reason: why an installed package failed to load; ``None`` when it is not installed.
    """

    _MAX_REASON = 200  # a long onnxruntime error would bury the command at the end

    def __init__(self, package: str, extra: str | None = None, *, command: str | None = None,
                 needed_for: str | None = None, reason: str | None = None) -> None:
        self.package = package
        self.command = command or f"pip install 'chronorag[{extra or package}]'"
        what = f"{package} (needed for {needed_for})" if needed_for else package
        if reason is None:
            message = f"{what} is not installed; install it with: {self.command}"
        else:
            # Library errors span lines; the CLI contract is one line per error.
            short = " ".join(reason.split())
            if len(short) > self._MAX_REASON:
                short = short[: self._MAX_REASON - 3] + "..."
            message = f"{what} failed to load ({short}); reinstall it with: {self.command}"
        super().__init__(message)


class StoreError(ChronoragError):
    """The store could not be opened or written."""


class NotFoundError(ChronoragError):
    """A document (or another stored thing) asked for by id is not in the store."""


class IngestError(ChronoragError):
    """An unexpected failure while preparing documents; names the file and document.

    Batches committed before it stay stored; the failing batch left the store as it was.
    """

    def __init__(self, path: str, where: str, stage: str, cause: BaseException) -> None:
        first = (str(cause).splitlines() or [""])[0]
        super().__init__(
            f"{path}: {where}: internal error while {stage} ({type(cause).__name__}: "
            f"{first}); that batch was not stored, earlier batches were. Please report this "
            "with the document that caused it")
