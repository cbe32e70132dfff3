"""What reading relative phrases at ingest costs: sentences per second of time-mention
extraction with a reference time (every rule, relative ones included) against without one
(absolute rules only, behind the digit pre-filter), on the same sentences in one process.

    python benchmarks/anchored_mentions.py [--corpus ../shared/data/timeqa/corpus.jsonl]
                                           [--limit 20000]

Ratio = anchored sentences/s ÷ absolute-only sentences/s (best of 3 each). The anchored
path runs only for documents with a ``published_at`` or ``occurred_at``.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from pathlib import Path

from chronorag.ingest import split_sentences
from chronorag.timex import sentence_mentions

ROOT = Path(__file__).resolve().parents[1]
ANCHOR = datetime(2023, 1, 20, 16, 4, tzinfo=UTC)


def _texts(corpus: Path, limit: int) -> list[tuple[str, list[tuple[int, int]]]]:
    out: list[tuple[str, list[tuple[int, int]]]] = []
    count = 0
    with corpus.open(encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)["text"]
            spans = list(split_sentences(text))[: max(limit - count, 0)]
            out.append((text, spans))
            count += len(spans)
            if count >= limit:
                break
    return out


def _rate(texts: list[tuple[str, list[tuple[int, int]]]], anchor: datetime | None) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for text, spans in texts:
            sentence_mentions(text, spans, anchor=anchor)
        best = min(best, time.perf_counter() - started)
    return sum(len(s) for _, s in texts) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path,
                        default=ROOT.parent / "shared" / "data" / "timeqa" / "corpus.jsonl")
    parser.add_argument("--limit", type=int, default=20000, help="sentences")
    args = parser.parse_args()
    texts = _texts(args.corpus, args.limit)
    sentence_mentions("warm up yesterday 2021", [(0, 22)], anchor=ANCHOR)
    absolute, anchored = _rate(texts, None), _rate(texts, ANCHOR)
    n = sum(len(s) for _, s in texts)
    print(f"| mentions ({n:,} sentences of {args.corpus.name}) | sentences/s |")
    print("|---|---:|")
    print(f"| absolute only (no reference time) | {absolute:,.0f} |")
    print(f"| every rule, read at a reference time | {anchored:,.0f} |")
    print(f"| ratio anchored ÷ absolute | {anchored / absolute:.2f} |")


if __name__ == "__main__":
    main()
