"""The things a Chinese sentence enumerates, for a question asking 哪些.

"Mozilla Monitor 会扫描检查我的哪些信息有没有被泄露？" is answered by "密码、电话号码或其他个人信息"
in "…以查看您的密码、电话号码或其他个人信息是否在任何已知的数据泄露事件中被泄露。", not by the
whole sentence: a list of items joined by 、 (the last often by 和 / 或 / 及) is the shape of
a 哪些 answer, as "such as" is in English (``answer.examples``). Chinese has no spaces, so
the first item's start and the last item's end are found by part of speech: the first
item is what follows the last function word before it (的, a preposition, a pronoun),
the last item a first word and the nouns after it ("其他个人信息", not "…是否在…").
Of several lists in one sentence, the one followed by most of the words that follow 哪些
in the question answers it ("哪些损失造成的直接或间接损害赔偿" over "…、数据丢失或计算机故障
造成的直接或间接损害赔偿"); a list the question already says is no answer.
"""

from __future__ import annotations

import re

from chronorag.answer.cells import is_row
from chronorag.lang import HAN
from chronorag.retrieve.tokenize import pos_tagger

__all__ = ["zh_listed"]

_ASKS = re.compile(r"哪些|哪几")
_ITEM = rf"[{HAN}A-Za-z0-9·/\- ]+"
_RUN = re.compile(rf"{_ITEM}(?:、{_ITEM})+")
_JOIN = re.compile(r"以及|或者|及|和|或|与")
# Items in quotation marks ("如“适销性”、“不侵权”"): the marks bound each item, no word
# needs telling apart.
_QUOTED = r"[“「『][^“”「」『』、，,。；;]{1,40}[”」』]"
_QUOTED_RUN = re.compile(rf"{_QUOTED}(?:、{_QUOTED})*(?:(?:、|{_JOIN.pattern}){_QUOTED})")
# Where the first item starts: after punctuation, 的 / 地 / 得, a preposition, a pronoun, an
# adverb, a conjunction, a locative (…的情况下), a numeral or an interjection.
_BEFORE_FIRST = frozenset({"x", "uj", "ul", "uz", "ug", "ud", "uv", "p", "r", "d", "c", "f",
                           "y", "e", "m", "zg"})
# Words that say a list gives examples of what was just named ("保证，如…").
_SUCH_AS = ("包括", "包含", "例如", "比如", "诸如", "如")
# Words that introduce a list, not part of its first item ("包括板球、…").
_INTRODUCERS = frozenset({*_SUCH_AS, "即", "是", "为", "有"})
# What cannot open the last item: punctuation, 的, a preposition, a conjunction, an adverb
# (a pronoun can: "其他个人信息").
_NOT_OPENING = frozenset({"x", "uj", "ul", "uz", "ug", "ud", "uv", "p", "c", "d"})
# What may follow the last item's first word inside it: nouns and noun-like words.
_NOUNISH = ("n", "eng", "vn", "an", "j", "l", "i")
# The end of the text before a list that introduces it ("…法律担保或保证，如").
_INTRODUCED = re.compile(rf"(?:{'|'.join(_SUCH_AS)})[：:，,]?\s*$")
# How far after a list the question's words are looked for.
_AFTER = 16


def zh_listed(question: str, sentence: str) -> str | None:
    """The 、-list of ``sentence`` that answers a 哪些 ``question``; None otherwise."""
    wh = _ASKS.search(question)
    # A table row's cells are chosen by their headers (``answer.cells``), not as a list.
    if wh is None or is_row(sentence):
        return None
    asked_after = _bigrams(question[wh.end():])
    said = _bigrams(question)
    best: tuple[int, str] | None = None
    runs = [(m, _items(m.group(0))) for m in _RUN.finditer(sentence)]
    runs += [(m, m.group(0)) for m in _QUOTED_RUN.finditer(sentence)]
    for found, items in runs:
        if items is None or _bigrams(items) <= said:
            continue
        # The items are one stretch of the run: what follows them is read after them.
        start = sentence.find(items, found.start())
        end = start + len(items)
        # The question's words just before a list introduced by 如 / 包括 name what it
        # lists ("否认任何法律担保或保证，如“适销性”、…") as the words after it do.
        before = sentence[max(0, start - _AFTER):start]
        named = _bigrams(before) if _INTRODUCED.search(before) else set()
        follows = len(asked_after & (_bigrams(sentence[end:end + _AFTER]) | named))
        if best is None or follows > best[0]:
            best = (follows, items)
    return None if best is None else best[1]


def _items(run: str) -> str | None:
    """The list a run of 、-joined text holds, its first and last items cut to their
    words; None when an item is empty."""
    parts = run.split("、")
    first = _first_item(parts[0])
    tail = parts[-1]
    joined = _JOIN.search(tail)
    if joined is not None and joined.start() > 0:
        last = _last_item(tail[joined.end():])
        middle = [*parts[1:-1], tail[:joined.start()]]
        closing = joined.group(0) + last
    else:
        last = _last_item(tail)
        middle, closing = parts[1:-1], "、" + last
    if not first or not last or any(not p.strip() or not _clean(p) for p in middle):
        return None
    return ("、".join([first, *middle]) + closing).strip()


def _clean(item: str) -> bool:
    """Whether a middle item is one thing or action: no function word, pronoun or adverb
    inside ("如何处理这些数据" is a clause)."""
    return all(pair.flag not in _BEFORE_FIRST or not pair.word.strip()
               for pair in pos_tagger().cut(item.strip()))


def _first_item(text: str) -> str:
    words = list(pos_tagger().cut(text))
    kept: list[str] = []
    for pair in reversed(words):
        if pair.flag in _BEFORE_FIRST or pair.word in _INTRODUCERS or not pair.word.strip():
            break
        kept.append(pair.word)
    return "".join(reversed(kept))


def _last_item(text: str) -> str:
    kept: list[str] = []
    for index, pair in enumerate(pos_tagger().cut(text)):
        if not pair.word.strip():
            break
        if (index == 0 and pair.flag not in _NOT_OPENING) or pair.flag.startswith(_NOUNISH):
            kept.append(pair.word)
            continue
        break
    return "".join(kept)


def _bigrams(text: str) -> set[str]:
    run = "".join(re.findall(f"[{HAN}A-Za-z0-9]", text))
    return {run[i:i + 2] for i in range(len(run) - 1)}
