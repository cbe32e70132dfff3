"""One raw entry of a semantic-layer file, as the loader read it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Entry"]


@dataclass(frozen=True)
class Entry:
    """One raw entry of a layer file with where it was read."""

    path: str
    line: int
    kind: str
    index: int
    value: Any
    field_lines: Mapping[str, int] = field(default_factory=dict)
