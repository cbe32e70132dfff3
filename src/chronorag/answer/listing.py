"""A question that asks for everything in a period gets a list, in time order.

"Who were the chancellors of Germany between 1998 and 2010?", "Which clubs did he play for
after 2012?", "1998年到2010年间，德国总理都有谁？" ask for every fact whose time meets the
period, not the one passage that ranks first. Such a question — plural ("who were", "which
clubs did", 都有谁, 有哪些, 历任), asking for content (not a time or a count) and with a time
constraint — is answered from the sentences
of the relevant, applicable evidence that state a time meeting the period and share a
word of the relation asked (a question word not in the evidence's title); each fact gives
one entry: the first name its sentence (or its item of a listing sentence) gives that the
question does not, with the time it states as written; a fact without such a name gives
none. Entries are distinct, ordered by their time's start, and each is a
span of its evidence. Fewer than two entries: the question keeps its usual answer.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from chronorag.answer.choose import content_words
from chronorag.answer.decide import Decision, semantic
from chronorag.answer.names import CAPITALIZED, NOT_NAMES
from chronorag.flags import Flag
from chronorag.lang import HAN, has_han
from chronorag.model import AnswerStatus, Evidence, Hit, Intent, Interval, Query, Sentence

__all__ = ["asks_list", "list_answer"]

_PLURAL = re.compile(
    r"\bwho\s+(?:were|have\s+been|are\s+all)\b"
    r"|\b(?:which|what)\s+(?:\w+\s+)?\w+(?:[^su\W]s|ies|men)\s+(?:were|are|did|have|has|had)\b"
    r"|\b(?:list|name)\s+(?:all|every|each)\b|\ball\s+(?:of\s+)?the\s+\w+s\s+(?:who|that)\b",
    re.IGNORECASE)
# The Chinese words asking for a list name nothing asked about: they are left out of the
# question's words ("德国总理都有谁" asks about 德国总理).
_ZH_PLURAL = re.compile(r"都有谁|都有哪些|有哪些|有谁|哪几[个位任家]|历任|历届|先后")
# A Chinese sentence names its subject before the verb of holding or joining.
_ZH_SUBJECT = re.compile(rf"^([{HAN}·]{{2,8}}?)(?:于|在|从|自|曾|担任|出任|就任|加盟|效力)")
_ITEM_MARK = re.compile(r"\s-\s|;\s*|；")
# How many evidence items are read for entries.
_DEPTH = 10


@dataclass(frozen=True)
class _Entry:
    text: str
    when: str
    start: float
    item: Evidence


def asks_list(question: str) -> bool:
    """Does ``question`` ask for every fact of a kind (plural who / which, 都有谁)?"""
    return bool(_PLURAL.search(question) or _ZH_PLURAL.search(question))


def list_answer(query: Query, hits: Sequence[Hit], items: Sequence[Evidence], *,
           min_semantic: float) -> Decision | None:
    """The list answer of ``query`` from ``hits`` and their evidence ``items`` (in the same
    order), or None when the question asks for no list or fewer than two entries are
    found (see the module)."""
    period = query.constraint.interval
    if (period is None or query.understanding.intent is not Intent.CONTENT
            or not asks_list(query.text)):
        return None
    asked = _stems(content_words(_ZH_PLURAL.sub(" ", query.content)))
    entries: dict[str, _Entry] = {}
    for hit, item in list(zip(hits, items, strict=True))[:_DEPTH]:
        if (not item.applicable or semantic(item) < min_semantic
                or Flag.VIOLATES_TIME in item.flags):
            continue
        # The words that name what the evidence is about (its title) do not say that a
        # sentence speaks of the relation asked: "clubs" and "play" do, "Thierry Audel"
        # does not. A question made only of such words keeps them all.
        relation = (asked - _stems(content_words(item.title))) or asked
        for sentence in hit.chunk.sentences:
            for entry in _entries(query.text, sentence, item, period=period, asked=relation):
                entries.setdefault(entry.text.lower(), entry)
    if len(entries) < 2:
        return None
    ordered = sorted(entries.values(), key=lambda e: e.start)
    chinese = has_han(query.text)
    text = ("；" if chinese else "; ").join(
        f"{e.text}（{e.when}）" if chinese else f"{e.text} ({e.when})" for e in ordered)
    deciding: list[Evidence] = []
    for e in ordered:
        if all(e.item is not d for d in deciding):
            deciding.append(e.item)
    return Decision(AnswerStatus.ANSWERED, text, tuple(deciding), (), (Flag.LISTED,))


def _entries(question: str, sentence: Sentence, item: Evidence, *, period: Interval,
             asked: set[str]) -> list[_Entry]:
    """The entries ``sentence`` gives when it speaks of the relation asked (shares one of
    the ``asked`` words): one per fact stating a time that meets ``period`` and naming a
    name the question does not. A sentence that lists facts ("- 2017–present : A - 2015-2017
    : B") gives one per item, each with its own time."""
    stated = [m for m in sentence.mentions if not m.from_metadata]
    if not stated or not asked & _stems(content_words(sentence.text)):
        return []
    out = []
    for lo, hi in _items(sentence.text) if len(stated) > 1 else [(0, len(sentence.text))]:
        own = [m for m in stated
               if lo <= m.start - sentence.start and m.end - sentence.start <= hi]
        start = min((m.interval.start for m in own if m.interval.start is not None),
                    default=None)
        end = max((m.interval.end for m in own if m.interval.end is not None), default=None)
        name = _name(question, sentence.text[lo:hi])
        if own and name and Interval(start, end).overlaps(period):
            when = ", ".join(dict.fromkeys(m.text for m in own))
            out.append(_Entry(name, when, start.timestamp() if start else float("-inf"), item))
    return out


def _items(text: str) -> list[tuple[int, int]]:
    """The spans of a listing sentence's items (split at " - ", ";", "；"); the whole
    sentence when it lists nothing."""
    cuts = [m.end() for m in _ITEM_MARK.finditer(text)]
    bounds = [0, *cuts, len(text)]
    return [(a, b) for a, b in itertools.pairwise(bounds) if text[a:b].strip()]


def _name(question: str, sentence: str) -> str | None:
    """The first name in ``sentence`` the question does not name (who / which lists)."""
    if has_han(sentence):
        found = _ZH_SUBJECT.match(sentence.strip())
        return found.group(1) if found and found.group(1) not in question else None
    asked = _stems({w.lower() for w in re.findall(r"[\w'’]+", question)})
    for run in CAPITALIZED.finditer(sentence):
        words = [w.strip(".,'’").lower() for w in run.group(0).split()]
        if all(w in NOT_NAMES or _stem(w) in asked for w in words):
            continue
        return run.group(0).rstrip(".,")
    return None


def _stem(word: str) -> str:
    """A crude English stem (chancellors/chancellor, played/play), words of other scripts
    as they are."""
    return re.sub(r"(?:ies|es|s|ed|ing)$", "", word) if len(word) > 4 else word


def _stems(words: set[str]) -> set[str]:
    return {_stem(w) for w in words}
