"""Sentence spans of English and Chinese text, as character offsets into the text.

``sentencex`` does the segmentation. The text is first cut into blocks (paragraphs,
headings, list items, table rows) so that layout breaks are sentence breaks and the
language can be chosen per block: a paragraph of Chinese inside an English document is
segmented with Chinese rules.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from types import ModuleType

from chronorag.deps import import_module
from chronorag.lang import EAST_ASIAN, EAST_ASIAN_RE

__all__ = ["CJK", "cjk_count", "split_sentences"]

log = logging.getLogger(__name__)

# Ideographs, kana, Hangul and their punctuation: counted one character at a time.
CJK = EAST_ASIAN
_NON_SPACE = re.compile(r"\S")
_LINE = re.compile(r"[^\n]*\n?")
# A line that stands on its own: Markdown heading, list item, table row, quote.
_STRUCTURAL = re.compile(r"\s*(?:#{1,6}\s|[-*+•]\s|\d{1,3}[.)]\s|\||>)")
# A line ending like this ends its sentence even without a blank line after it.
_TERMINAL = re.compile(r"[.!?。！？…;；:：\"'”’)\]）」』]\s*$")
# Share of CJK characters above which a block is segmented as Chinese.
_CJK_SHARE = 0.3


def cjk_count(text: str) -> int:
    """Number of CJK characters in ``text``."""
    return len(EAST_ASIAN_RE.findall(text))


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans ``(start, end)`` of ``text``, in order, without outer whitespace.

    Every non-space character of ``text`` lies in exactly one span. Works on plain prose,
    Markdown layout and pre-tokenised text ("... in 1815 . It was ...").
    """
    spans: list[tuple[int, int]] = []
    for start, end in _blocks(text):
        spans.extend(_segment_block(text, start, end))
    return spans


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """Spans of layout blocks: runs of lines cut at blank, structural and terminal lines."""
    block_start: int | None = None
    previous_closes = False
    for match in _LINE.finditer(text):
        line = match.group()
        if not line:
            break
        if not line.strip():
            if block_start is not None:
                yield block_start, match.start()
            block_start = None
            continue
        structural = _STRUCTURAL.match(line) is not None
        if block_start is not None and (structural or previous_closes):
            yield block_start, match.start()
            block_start = None
        if block_start is None:
            block_start = match.start()
        previous_closes = structural or _TERMINAL.search(line) is not None
    if block_start is not None:
        yield block_start, len(text)


def _language(block: str) -> str:
    letters = len(_NON_SPACE.findall(block))
    return "zh" if letters and cjk_count(block) / letters >= _CJK_SHARE else "en"


def _segment_block(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Map sentencex segments of ``text[start:end]`` back to stripped absolute spans."""
    # One character for one, so offsets into ``block`` are offsets into ``text``.
    block = text[start:end].translate(_WIDE_SPACES)
    cursor = 0
    for segment in _segments(block):
        stripped = segment.strip()
        if not stripped:
            cursor += len(segment) if block.startswith(segment, cursor) else 0
            continue
        found = block.find(stripped, cursor)
        if found < 0:
            # sentencex returned text that is not in the block verbatim (normalised):
            # give up on exact mapping and emit the rest of the block as one sentence,
            # so that no character is lost.
            yield from _strip_span(text, start + cursor, end)
            return
        # Text sentencex skipped (never seen, but cheap to guard) stays a sentence.
        yield from _strip_span(text, start + cursor, start + found)
        yield start + found, start + found + len(stripped)
        cursor = found + len(stripped)
    if block[cursor:].strip():
        yield from _strip_span(text, start + cursor, end)


def _strip_span(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    piece = text[start:end]
    left = len(piece) - len(piece.lstrip())
    right = len(piece.rstrip())
    if right > left:
        yield start + left, start + right


# sentencex panics on a multi-byte space before a period ("E\u3000."): it steps back one
# byte, not one character. Every Unicode space beyond ASCII is given to it as " ".
_WIDE_SPACES = dict.fromkeys(map(ord, "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                                 "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"),
                             " ")
# Fallback segmentation: up to and including a run of sentence-final punctuation, followed
# by whitespace or the end of the block for Latin stops; Chinese stops end a sentence as is.
# A full-width stop ends a sentence whatever follows it (it is never a decimal point), but
# sentencex keeps "…总裁。2016年，…" together when a digit or Latin letter follows.
_AFTER_FULL_WIDTH_END = re.compile(r"(?:(?<=[。！？][”’」』）])|(?<=[。！？]))(?=[0-9A-Za-z])")
_FALLBACK = re.compile(r".+?(?:[.!?]+(?=\s|$)|[。！？]+|$)", re.S)


def _segments(block: str) -> list[str]:
    """sentencex's sentences of ``block``; the fallback splitter where sentencex fails.

    sentencex is Rust: a bug in it panics, which reaches Python as pyo3's
    ``PanicException``, a ``BaseException``. A document must never fail to ingest because
    of its sentence splitter.
    """
    module = _sentencex()
    try:
        return [piece for segment in module.segment(_language(block), block)
                for piece in _AFTER_FULL_WIDTH_END.split(segment) if piece]
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:
        log.warning("sentencex failed on a block of %d characters (%s: %s); split it by "
                    "punctuation instead", len(block), type(exc).__name__,
                    str(exc).splitlines()[0] if str(exc) else "")
        return [m.group(0) for m in _FALLBACK.finditer(block) if m.group(0)]


def _sentencex() -> ModuleType:
    # Imported on first use through the guard: a missing package is one clear error,
    # not a traceback at the import of every command.
    return import_module("sentencex")
