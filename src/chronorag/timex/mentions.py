"""Ingest-time mention extraction: absolute expressions only, fast.

A cheap pre-filter skips sentences without any digit or Chinese numeral (every absolute
expression has one), and one compiled alternation scans the rest in a single pass.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from datetime import UTC

from chronorag.model import Mention
from chronorag.timex.numerals import CN_NUM_CHARS
from chronorag.timex.pipeline import context, find

_MAYBE_TIME = re.compile(rf"[0-9{CN_NUM_CHARS}]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_INGEST = context(None, UTC)  # no `now` at ingest: only absolute rules run


def _own_mentions(text: str, start: int, end: int) -> tuple[Mention, ...]:
    sentence = text[start:end]
    if _MAYBE_TIME.search(sentence) is None:
        return ()
    found = find(sentence, _INGEST)
    return tuple(
        Mention(sentence[f.start:f.end], start + f.start, start + f.end, f.interval)
        for f in found if f.interval is not None
    )


def sentence_mentions(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[Mention, ...]]:
    """Absolute time mentions of each sentence ``[start, end)`` of ``text``.

    Offsets are absolute into ``text``. A sentence without a mention of its own inherits the
    nearest preceding mention of its paragraph (paragraphs are separated by a blank line),
    as one ``Mention`` with ``inherited=True`` and the original text, offsets and interval.
    """
    breaks = [m.start() for m in _PARAGRAPH_BREAK.finditer(text)] if "\n" in text else []
    result: list[tuple[Mention, ...]] = []
    last: Mention | None = None
    last_paragraph = -1
    for start, end in spans:
        paragraph = bisect.bisect_right(breaks, start)
        if paragraph != last_paragraph:
            last, last_paragraph = None, paragraph
        own = _own_mentions(text, start, end)
        if own:
            last = own[-1]
            result.append(own)
        elif last is not None:
            result.append((Mention(last.text, last.start, last.end, last.interval, True),))
        else:
            result.append(())
    return result
