"""The label of the numbered item a question asks for ("which item number covers
decompiling?"), read from a sentence that numbers its items in line.

Terms list what a user may not do as one long sentence: "You may not: (1) modify,
translate, reverse engineer, decompile … ; (2) distribute, license … ; (3) …". Asked which
item covers something, the answer is the label, "(1)", of the item that says most of the
question's words; when two items say as many, none is chosen (the sentence answers).
"""

from __future__ import annotations

import re

from chronorag.answer.choose import stems

__all__ = ["asks_item", "numbered_item"]

# Only a number asked for: "which item of data" and 哪一项 ("which one") ask for the
# thing, "from what point" asks when, 几点 the hour.
_ASKS_ITEM = re.compile(
    r"\b(?:which|what)\s+(?:(?:item|bullet|sub-?item)\s+(?:number|no\.?|#)|numbered\s+"
    r"(?:item|bullet|sub-?item)(?:\s+(?:number|no\.?|#))?)(?![\w-])|第几项", re.IGNORECASE)
# An item's label in line: "(1)", "(4 )", "(b)", "(iv)", "（2）"; never a word's own
# brackets ("provider(s)") nor a bracketed word ("(including …)").
_LABEL = re.compile(r"(?<![\w)）])[(（]\s*(\d{1,3}|[a-z]|[ivx]{1,5})\s*[)）]", re.IGNORECASE)
# Items the sentence must number for it to be a list.
_AT_LEAST = 2


def asks_item(question: str) -> bool:
    """Whether ``question`` asks which numbered item of a list says something."""
    return _ASKS_ITEM.search(question) is not None


def numbered_item(question: str, sentence: str) -> str | None:
    """The label of the item of ``sentence`` that says most of the words ``question`` asks
    the item by (those after "which item"), then most of its words; None when the
    sentence numbers fewer than two items or two items share the most."""
    asking = _ASKS_ITEM.search(question)
    labels = list(_LABEL.finditer(sentence))
    if asking is None or len(labels) < _AT_LEAST:
        return None
    # "Pocket's terms list things users may not do; which item covers decompiling the
    # app?": the case before the ask says words of many items ("users"), the ask the one.
    ask, whole = stems(question[asking.end():]), stems(question)
    ends = [m.start() for m in labels[1:]] + [len(sentence)]
    items = [stems(sentence[m.end():end]) for m, end in zip(labels, ends, strict=True)]
    shared = [(len(ask & item), len(whole & item)) for item in items]
    most = max(shared)
    if most[1] == 0 or shared.count(most) > 1:
        return None
    return labels[shared.index(most)].group(0)
