"""Retrieval metrics as MRAG defines them (answer recall and evidence recall at k), evidence
recall over whole gold documents as LoCoMo scores it, and short-answer correctness."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

from chronorag.errors import TimeParseError
from chronorag.lang import HAN, KANA
from chronorag.model import Granularity, Interval
from chronorag.timex import parse, parse_one

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


@dataclass(frozen=True)
class GoldEvidence:
    """What answers a question: character spans of documents (TimeQA, XQuAD), or whole
    documents by id (LoCoMo's dialogue turns). A question uses one form."""

    spans: tuple[Span, ...] = ()
    docs: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.spans or self.docs)


def evidence_recall(hits: Sequence[Span], gold: GoldEvidence, *, k: int) -> float:
    """Evidence recall of one question at ``k``, in [0, 1].

    Gold documents by id: the share of distinct gold ids among the distinct document ids
    of the top ``k`` hits, as LoCoMo scores it (two gold turns, one found: 0.5). Gold spans:
    1 when a chunk in the top ``k`` overlaps any gold span, else 0, the first-hit rule of
    MRAG that TimeQA and XQuAD numbers were always reported with. No gold: 0.
    """
    if gold.docs:
        wanted = set(gold.docs)
        return len(wanted & {h.doc_id for h in hits[:k]}) / len(wanted)
    rank = evidence_hit_rank(hits, gold.spans)
    return 1.0 if rank is not None and rank <= k else 0.0


def evidence_rank(hits: Sequence[Span], gold: GoldEvidence) -> int | None:
    """1-based rank of the first hit on gold evidence (a gold span or a gold document)."""
    if gold.docs:
        wanted = set(gold.docs)
        return next((r for r, h in enumerate(hits, 1) if h.doc_id in wanted), None)
    return evidence_hit_rank(hits, gold.spans)


def mean(values: Sequence[float]) -> float | None:
    """The mean, or None for no values (a level without such questions has no score)."""
    return sum(values) / len(values) if values else None


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


# --- short answers ------------------------------------------------------------------------

_FINENESS = {g: i for i, g in enumerate(Granularity)}  # coarsest first
_DEPTH = {Granularity.YEAR: 1, Granularity.MONTH: 2, Granularity.DAY: 3}


@dataclass(frozen=True)
class ShortAnswerVerdict:
    """Whether a short answer matches any gold answer, and how many golds were judged as
    times (so a report can say how much of its score rests on time matching)."""

    right: bool
    time_golds: int


def judge_short_answer(answer: str | None, golds: Sequence[str], *, now: datetime,
                       tz: tzinfo = UTC, stated: Interval | None = None) -> ShortAnswerVerdict:
    """Judge ``answer`` against every gold answer; right when it matches one of them.

    A gold that reads as one calendar year, month or day (``gold_time``) is matched by time,
    so "last year" said in 2023 answers "2022"; any other gold by its words (see
    ``text_answer_right``). ``now`` is when the question was asked: relative golds and
    answers resolve against it. No answer (an abstention) is never right. ``stated`` is the
    time the answer says it names (``ask --json``'s ``answer_time``), read instead of the
    answer's text: a bare "2018 (…)" is no time expression to the parser.
    """
    times = [gold_time(g, now=now, tz=tz) for g in golds]
    right = answer is not None and any(
        text_answer_right(answer, g) if t is None else
        time_answer_right(answer, t, now=now, tz=tz, stated=stated)
        for g, t in zip(golds, times, strict=True))
    return ShortAnswerVerdict(right, sum(t is not None for t in times))


def gold_time(gold: str, *, now: datetime, tz: tzinfo = UTC) -> Interval | None:
    """``gold`` read as exactly one whole calendar year, month or day, else None.

    A range ("2019 to 2021"), an open side ("before 1981"), another granularity ("Q2 2023",
    "summer 2022") or text with more than the time ("the Sunday before 25 May") is judged by
    its words instead: only a single unit has a clear "same year/month/day".
    """
    try:
        when = parse_one(gold, now=now, tz=tz).interval
    except TimeParseError:
        return None
    if when.granularity not in _DEPTH or when.start is None or when.end is None:
        return None
    last = when.end - timedelta(microseconds=1)
    return when if _unit(last, when.granularity) == _unit(when.start, when.granularity) \
        else None


def time_answer_right(answer: str, gold: Interval, *, now: datetime,
                      tz: tzinfo = UTC, stated: Interval | None = None) -> bool:
    """The first time expression of ``answer`` (or ``stated``, the time it says it names) is
    at least as fine as ``gold`` and starts in the gold's year, month or day ("7 May 2023
    (yesterday, ...)" answers "May 2023"; "2023" does not: it is coarser than the gold)."""
    found = [stated] if stated is not None else [f.interval for f in parse(answer, now=now,
                                                                            tz=tz)]
    if not found or gold.granularity is None or gold.start is None:
        return False
    first = found[0]
    if first.start is None or first.granularity is None \
            or _FINENESS[first.granularity] < _FINENESS[gold.granularity]:
        return False
    start = first.start.astimezone(gold.start.tzinfo)
    return _unit(start, gold.granularity) == _unit(gold.start, gold.granularity)


def text_answer_right(answer: str, gold: str) -> bool:
    """The gold's normalized tokens occur as a contiguous run in the answer's (the answer
    may say more than the gold, not less)."""
    return contains_sequence(normalize_tokens(answer), normalize_tokens(gold))


def _unit(moment: datetime, granularity: Granularity) -> tuple[int, ...]:
    return (moment.year, moment.month, moment.day)[: _DEPTH[granularity]]
