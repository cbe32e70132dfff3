"""Sentence-aligned chunks of a document, with offsets into its text.

Size is measured in *word units* so English and Chinese share one budget:

    size = (whitespace tokens holding a letter or digit, CJK excluded)
           + (CJK characters) / (max_cjk_chars / max_words)

With the defaults (200 words, 300 CJK characters) 1.5 Chinese characters count as one
word, so a Chinese chunk is at most ~300 characters and an English one ~200 words.
Punctuation tokens (the " , " of pre-tokenised text) count nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, tzinfo

from chronorag.ingest.formats.layout import LAYOUT_KEY
from chronorag.ingest.sentences import CJK, split_sentences, strip_span
from chronorag.model import Chunk, Document, Sentence
from chronorag.timex import sentence_mentions

# What a document's chunks, sentences and their time mentions come from. Bump it whenever
# any of them would come out differently for the same text (chunking rules, the sentence
# splitter, the time parser's ingest rules): stored documents then count as changed and
# the next ingest or ``chronorag reindex`` rebuilds them.
CHUNKER_VERSION = "9"

__all__ = ["chunk_document", "text_size"]

_TOKEN = re.compile(f"[{CJK}]|[^\\s{CJK}]+")
_CJK_CHAR = re.compile(f"[{CJK}]")
_WORDISH = re.compile(r"[^\W_]")
# A whole non-CJK token holding a letter or digit; counting matches is the fast path of
# text_size (same result as summing _token_weight over _TOKEN matches).
_WORD_TOKEN = re.compile(f"[^\\s{CJK}]*[^\\W_{CJK}][^\\s{CJK}]*")
# A token after which a long sentence may be cut more gracefully than mid-clause.
_SOFT_END = re.compile(r"[,;:，；：、)）]$")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r]*\n")


@dataclass(frozen=True)
class _Unit:
    """A sentence (or a piece of an over-long one) with its size in word units."""

    start: int
    end: int
    size: float


def text_size(text: str, *, cjk_per_word: float = 1.5) -> float:
    """Size of ``text`` in word units (see the module docstring)."""
    return len(_WORD_TOKEN.findall(text)) + len(_CJK_CHAR.findall(text)) / cjk_per_word


def _token_weight(token: str, cjk_per_word: float) -> float:
    if _CJK_CHAR.fullmatch(token):
        return 1.0 / cjk_per_word
    return 1.0 if _WORDISH.search(token) else 0.0


def chunk_document(doc: Document, *, max_words: int = 200, target_words: int = 120,
                   max_cjk_chars: int = 300, tz: tzinfo = UTC) -> tuple[Chunk, ...]:
    """Cut ``doc.text`` into sentence-aligned chunks.

    A chunk closes once it reaches ``target_words`` units, before it would pass
    ``max_words``, or at a paragraph break when it already holds ``target_words / 2``.
    A sentence longer than ``max_words`` is cut at word (or CJK character) boundaries.
    ``doc.text[chunk.start:chunk.end] == chunk.text``; each chunk carries its sentences
    (indexed within the document) with their time mentions: relative phrases are read
    against the document's reference time in the calendar of ``tz`` (the zone its naive
    dates were read in), absolute ones alone when it has none.
    """
    if max_words <= 0 or not 0 < target_words <= max_words or max_cjk_chars <= 0:
        raise ValueError("need 0 < target_words <= max_words and max_cjk_chars > 0")
    per_word = max_cjk_chars / max_words
    units = _units(doc.text, max_words, per_word, blocks=_blocks(doc), rows=_rows(doc))
    if not units:
        return ()
    spans = [(u.start, u.end) for u in units]
    mentions = sentence_mentions(doc.text, spans, anchor=doc.reference_time, tz=tz)
    sentences = [
        Sentence(doc.id, index, u.start, u.end, doc.text[u.start:u.end], tuple(found))
        for index, (u, found) in enumerate(zip(units, mentions, strict=True))
    ]
    groups = _group(doc.text, units, max_words, target_words)
    chunks = []
    for index, (first, last) in enumerate(groups):
        start, end = units[first].start, units[last].end
        chunks.append(Chunk(f"{doc.id}#{index}", doc.id, index, start, end,
                            doc.text[start:end], tuple(sentences[first:last + 1])))
    return tuple(chunks)


def _blocks(doc: Document) -> list[tuple[int, int]] | None:
    """The lines that stand alone in a text read from a file (a list item, a table row):
    a sentence never runs from one into the next. ``None`` when the document has no
    layout (or one that does not fit its text)."""
    layout = doc.metadata.get(LAYOUT_KEY)
    blocks = layout.get("blocks") if isinstance(layout, Mapping) else None
    if not isinstance(blocks, list):
        return None
    spans, end = [], 0
    for block in blocks:
        span = _pair(block)
        if span is None or not end <= span[0] <= span[1] <= len(doc.text):
            return None
        spans.append(span)
        end = span[1]
    return spans


def _rows(doc: Document) -> frozenset[tuple[int, int]]:
    """The blocks that are table rows, from a layout that records them."""
    layout = doc.metadata.get(LAYOUT_KEY)
    rows = layout.get("rows") if isinstance(layout, Mapping) else None
    if not isinstance(rows, list):
        return frozenset()
    return frozenset(span for span in map(_pair, rows) if span is not None)


def _pair(value: object) -> tuple[int, int] | None:
    """A stored ``[start, end]`` of a layout, or None when it is not two integers."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return value[0], value[1]
    return None


def _sentences(text: str, blocks: list[tuple[int, int]] | None,
               rows: frozenset[tuple[int, int]] = frozenset()) -> list[tuple[int, int]]:
    """Sentence spans of ``text``, within its layout blocks. A table row is one record
    ("Cookie Name: x; Description: … recently.; Expiration: one hour"): one sentence,
    whatever marks its cells hold, so the cell a question asks for stays with its row."""
    if blocks is None:
        return split_sentences(text)
    spans: list[tuple[int, int]] = []
    for start, end in blocks:
        if (start, end) in rows:
            spans.extend(strip_span(text, start, end))
        else:
            spans.extend((start + a, start + b) for a, b in split_sentences(text[start:end]))
    return spans


def _units(text: str, limit: int, per_word: float, *,
           blocks: list[tuple[int, int]] | None = None,
           rows: frozenset[tuple[int, int]] = frozenset()) -> list[_Unit]:
    units: list[_Unit] = []
    for start, end in _sentences(text, blocks, rows):
        size = text_size(text[start:end], cjk_per_word=per_word)
        if size <= limit:
            units.append(_Unit(start, end, size))
        else:
            units.extend(_split_long(text, start, end, limit, per_word))
    return units


def _split_long(text: str, start: int, end: int, limit: int, per_word: float) -> list[_Unit]:
    """Cut one over-long sentence into pieces of at most ``limit`` units.

    A piece ends after a comma-like token when one lies in its second half, else at the
    last token that fits.
    """
    tokens = [(m.start(), m.end(), _token_weight(m.group(), per_word),
               _SOFT_END.search(m.group()) is not None)
              for m in _TOKEN.finditer(text, start, end)]
    pieces: list[_Unit] = []
    i = 0
    while i < len(tokens):
        size, j, soft, soft_size = 0.0, i, -1, 0.0
        while j < len(tokens) and (j == i or size + tokens[j][2] <= limit):
            size += tokens[j][2]
            if tokens[j][3] and size >= limit / 2:
                soft, soft_size = j, size
            j += 1
        if j < len(tokens) and soft >= 0:
            j, size = soft + 1, soft_size
        pieces.append(_Unit(tokens[i][0], tokens[j - 1][1], size))
        i = j
    return pieces


def _group(text: str, units: Sequence[_Unit], max_words: int,
           target_words: int) -> list[tuple[int, int]]:
    """Greedy packing of units into ``(first, last)`` index ranges."""
    groups: list[tuple[int, int]] = []
    sizes: list[float] = []
    first, size = 0, 0.0
    for k, unit in enumerate(units):
        if k > first:
            paragraph = _PARAGRAPH_BREAK.search(text, units[k - 1].end, unit.start)
            if (size + unit.size > max_words or size >= target_words
                    or (paragraph is not None and size >= target_words / 2)):
                groups.append((first, k - 1))
                sizes.append(size)
                first, size = k, 0.0
        size += unit.size
    groups.append((first, len(units) - 1))
    sizes.append(size)
    # A short tail reads badly alone; fold it into the previous chunk when it fits and
    # no paragraph break the previous chunk was entitled to keep lies between them.
    if len(groups) > 1 and size < target_words / 2 and sizes[-2] + size <= max_words:
        prev_first, prev_last = groups[-2]
        between = _PARAGRAPH_BREAK.search(text, units[prev_last].end, units[prev_last + 1].start)
        if between is None or sizes[-2] < target_words / 2:
            groups[-2:] = [(prev_first, len(units) - 1)]
    return groups
