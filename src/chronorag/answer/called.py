"""The name a text gives a thing, for questions asking what it is called.

"What did the privacy statement call that state?" is answered by the words after
"called" in "GitHub may process data in a state called Not in a Position to Identify Data
(NPI)", not by the sentence that describes the state best; "what is the footer link
called" by the quoted name beside "link" in "click on the "Do Not Share My Personal
Information" link". A name runs to a mark, a bracket, or a word that starts a clause ("or",
"which").
"""

from __future__ import annotations

import re

from chronorag.lang import STATEMENT_STOP_WORDS

__all__ = ["asks_called", "called_span"]

_ASKS = re.compile(
    r"\bwhat\b[^?]*?\b(?:called|named|known\s+as|referred\s+to\s+as|termed)\b|"
    r"\bwhat\s+(?:do|does|did)\s+(?:[\w'’-]+\s+){1,4}?call\b|\bwhat\s+(?:other\s+|else\s+)?(?:name|term)s?\b|"
    r"(?:叫|称为|称作|叫做|名为)什么|(?:名称|名字)是什么|什么(?:名称|名字)", re.IGNORECASE)
_QUOTED = r"[\"“]([^\"“”]{2,80})[\"”]|「([^」]{1,40})」|《([^》]{1,40})》"
_AFTER = re.compile(
    rf"\b(?:called|named|known\s+as|referred\s+to\s+as|termed)\s+(?:{_QUOTED}|"
    r"([^\s,;:()\"“”.][^,;:()\"“”.]*?)(?=\s*[,;:()\"“”.]|\s+(?:or|which|that|where|when|"
    r"if|because|unless)\b|$))|"
    rf"(?:称为|称作|叫做|名为)(?:{_QUOTED}|([^，,。；;（(：:]{{1,20}}(?:[（(][^）)]{{1,30}}[）)])?))",
    re.IGNORECASE)
_ANY_QUOTED = re.compile(_QUOTED)
_CONDITION = re.compile(r"\s+(?:on|in|at|for|by|with|from|within)\s+([\w'’ -]+)$",
                        re.IGNORECASE)
_NEXT_WORD = re.compile(r"\s+([a-z]{3,})\b", re.IGNORECASE)


def asks_called(question: str) -> bool:
    """Whether ``question`` asks what something is called or named."""
    return _ASKS.search(question) is not None


def called_span(question: str, sentence: str) -> str | None:
    """The name ``sentence`` gives after "called" / "known as" / 称为 (a Chinese name with
    its original in brackets, 古鲁(guru), whole), else the one quoted name the question does
    not say beside a noun of the question ("the "Do Not Share …" link"); None when there is
    none or no one fits. A quoted name beside none is any quotation: a title (《关于废除私人
    弥撒》), a defined term."""
    said = question.lower()
    for found in _AFTER.finditer(sentence):
        name = next((g for g in found.groups() if g), "").strip()
        # "referred to as home page on mobile", asked what it goes by on mobile: the
        # question's own condition closing the name is not part of it.
        own = _CONDITION.search(name)
        if own and set(own.group(1).lower().split()) <= set(re.findall(r"[\w'’-]+", said)):
            name = name[:own.start()]
        if name and name.lower() not in said and len(name.split()) <= 12:
            return name
    quoted: dict[str, bool] = {}
    for found in _ANY_QUOTED.finditer(sentence):
        name = next(g for g in found.groups() if g).strip()
        if name.lower() in said:
            continue
        # The noun beside a quoted name says what it names: "the "Do Not Share …" link".
        beside = _NEXT_WORD.match(sentence, found.end())
        quoted[name] = quoted.get(name, False) or (
            beside is not None and beside.group(1).lower() not in STATEMENT_STOP_WORDS
            and re.search(rf"\b{re.escape(beside.group(1))}\b", said)
            is not None)
    labelled = [name for name, by_noun in quoted.items() if by_noun]
    return labelled[0] if len(labelled) == 1 else None
