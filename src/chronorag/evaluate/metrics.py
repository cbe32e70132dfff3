"""Retrieval metrics as MRAG defines them: answer recall and evidence recall at k."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from chronorag.lang import HAN, KANA

# A word is a run of letters and digits; a Han or kana character is a word of its own, so
# an answer is found inside a run of Chinese ("火锅" in "晚饭吃了火锅", "1998" in "1998年").
_TOKEN = re.compile(f"[{HAN}{KANA}]|[^\\W{HAN}{KANA}]+")


def normalize_tokens(text: str) -> list[str]:
    """Lowercased word tokens, full-width forms folded (NFKC) and combining marks dropped;
    each Han or kana character is one token."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _TOKEN.findall(stripped.lower())


def contains_sequence(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """True when ``needle`` occurs as a contiguous token run in ``haystack``."""
    n = len(needle)
    if n == 0:
        return False
    first = needle[0]
    return any(
        haystack[i] == first and list(haystack[i : i + n]) == list(needle)
        for i in range(len(haystack) - n + 1)
    )


@dataclass(frozen=True)
class Span:
    doc_id: str
    start: int
    end: int

    def overlaps(self, other: Span) -> bool:
        return self.doc_id == other.doc_id and self.start < other.end and other.start < self.end


def answer_hit_ranks(chunk_texts: Sequence[str], answers: Iterable[str]) -> int | None:
    """1-based rank of the first chunk holding an answer string, or None."""
    needles = [normalize_tokens(a) for a in answers]
    for rank, text in enumerate(chunk_texts, 1):
        tokens = normalize_tokens(text)
        if any(contains_sequence(tokens, n) for n in needles):
            return rank
    return None


def evidence_hit_rank(chunk_spans: Sequence[Span], gold: Sequence[Span]) -> int | None:
    """1-based rank of the first chunk overlapping a gold evidence span, or None."""
    for rank, span in enumerate(chunk_spans, 1):
        if any(span.overlaps(g) for g in gold):
            return rank
    return None


def recall_at(ranks: Sequence[int | None], k: int) -> float:
    """Share of questions whose first hit ranks within ``k``."""
    if not ranks:
        return 0.0
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)
