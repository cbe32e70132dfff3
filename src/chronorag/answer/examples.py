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

__all__ = ["asked_noun", "listed_items"]

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
# stop, a semicolon or colon, or a comma before words that go on with the sentence.
_LIST = re.compile(
    r"\b(?:such\s+as|including(?:,?\s+(?:but\s+not\s+limited\s+to|without\s+limitation),?)?"
    r"|like|e\.g\.,?|for\s+example,?)\s+"
    r"(?P<items>[^.;:()\[\]]+?)(?=\s*(?:[.;:)\]]\s|[.;:)\]]?$|\(|,\s+(?:are|is|was|were|"
    r"will|may|can|in\s+order|to|which|that|where|when|while|except|so|but|unless|if|"
    r"because|and\s+(?:we|you|it|they))\b))", re.IGNORECASE)
# Items that open a clause are no list ("including, but not limited to, if we believe").
_CLAUSE = re.compile(r"(?:to|that|this|it|if|when|where|whether|because|unless|we|you|"
                     r"they)\b", re.IGNORECASE)
# A closing catch-all is no example: "…, or other application and account features".
_CATCH_ALL = re.compile(r",?\s+(?:or|and)\s+(?:other|similar|more)\b.*$|,?\s+etc\.?$",
                        re.IGNORECASE)
# Words before the introducer that may name what is listed.
_BEFORE = 60


def asked_noun(question: str) -> str | None:
    """The words after "what" / "which" that name what ``question`` asks for, when it asks
    one thing ("Which services does it name?" -> "services"); None otherwise."""
    found = _WHAT.search(question)
    if found is None or len(_WH_WORDS.findall(question)) != 1:
        return None
    return found["noun"].strip()


def listed_items(question: str, sentence: str) -> str | None:
    """The items ``sentence`` lists after "such as" / "including" / "like" / "e.g." where
    the words just before name what the question asks for; None otherwise."""
    noun = asked_noun(question)
    if noun is None:
        return None
    kind, asked = stems(noun), stems(question)
    for found in _LIST.finditer(sentence):
        items = _CATCH_ALL.sub("", found["items"].strip(" ,"))
        if not items or _CLAUSE.match(items):
            continue
        before = sentence[max(0, found.start() - _BEFORE):found.start()]
        # "third-party services like …": the last clause before the list names its kind.
        named = re.split(r"[,;:(]", before.rstrip(" ,"))[-1]
        if kind & stems(named) and stems(items) - asked:
            return items
    return None
