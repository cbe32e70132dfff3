"""The things a sentence lists after "such as" / "including", for questions asking which.

"GitHub's privacy statement warns that some buttons lead to other companies' services.
Which services does it name?" is answered by "Twitter or LinkedIn" in "links or buttons that
lead to third-party services like Twitter or LinkedIn", not by the whole sentence; "what
sensitive or demographic information did it list" by what follows "such as". The list is
the answer only when the words just before it name what the question asks for (a word of
the question: "services", "information"), so "including" after an unrelated noun answers
nothing, and only when the list is not the question's own words.
"""

from __future__ import annotations

import re

from chronorag.answer.choose import stems

__all__ = ["asked_kind", "asked_noun", "listed_items", "series_after"]

# "What / which [adjectives] <noun> …": the words naming what is asked for, up to a verb
# of the question or a preposition; "which of GitHub's own applications", "what kinds of
# Firefox information" name it after "of".
_WHAT = re.compile(
    r"\b(?:what|which)\s+(?:(?:kinds?|types?|sorts?|categor(?:y|ies)|examples?)\s+of\s+|"
    r"of\s+)?(?P<noun>(?:(?!(?:is|are|was|were|do|does|did|can|could|may|might|will|would|"
    r"should|must|has|have|had|of|in|on|for|from|to|with|about|at|by)\b)[\w'’-]+\s*){1,4})",
    re.IGNORECASE)
_WH_WORDS = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
# The introducer and what follows it up to the clause's end: a closing bracket, a full
# stop, a semicolon or colon (not one inside a name: "pages.github.com"), or a comma
# before words that go on with the sentence or name a second list ("…, such as
# githubuniverse.com, and product websites, such as atom.io").
_LIST = re.compile(
    r"\b(?:such\s+as|including(?:,?\s+(?:but\s+not\s+limited\s+to|without\s+limitation),?)?"
    r"|like|e\.g\.,?|for\s+example,?)\s+"
    r"(?P<items>(?:[^.;:()\[\]]|[.:](?=\w))+?)(?=\s*(?:[.;:)\]]\s|[.;:)\]]?$|\(|,\s+(?:are|is|was|were|"
    r"will|may|can|in\s+order|to|which|that|where|when|while|except|so|but|unless|if|"
    r"because|and\s+(?:we|you|it|they))\b|,\s+(?:and|or)\s+[^,.;]*?,?"
    r"\s+(?:such\s+as|including|like)\b))", re.IGNORECASE)
# Items that open a clause are no list ("including, but not limited to, if we believe").
_CLAUSE = re.compile(r"(?:to|that|this|it|if|when|where|whether|because|unless|we|you|"
                     r"they)\b", re.IGNORECASE)
# A closing catch-all is no example: "…, or other application and account features", "…,
# and the like", "…, and so on".
_CATCH_ALL = re.compile(r",?\s+(?:or|and)\s+(?:other|similar|more)\b.*$|,?\s+etc\.?$|"
                        r",?\s+and\s+(?:the\s+like|so\s+(?:on|forth))\b.*$", re.IGNORECASE)
# An introducer inside a list's items: "including AI features such as …".
_INNER = re.compile(r"\s(?:such\s+as|e\.g\.,?)\s+", re.IGNORECASE)
# Words before the introducer that may name what is listed.
_BEFORE = 60
# "which details of my transactions": what the asked things belong to names them too.
_OF_WHAT = re.compile(r"\s*of\s+(?:(?:my|your|our|their|his|her|its|the|a|an)\s+)?"
                      r"(?P<owner>[\w'’-]+)", re.IGNORECASE)
# "Which two did they give?": a count stands for a noun the question said before it.
_COUNTS = frozenset({"one", "ones", "two", "three", "four", "five", "both"})


def _one_question(question: str) -> bool:
    """Whether ``question`` asks one thing: a single wh-word."""
    return len(_WH_WORDS.findall(question)) == 1


def _asked(question: str) -> re.Match[str] | None:
    found = _WHAT.search(question)
    return found if found is not None and _one_question(question) else None


def asked_noun(question: str) -> str | None:
    """The words after "what" / "which" that name what ``question`` asks for, when it asks
    one thing ("Which services does it name?" -> "services"); None otherwise."""
    found = _asked(question)
    return None if found is None else found["noun"].strip()


def asked_kind(question: str) -> set[str]:
    """The stems of the words naming what ``question`` asks for (empty: none): its
    ``asked_noun``, the noun after its "of" ("details of my transactions"), and for a
    count ("which two") the words of the question before it."""
    found = _asked(question)
    if found is None:
        return set()
    noun = found["noun"].strip()
    if set(noun.lower().split()) <= _COUNTS:
        return stems(question[:found.start()])
    owner = _OF_WHAT.match(question, found.end("noun"))
    return stems(noun) | (stems(owner["owner"]) if owner else set())


def listed_items(question: str, sentence: str) -> str | None:
    """The items ``sentence`` lists after "such as" / "including" / "like" / "e.g." where
    the words just before name what the question asks for; None otherwise. A list inside
    a list's items ("including AI features such as chatbot features, …") is read when the
    outer one names no such kind: its kind is the words between the two introducers."""
    kind = asked_kind(question)
    if not kind:
        return None
    return _listed(kind, question, sentence, inner=False) \
        or _listed(kind, question, sentence, inner=True)


def _listed(kind: set[str], question: str, sentence: str, *, inner: bool) -> str | None:
    asked = stems(question)
    best: tuple[int, float, str] | None = None
    for found in _LIST.finditer(sentence):
        items = _CATCH_ALL.sub("", found["items"].strip(" ,"))
        before = sentence[max(0, found.start() - _BEFORE):found.start()]
        if inner:
            nested = _INNER.search(items)
            if nested is None:
                continue
            before, items = items[:nested.start()], items[nested.end():]
        if not items or _CLAUSE.match(items):
            continue
        # "third-party services like …": the last clause before the list names its kind.
        # Of two lists, the one whose kind shares more of the question's words answers
        # it, and on a tie the one whose kind is more nearly those words alone
        # ("conference websites, such as …, and product websites, such as …").
        named = stems(re.split(r"[,;:(]", before.rstrip(" ,"))[-1])
        shared = len(kind & named)
        if not shared or not stems(items) - asked:
            continue
        score = (shared, shared / len(named), items)
        if best is None or score[:2] > best[:2]:
            best = score
    return None if best is None else best[2]


# "…damages for which kinds of losses?": the question's words before "which" / "what",
# ending with a preposition or "include".
_LEAD = re.compile(r"(?P<lead>(?:[\w'’-]+\s+){1,4}?(?:for|on|to|by|with|from|in|of|about|as|at|"
                   r"into|under|against|upon|include|includes|including))\s+(?:which|what)\b",
                   re.IGNORECASE)
_ITEM = r"[^,.;:()\[\]]{1,45}?"
# Three items at least, commas between, the last after "and" / "or", to the clause's end.
_SERIES = re.compile(rf"(?P<items>{_ITEM}(?:,\s+{_ITEM})+,?\s+(?:and|or)\s+{_ITEM})"
                     r"(?=\s*(?:[.;:)\]]|$))")
_ITEM_WORDS = 6


def series_after(question: str, sentence: str) -> str | None:
    """The series of items ``sentence`` writes right after the words the question puts
    before "which" / "what" ("disclaims … damages for loss of goodwill, work stoppage, …, or
    computer malfunction" for "damages for which kinds of losses?"); None when the sentence
    does not say those words (two at least) or no series of short items follows them."""
    found = _LEAD.search(question)
    if found is None or not _one_question(question):
        return None
    words = found["lead"].split()
    for size in range(len(words), 1, -1):
        said = re.search(r"\b" + r"\s+".join(re.escape(w) for w in words[-size:]) + r"\s+",
                         sentence, re.IGNORECASE)
        if said is None:
            continue
        series = _SERIES.match(sentence, said.end())
        if series is None:
            return None
        items = re.split(r",\s+|,?\s+(?:and|or)\s+", series["items"])
        return series["items"].strip() if all(
            len(item.split()) <= _ITEM_WORDS for item in items) else None
    return None
