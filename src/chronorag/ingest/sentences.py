"""Sentence spans of English and Chinese text, as character offsets into the text.

``sentencex`` does the segmentation. The text is first cut into blocks (paragraphs,
headings, list items, table rows) so that layout breaks are sentence breaks and the
language can be chosen per block: a paragraph of Chinese inside an English document is
segmented with Chinese rules.

sentencex's own abbreviation rules are kept; its segments are then joined again where it
ended a sentence that goes on (measured on tests/ingest/data/sentences_*.jsonl):

* a Latin period with a letter or digit right after it, no space between: a dotted
  initialism cut in two ("EU-U." + "S. Data", "在U." + "S.有");
* a measured list of abbreviations sentencex ends sentences at: titles and labels that
  always precede a name or number (Ms., Mx., Vol., Ch., Para., Ex., approx.), and, before a
  lower-case word or a digit, words that may also end a sentence (LLC., GmbH., incl., est.);
  English abbreviations inside a Chinese block too ("Dr. Wang的学生");
* a Chinese quotation that ends in a stop, followed by its speech tag ("“你好！”他说。").

Invariants (property-tested over arbitrary text): spans are in order, do not overlap,
carry no outer whitespace, and every non-space character of the text lies in exactly one
span; a block's layout break is always a sentence break.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from types import ModuleType

from chronorag.deps import import_module
from chronorag.lang import EAST_ASIAN, EAST_ASIAN_RE, HAN

__all__ = ["CJK", "cjk_count", "ends_inside_sentence", "split_sentences", "strip_span"]

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
            yield from strip_span(text, start + cursor, end)
            return
        # Text sentencex skipped (never seen, but cheap to guard) stays a sentence.
        yield from strip_span(text, start + cursor, start + found)
        yield start + found, start + found + len(stripped)
        cursor = found + len(stripped)
    if block[cursor:].strip():
        yield from strip_span(text, start + cursor, end)


def strip_span(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` without the whitespace at either side; nothing when it is blank."""
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
_OPENING_LABEL = re.compile(r"\s*[(（]\s*(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})\s*[)）]\s+")
_FALLBACK = re.compile(r".+?(?:[.!?]+(?=\s|$)|[。！？]+|$)", re.S)


def _segments(block: str) -> list[str]:
    """sentencex's sentences of ``block``; the fallback splitter where sentencex fails.

    sentencex is Rust: a bug in it panics, which reaches Python as pyo3's
    ``PanicException``, a ``BaseException``. A document must never fail to ingest because
    of its sentence splitter.
    """
    module = _sentencex()
    # sentencex ends no sentence of a block that opens with an enumerator ("(d) Firefox
    # Notes lets you take notes. A Mozilla account is required …" stays one): the block is
    # segmented without it, and the enumerator opens its first sentence.
    label = _OPENING_LABEL.match(block)
    at = label.end() if label else 0
    try:
        pieces = [piece for segment in module.segment(_language(block), block[at:])
                  for piece in _AFTER_FULL_WIDTH_END.split(segment) if piece]
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:
        log.warning("sentencex failed on a block of %d characters (%s: %s); split it by "
                    "punctuation instead", len(block), type(exc).__name__,
                    str(exc).splitlines()[0] if str(exc) else "")
        pieces = [m.group(0) for m in _FALLBACK.finditer(block[at:]) if m.group(0)]
    if at:
        pieces = [block[:at] + pieces[0], *pieces[1:]] if pieces else [block[:at]]
    return _rejoin(pieces)


def _sentencex() -> ModuleType:
    # Imported on first use through the guard: a missing package is one clear error,
    # not a traceback at the import of every command.
    return import_module("sentencex")


# Abbreviations sentencex (1.0.32) ends a sentence at, measured on the golden cases: these
# precede a name or a number and never end a sentence.
_PREFIXES = frozenset({
    "Mr", "Mrs", "Ms", "Mx", "Dr", "Prof", "Messrs", "No", "Nos", "Vol", "Vols", "Fig",
    "Figs", "Ch", "Sec", "Art", "Para", "Paras", "Ex", "Eq", "Eqs", "Tab", "Tel", "Approx",
    "approx", "ca", "cf", "vs", "viz", "e.g", "i.e"})
# These may end a sentence too: joined only before a lower-case word or a digit.
_SUFFIXES = frozenset({
    "Inc", "Ltd", "Co", "Corp", "LLC", "Pty", "GmbH", "Bros", "etc", "est", "max", "min",
    "incl", "excl", "resp", "al", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep",
    "Sept", "Oct", "Nov", "Dec", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "a.m",
    "p.m", "St", "Jr", "Sr"})
_LAST_WORD = re.compile(r"(?:^|[^A-Za-z.])((?:[A-Za-z]+\.)*[A-Za-z]+)\.$")
_INITIALISM_CUT = re.compile(r"(?:^|[^A-Za-z.])[A-Za-z]\.$")
_QUOTE_END = re.compile(r"[。！？!?][”’」』\"]$")
_SPEECH_TAG = re.compile(rf"[{HAN}]{{1,4}}(?:说|道|问|答|喊|叫|笑道)[。！？]?$")


def ends_inside_sentence(before: str, after: str) -> bool:
    """Whether a sentence break between ``before`` and ``after`` would cut one sentence.

    ``before`` is the text up to the break, ``after`` the text from it; see the module
    docstring for the rules.
    """
    head, tail = before.rstrip(), after.lstrip()
    if not head or not tail:
        return False
    if head.endswith(".") and head == before and tail == after and _INITIALISM_CUT.search(head):
        return tail[0].isascii() and tail[0].isalnum()
    if _QUOTE_END.search(head):
        return _SPEECH_TAG.match(tail.split("\n", 1)[0].rstrip()) is not None
    word = _LAST_WORD.search(head)
    if word is None:
        return False
    name = word.group(1)
    if name in _PREFIXES:
        return tail[0].isalnum() or tail[0] in "(\"'“‘$#"
    return name in _SUFFIXES and (tail[0].islower() or tail[0].isdigit())


def _rejoin(pieces: list[str]) -> list[str]:
    """Adjacent segments joined where the break between them cuts a sentence; segments are
    consecutive slices of the block, so a joined one still is."""
    joined: list[str] = []
    for piece in pieces:
        if joined and ends_inside_sentence(joined[-1], piece):
            joined[-1] += piece
        else:
            joined.append(piece)
    return joined


def asked_sentence(question: str) -> str | None:
    """The sentence of ``question`` that asks, when sentences stating the asker's case come
    before it: "I bought Pocket Premium through Google Play. Will Pocket refund me?" asks
    the second. The last sentence ending with a question mark; None when the question has
    no such sentence or nothing before it.

    The whole question is mostly its premise, and the model finds most relevant the
    passage that restates the premise ("…the terms said my data could be processed on
    servers in other countries. How did they say I had agreed to that transfer?" is
    answered by "By giving us information, you consent to this kind of transfer", not by
    the sentence about servers abroad)."""
    sentences = [question[start:end].strip() for start, end in split_sentences(question)]
    sentences = [s for s in sentences if s]
    asking = [i for i, s in enumerate(sentences) if s.endswith(("?", "？"))]
    return sentences[asking[-1]] if asking and asking[-1] > 0 else None
