"""The one place that reads the system clock, and the reading of the moments the entry
points take (``--now``, ``--as-of``, the API's and the MCP tools' ``now`` and ``as_of``).
Only the CLI, the servers and the facade's defaults use it."""

from __future__ import annotations

from datetime import UTC, datetime


def system_now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


def parse_moment(text: str) -> datetime:
    """An ISO 8601 date or datetime, naive or not (the engine reads a naive one in its
    zone); ``ValueError`` says what was wrong, for the caller to name the field."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not an ISO 8601 date or datetime: {text!r}") from None
