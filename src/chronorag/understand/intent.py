"""Question intent: does it ask for a time, a count of occurrences, or content?

COUNT is only for counting occurrences or records ("how many times", "how often", 几次);
"how many days do I have to return it" asks for content, not a count of records.

A "when" or "if" clause before the question proper sets its condition and asks nothing:
"When someone pays for a subscription, how much of the card number is kept?" asks an
amount, and is read from its main clause (after the comma) when that opens with a question
word of its own.
"""

from __future__ import annotations

import re

from chronorag.model import Intent

_COUNT = re.compile(
    r"\bhow\s+many\s+times\b|\bhow\s+often\b|\bhow\s+frequently\b|\bnumber\s+of\s+times\b"
    r"|\bhow\s+many\s+(?:occasions|visits|incidents|outages)\b"
    r"|几次|多少次|多少回|几回|几遍|多少遍|多频繁|频率",
    re.IGNORECASE)
_TIME = re.compile(
    r"(?:^|[,;:]\s*|\b(?:and|but|so|exactly|then)\s+)when\b|\b(?:since|until|till|by)\s+when\b"
    r"|\bwhat\s+time\b|\b(?:what|which)\s+(?:year|date|day|month|decade|century|season)\b"
    r"|\bhow\s+long\s+ago\b|\bwhat\s+(?:is|was)\s+the\s+date\b"
    r"|什么时候|啥时候|几点|哪天|哪一天|哪年|哪一年|何时|几月|哪个月|几号|什么时间|哪个时间|哪一月",
    re.IGNORECASE)


# What changed between versions; "when did it change" asks a time and is read as one.
_CHANGE = re.compile(
    r"\bwhat(?:\s+has|\s+have|\s+had)?\s+changed\b"
    r"|\bwhat\s+(?:are|were)\s+the\s+(?:changes|differences)\b|\bwhat\s+changes\b"
    r"|改了什么|改了哪些|改动了什么|有哪些改动|修改了什么|修改了哪些|更新了什么|更新了哪些"
    r"|有什么变化|有哪些变化|有何变化|变化了什么|变了什么|有什么不同|有何不同|区别是什么",
    re.IGNORECASE)


_CONDITION = re.compile(
    r"^\s*(?:when|whenever|if|once|after|before)\b[^,?;]*,\s*(?=(?:how|what|who|whom|"
    r"whose|which|where|why|when|can|could|do|does|did|is|are|was|were|will|would|"
    r"should|may|must)\b)", re.IGNORECASE)


def detect_intent(question: str) -> Intent:
    """COUNT for "how many times"/几次, TIME for "when"/"what year"/什么时候, CHANGE for
    "what changed"/改了什么, else CONTENT."""
    question = _CONDITION.sub("", question, count=1)
    if _COUNT.search(question):
        return Intent.COUNT
    if _TIME.search(question.strip()):
        return Intent.TIME
    if _CHANGE.search(question):
        return Intent.CHANGE
    return Intent.CONTENT
