"""Which of several spans of one sentence answers the question.

A sentence often states more than one number, length or "immediately": "deleted within
30 days (… Interaction Data, which has a standard retention period of 90 days)". The one
whose own words and the words before it share most with the question answers
(:func:`nearest`); the longest or the shortest when the question asks for the most or the
least and each can be measured (:func:`extreme`); of "immediately" and a length, the one
whose clause shares the question's words (:func:`by_clause`). A length said in words
("for as long as your account is active") is a whole answer (:func:`worded_duration`).
"""

from __future__ import annotations

import re

from chronorag.answer.lengths import length_in_days
from chronorag.lang import HAN, STATEMENT_STOP_WORDS, has_han

__all__ = ["LEAST", "MOST", "WORDED_DURATION", "ZH_WORDED_DURATION", "by_clause",
           "content_words", "extreme", "nearest", "worded_duration"]

# A length of time said in words: "for the duration of the payment term", "for as long
# as your account is active", "within its defined window". The phrase runs to the end of
# its clause (a mark, or a word opening another: ``_CLAUSE_OPENS``), at most sixteen words
# past its head. "Until …" names the event that ends it, and that event is often two joined by
# "or" ("until they expire or are deleted", "until the end of the current Parliament or if
# either of the parties withdraws"): it runs to the next mark, and when none comes within
# twenty words it is no span.
_WORD_ON = r"[^\s,;:.()“”\"!?]+"
# A worded length runs on over "and"/"or" joining two of its verbs or conditions ("for as
# long as necessary to provide the services and fulfill the transactions you have
# requested"); one that a subject follows opens a clause of its own ("for the current
# billing period or we will refund the current month"), as "but", "unless" always do.
_CLAUSE_OPENS = (r"(?:(?:and|or)\s+(?:we|you|they|he|she|it|i|this|that|these|those|there|"
                 r"our|your|their|its)|but|unless|except|while)\b")
WORDED_DURATION = re.compile(
    rf"\b(?:until|till)(?:\s+{_WORD_ON}){{1,20}}(?=\s*(?:[,;:.()“”\"!?]|$))|"
    r"\b(?:(?:for|during|throughout)\s+(?:as\s+long\s+as|the\s+(?:duration|length|life|"
    r"lifetime|period|term|rest|remainder|span)\s+of|the\s+(?:current|remaining|entire|"
    r"whole|same|applicable|relevant)\s+(?:[a-z]+\s+){0,2}?(?:period|term|cycle))|within\s+"
    r"(?:its|their|the|our|your|a|an)\s+(?:[a-z]+\s+){0,2}?(?:window|period|time\s?frame|"
    rf"timeframe))\b(?:\s+(?!{_CLAUSE_OPENS})[^\s,;:.()“”\"]+){{0,16}}",
    re.IGNORECASE)
# The same in Chinese: 在您使用 Firefox 期间, 只要您的帐户处于活跃状态, 直至您删除帐户为止,
# 仅在完成邮件投递所需的时间内.
ZH_WORDED_DURATION = re.compile(r"在[^，,。；;、：:]{1,24}?期间|只要[^，,。；;、：:]{1,24}|"
                                r"(?:仅|只)?在[^，,。；;、：:]{1,24}?所需的?时间(?:内|里)|"
                                r"直(?:至|到)[^，,。；;、：:]{1,24}?(?:为止|$|(?=[，,。；;]))")
# The largest or the smallest of several: the span is chosen by value, not by position.
MOST = re.compile(r"\b(?:longest|maximum|most|highest|largest|greatest|upper\s+limit)\b|"
                  r"最长|最多|最大|最高|最久|上限", re.IGNORECASE)
LEAST = re.compile(r"\b(?:shortest|minimum|(?<!at\s)least|lowest|smallest|fewest|lower\s+"
                   r"limit)\b|最短|最少|最小|最低|下限", re.IGNORECASE)
# The words around a span that say what it is: mostly before it ("retention period of").
_BEFORE, _AFTER = 80, 30


def worded_duration(text: str) -> bool:
    """Whether ``text`` is a length of time said in words ("for as long as your account
    is active"): a whole answer to "how long" without a number."""
    text = text.strip().rstrip(".。")
    return (WORDED_DURATION.fullmatch(text) or ZH_WORDED_DURATION.fullmatch(text)) is not None


def nearest(question: str, sentence: str, found: list[re.Match[str]]) -> str:
    """Of several spans, the one whose words before it share the most content words with
    the question, then the one whose words just after it do, the first on a tie:
    "deleted within 30 days (… Interaction Data, which has a standard retention period of
    90 days)" asked for the retention period of Interaction Data answers 90 days. The
    words that say what a value is stand before it; those after it are as often the next
    clause's ("30 天内删除该数据（交互数据除外…")."""
    asked = content_words(question)
    # A Han character says about as much as a short English word: windows of as many
    # characters would reach three times as far.
    reach = 3 if has_han(sentence) else 1
    ahead, behind = _BEFORE // reach, _AFTER // reach

    def shared(match: re.Match[str]) -> tuple[int, int]:
        before = sentence[max(0, match.start() - ahead):match.start()]
        # A counted span's own words are its unit ("hours"), which the question may ask
        # for; a worded one's are a clause of any words ("… use of Firefox").
        inside = "" if worded_duration(match.group(0)) else match.group(0)
        after = sentence[match.end():match.end() + behind]
        return (len(asked & content_words(before + inside)),
                len(asked & content_words(before + inside + after)))

    return max(found, key=shared).group(0)  # max keeps the first of equals


def by_clause(question: str, sentence: str, found: list[re.Match[str]]) -> str:
    """Of "immediately" and a length, the one whose clause shares most of the question's
    words, as stems ("we will immediately suspend your account, and we may delete it after
    2 months": "suspend" asks the first, "deleted" the second); else ``nearest``'s."""
    asked = stems(question)
    # "act promptly to mitigate a breach and notify affected users without undue delay":
    # "and" / "but" / "or" join clauses as a comma does.
    bounds = [0, *(m.end() for m in re.finditer(r"[,;:.!?，；：。！？]|\s(?:and|but|or)\s",
                                                 sentence)), len(sentence)]

    def shared(match: re.Match[str]) -> int:
        start = max(b for b in bounds if b <= match.start())
        end = min((b for b in bounds if b >= match.end()), default=len(sentence))
        return len(asked & stems(sentence[start:end]))

    most = max(shared(m) for m in found)
    return nearest(question, sentence, [m for m in found if shared(m) == most])


def stems(text: str) -> set[str]:
    return {re.sub(r"(?:ing|ed|es|e|s)$", "", w) for w in content_words(text)}


def content_words(text: str) -> set[str]:
    lowered = text.lower()
    words = {w for w in re.findall(r"[a-z]{3,}", lowered) if w not in STATEMENT_STOP_WORDS}
    han = re.findall(f"[{HAN}]+", text)
    return words | {run[i:i + 2] for run in han for i in range(len(run) - 1)}


def extreme(question: str, sentence: str, found: list[re.Match[str]]) -> str | None:
    """The span nearest the question's words (``nearest``); the longest or shortest when
    the question asks for the most or the least ("the longest retention period", 最长期限)
    and each can be measured."""
    spans = [m.group(0) for m in found]
    most, least = MOST.search(question), LEAST.search(question)
    if len(spans) < 2:
        return spans[0] if spans else None
    if bool(most) == bool(least):
        return nearest(question, sentence, found)
    lengths = [length_in_days(span, most=bool(most)) for span in spans]
    if any(length is None for length in lengths):
        return spans[0]
    pick = max if most else min
    return spans[pick(range(len(spans)), key=lambda i: lengths[i] or 0.0)]
