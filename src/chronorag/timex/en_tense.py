"""The tense of the sentence around an English time word, for times without a year.

A bare "Friday", "Aug. 7" or "December" names one of several days or months; news usage
(and HeidelTime) picks by tense: with a past-tense verb the most recent one, with "will"
the next one, else the nearest. The marker closest to the time word in its sentence
decides; this is a heuristic over words, not a parser, and never fails on any input.
"""

from __future__ import annotations

import re

# Future markers are checked first at the same word, so "scheduled" counts as future. A
# capitalised word in -ed is a name ("the United States"), not a verb in the past tense, and
# most words in -eed are no past tense either ("succeed", "need", "indeed"; "agreed" is).
_MARKERS = re.compile(
    r"\b(?:(?P<f>will|won't|shall|would|going\s+to|plan(?:s|ned|ning)?|intends?\s+to"
    r"|scheduled|expected|expects?|due\s+to|upcoming|next|(?:is|are|set|slated)\s+to)|(?P<p>was|were|had|did|said|says|told|went|came|made|took|gave|got"
    r"|began|rose|fell|saw|met|left|won|lost|sold|bought|paid|held|brought|found|became"
    r"|kept|ran|led|struck|hit|spoke|wrote|announced|ago|last|earlier|since|(?-i:[a-z]{2,}ied"
    r"|(?!(?:hundred|shed|bed|red|wed)\b)(?!(?!(?:dis)?agreed|freed|decreed|guaranteed)[a-z]*eed\b)"
    r"[a-z]{2,}ed)))\b|'ll\b",
    re.IGNORECASE)
# A full stop after an initial ("Daniel P. Davison", "U.S.") or a common abbreviation ends
# no sentence.
_ABBREVIATIONS = ("Mr", "Ms", "Mrs", "Dr", "St", "Jr", "Sr", "Co", "No", "Inc", "Corp", "Gov",
                  "Sen", "Rep", "Gen", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep",
                  "Sept", "Oct", "Nov", "Dec", "Ltd", "Bros", "Mt", "Ft", "Lt", "Col", "Sgt")
_SENTENCE_END = re.compile(
    r"(?<![A-Z])" + "".join(rf"(?<!\b{a})" for a in _ABBREVIATIONS)
    + r"[.!?;](?=\s|$)|\n")
_REACH = 200


def tense(text: str, start: int, end: int) -> int:
    """-1 (past), +1 (future) or 0 (no marker) for the sentence holding ``text[start:end]``."""
    lo = max(0, start - _REACH)
    before = [m.end() for m in _SENTENCE_END.finditer(text, lo, start)]
    lo = before[-1] if before else lo
    after = _SENTENCE_END.search(text, end, end + _REACH)
    hi = after.start() if after is not None else min(len(text), end + _REACH)
    best, sign = None, 0
    for m in _MARKERS.finditer(text, lo, hi):
        if start <= m.start() < end:
            continue
        distance = start - m.end() if m.end() <= start else m.start() - end
        if best is None or distance < best:
            best, sign = distance, -1 if m["p"] else 1
    return sign
