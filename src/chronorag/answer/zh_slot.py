"""The span of a Chinese sentence that stands where a Chinese question asks.

Chinese leaves its question word where the answer stands: "还通过什么来验证网页" is answered
by "数字证书认证机构" in "…并通过数字证书认证机构验证网页…", "帐户的哪个板块" by "订阅与支付板块"
in "…帐户的订阅与支付板块并点击…". The question's words just before the question word and just
after it, found in the sentence in that order, bound the answer (``slot``).

A question word that is a determiner (哪个, 哪种, 什么样的) comes before the noun the answer
ends with ("哪个板块": "订阅与支付板块"), so the span keeps that noun, the first word
after it. Both bounds must be found: the modifiers of the noun back to 的 or a mark would
answer "一项什么样的许可" over "…浏览器的个人非排他性许可", but on XQuAD's Chinese questions
they were as often a modifier of the same noun elsewhere ("附近的百货公司" for "哪一家公司").

A span the question already says, one crossing a clause mark, one ending with a particle
("一篇题为地球理论的") or longer than ``MAX_SPAN`` characters is none.
"""

from __future__ import annotations

import re

from chronorag.retrieve.tokenize import pos_tagger

__all__ = ["slot"]

_WH = re.compile(r"什么样的?|哪一?[个种类项位家条款]|什么")
_DETERMINER = re.compile(r"什么样|哪")
# The clause that asks: the part of the question between marks that holds the question word.
_CLAUSE_MARKS = re.compile(r"[，,。；;？?！!：:]")
# Words that join the question word to what follows and are seldom in the answering
# sentence ("通过什么来验证": the sentence says "通过…验证").
_LINKS = re.compile(r"^(?:来|去|的|了|呢|\s)+")
_MARKS = re.compile(r"[，,。；;：:！!？?、（）()“”\"]")
_PARTICLES = ("的", "之", "地", "得")
MAX_SPAN = 20
_LONGEST_BOUND = 8


def slot(question: str, sentence: str) -> str | None:
    """The span of ``sentence`` standing where ``question``'s question word stands, or
    None (see the module docstring)."""
    asked = next((m for c in _CLAUSE_MARKS.split(question) if (m := _WH.search(c))), None)
    if asked is None:
        return None
    clause = asked.string
    before, after = clause[:asked.start()], _LINKS.sub("", clause[asked.end():])
    right = _bound(after, sentence, prefix=True)
    if right is None:
        return None
    end = right[0]
    left = _bound(before, sentence[:end], prefix=False)
    if left is None:
        return None
    span = sentence[left[1]:end].strip()
    if _DETERMINER.match(asked.group(0)) and span:
        # The noun is the first word after the determiner: "方法" of "方法备份数据".
        noun = next((w.word for w in pos_tagger().cut(sentence[end:right[1]])), "")
        span += noun
    if not span or span.endswith(_PARTICLES) or len(span) > MAX_SPAN \
            or _MARKS.search(span) or span in question:
        return None
    return span


def _bound(words: str, text: str, *, prefix: bool) -> tuple[int, int] | None:
    """Where the longest start (``prefix``) or end of ``words`` of two characters or more
    is found in ``text`` (the first place for a start, the last for an end), as (start,
    end) offsets in ``text``; None when not even two characters are."""
    words = words.strip()
    for size in range(min(len(words), _LONGEST_BOUND), 1, -1):
        piece = words[:size] if prefix else words[-size:]
        if not piece.strip() or piece != piece.strip():
            continue
        at = text.find(piece) if prefix else text.rfind(piece)
        if at >= 0:
            return at, at + size
    return None
