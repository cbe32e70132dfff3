"""The one place that reads the system clock; only the CLI and the facade's defaults use it."""

from __future__ import annotations

from datetime import UTC, datetime


def system_now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)
