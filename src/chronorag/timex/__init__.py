"""Time expressions (English and Chinese) -> intervals. (Placeholder until implemented.)"""

from __future__ import annotations

from collections.abc import Sequence

from chronorag.model import Mention


def sentence_mentions(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[Mention, ...]]:
    """Time mentions of each sentence span of ``text`` (placeholder: none)."""
    return [() for _ in spans]
