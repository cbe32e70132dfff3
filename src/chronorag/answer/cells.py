"""The cell of a table row that answers "which X …" / "who …".

A table row is stored as ``Header: value; Header: value`` (``ingest.formats``): "Name of
Subprocessor: Zendesk; Description of Processing: Customer support ticketing system; …".
Asked "which subprocessor provided the ticketing system?", the answer is the value under
the header that names what the question asks for (Subprocessor), not the cell that repeats
the question's own words (the description): the row is found by what the question says,
the cell answers what it asks. A Chinese question names what it asks for after 哪些 /
什么 ("举了哪些例子"), and the header that shares one of its characters answers ("Mozilla
帐户用户示例").
"""

from __future__ import annotations

import re

from chronorag.lang import HAN, STATEMENT_STOP_WORDS, ZH_STOP_WORDS

__all__ = ["row_cell"]

_ROW = re.compile(r"[^:;\n]{1,80}: [^;\n]*(?:; [^:;\n]{1,80}: [^;\n]*)+")
_CELL = re.compile(r"(?:^|; )([^:;\n]{1,80}): ([^;\n]*)")
_ASKS = re.compile(r"\b(?:which|what)\s+((?:[a-z]+\s+){0,2}?[a-z]+)\b|\b(who|whom|whose)\b",
                   re.IGNORECASE)
_WORD = re.compile(r"[a-z]{3,}")
# "举了哪些例子" / "是什么类型": the Han noun after the question word; Chinese words of one
# meaning share a character more often than a whole word (例子 / 示例).
_ZH_ASKS = re.compile(f"(?:哪些|哪个|哪种|哪类|什么)([{HAN}]{{1,4}})")


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in _WORD.findall(text.lower())} - STATEMENT_STOP_WORDS


def row_cell(question: str, sentence: str) -> str | None:
    """The value of the cell ``question`` asks for when ``sentence`` is a table row, else
    None: the header sharing a word with what follows "which/what" ("which subprocessor"
    → "Name of Subprocessor"), or for "who" the header with "name"; None when no header
    or more than one fits."""
    if not _ROW.fullmatch(sentence.strip()):
        return None
    cells = [(header, value.strip()) for header, value in _CELL.findall(sentence.strip())]
    zh = _ZH_ASKS.search(question)
    if zh is not None:
        chars = set(zh.group(1)) - ZH_STOP_WORDS
        fitting = [v for h, v in cells if chars & set(h)]
        return fitting[0] if len(fitting) == 1 and fitting[0] else None
    asks = _ASKS.search(question)
    if asks is None:
        return None
    if asks.group(2):
        fitting = [v for h, v in cells if "name" in h.lower().split()]
    else:
        wanted = _words(asks.group(1))
        fitting = [v for h, v in cells if wanted & _words(h)]
    return fitting[0] if len(fitting) == 1 and fitting[0] else None
