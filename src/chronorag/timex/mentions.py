"""Ingest-time mention extraction: absolute expressions only, fast.

A cheap pre-filter skips sentences without any digit or Chinese numeral (every absolute
expression has one), and one compiled alternation scans the rest in a single pass.

A relation word next to a mention opens it, as in a question ("自2013年起" is
``[2013-01-01, None)``, "until 2005" is ``[None, 2006-01-01)``, "2018年以前" is
``[None, 2018-01-01)``), and the mention's span covers those words: a statement that holds
since 2013 holds in 2020. "as of" / 截至 keep the named time (the statement is dated then,
not closed there), and "by" keeps it too: "by 2005 he had three children" describes a state
reached then, not one that ended.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from datetime import UTC

from chronorag.model import Mention, Relation
from chronorag.timex.engine import Found
from chronorag.timex.numerals import CN_NUM_CHARS
from chronorag.timex.pipeline import context, find
from chronorag.timex.relations import relate

_MAYBE_TIME = re.compile(rf"[0-9{CN_NUM_CHARS}]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_INGEST = context(None, UTC)  # no `now` at ingest: only absolute rules run
_OPENING = frozenset({Relation.SINCE, Relation.UNTIL, Relation.BEFORE, Relation.AFTER})
# Relation words that at ingest date a statement rather than bound it (see above).
_DATING_WORDS = re.compile(r"by\b", re.IGNORECASE)


def _mention(sentence: str, offset: int, f: Found) -> Mention:
    """``f`` as a mention, opened by a relation word next to it."""
    assert f.interval is not None
    related = relate(sentence, f)
    if related.relation not in _OPENING or _DATING_WORDS.match(sentence, related.start):
        return Mention(sentence[f.start:f.end], offset + f.start, offset + f.end, f.interval)
    return Mention(sentence[related.start:related.end], offset + related.start,
                   offset + related.end, related.interval)


def _own_mentions(text: str, start: int, end: int) -> tuple[Mention, ...]:
    sentence = text[start:end]
    if _MAYBE_TIME.search(sentence) is None:
        return ()
    found = find(sentence, _INGEST)
    return tuple(_mention(sentence, start, f) for f in found if f.interval is not None)


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
