"""The service's request limits (no FastAPI needed to name them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """``body_bytes``: largest request body; ``read_s``: longest a question (ask, context,
    review) may take before the answer is a 503. Uploads have no time limit: an ingest
    that was cut off would still be running."""

    body_bytes: int = 32 * 1024 * 1024
    read_s: float = 60.0
