"""The code a question asks for: a decision's, a clause's, a regulation's number.

A code is digits joined by dots, slashes or hyphens ("2021/914", "52.227-19", "1798.83"),
and a sentence that cites one usually cites it after a name that is not the label the
question asks by: "Which clause number do the terms cite for civilian agency contracts?"
over "… the Rights in Technical Data clause at 252.227-7013 (DOD contracts); subdivisions
(a) through (d) of 52.227-19 (Civilian agency contracts) …" (``number_code``), "published
under which Commission Implementing Decision?" and "What is that decision's number?" over
"… standard contractual clauses published by the European Commission under Commission
Implementing Decision 2021/914 …" (``named_code``).

Of several codes, the one whose parenthesis just after it (the label a list of codes
gives each) shares most of the asking sentence's words: the words of a case the question
states first ("A U.S. civilian agency wants …") are the case's, and another code's label
may share them.
"""

from __future__ import annotations

import re

from chronorag.answer.choose import content_words, nearest
from chronorag.ingest.sentences import asked_sentence

__all__ = ["named_code", "number_code"]

_CODE_PATTERN = r"(?<![\w./-])\d+(?:[./-]\d+)+(?![\w/]|[.-]\d)"
_CODE = re.compile(_CODE_PATTERN)
# "What is that decision's number?": the noun whose number is asked.
_OWNED_NUMBER = re.compile(r"\b([a-z]+)['’]s\s+number\b", re.IGNORECASE)
# "…, published under which Commission Implementing Decision?": a capitalised name the
# question ends by asking which of.
_WHICH_NAME = re.compile(r"\b(?:which|what)\s+((?:[A-Z][\w-]*\s+){0,4}[A-Z][\w-]*)\s*[?？]\s*$")
_SAYS_NUMBER = re.compile(r"\bnumbers?\b|编号", re.IGNORECASE)
_LABEL_AFTER = re.compile(r"\s*\(([^()]{1,80})\)")


def number_code(question: str, sentence: str) -> str | None:
    """The code of ``sentence`` that answers a question asking a citation's number by a
    label the sentence does not write before it ("which clause number" over "… of
    52.227-19"): of the codes with a dot or a slash, the one whose parenthesised label
    shares most of the asking sentence's words, else the one nearest the question's words;
    None when the sentence cites no such code."""
    # A citation asked by its number ("which clause number"), not by its name ("What
    # article was published in 1937?", 哪条高速公路), and no range ("27-30").
    codes = [m for m in _CODE.finditer(sentence) if re.search("[./]", m.group(0))]
    if not codes or not _SAYS_NUMBER.search(question):
        return None
    asked = content_words(asked_sentence(question) or question)

    def labelled(match: re.Match[str]) -> int:
        label = _LABEL_AFTER.match(sentence, match.end())
        return len(asked & content_words(label.group(1))) if label else 0

    best = max(codes, key=labelled)  # max keeps the first of equals
    return best.group(0) if labelled(best) else nearest(question, sentence, codes)


def named_code(question: str, sentence: str) -> str | None:
    """The code ``sentence`` writes just after the name ``question`` asks which of ("under
    which Commission Implementing Decision?") or whose number it asks ("that decision's
    number"); None when the question asks neither or the sentence writes no code there."""
    which = _WHICH_NAME.search(question)
    asked = which or _OWNED_NUMBER.search(question)
    if asked is None:
        return None
    name = re.escape(asked.group(1))
    # A name asked by its capitals is written so; a noun ("decision") may open a name.
    flags = 0 if which else re.IGNORECASE
    found = re.search(rf"\b{name}s?\s+(?:no\.?\s*|number\s+)?({_CODE_PATTERN})", sentence, flags)
    return found.group(1) if found else None
