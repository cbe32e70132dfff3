"""The question without its time expressions and order words, still readable."""

from __future__ import annotations

import re
from collections.abc import Iterable

from chronorag.lang import SPACELESS

_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([?？.,，。!！;；:：)])")
_EMPTY_PAREN = re.compile(r"\(\s*\)")
_LEADING = re.compile(r"^[\s,，、;；:：]+|^(?:的|了)\s*")
_DANGLING = re.compile(r"\s*(?:,|，)\s*(?=[?？.。!！]|$)")
_DOUBLE_COMMA = re.compile(r"([,，])\s*[,，]")
_SPACELESS_GAP = re.compile(rf"(?<=[{SPACELESS}])\s+|\s+(?=[{SPACELESS}])")


def remove_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the given spans cut out and spacing and punctuation tidied."""
    out, pos = [], 0
    for start, end in sorted(spans):
        if start < pos:
            start = pos
        out.append(text[pos:start])
        pos = max(pos, end)
    out.append(text[pos:])
    # Join with a space so words on both sides of a cut never fuse; spaces are tidied below.
    result = " ".join(out)
    result = _EMPTY_PAREN.sub("", result)
    result = _DOUBLE_COMMA.sub(r"\1", result)
    result = _SPACE_BEFORE_PUNCT.sub(r"\1", result)
    result = _DANGLING.sub("", result)
    result = _SPACES.sub(" ", result).strip()
    result = _LEADING.sub("", result).strip()
    result = _cjk_spaces(result)
    if result and result[0].islower() and text.strip()[:1].isupper():
        result = result[0].upper() + result[1:]
    return result


def _cjk_spaces(text: str) -> str:
    """Drop the spaces the cutting left between Chinese characters."""
    return _SPACELESS_GAP.sub(lambda m: m.group(0) if _ascii_both_sides(text, m) else "", text)


def _ascii_both_sides(text: str, m: re.Match[str]) -> bool:
    before = text[m.start() - 1] if m.start() > 0 else ""
    after = text[m.end()] if m.end() < len(text) else ""
    return before.isascii() and after.isascii()
