"""The cell of a table row that answers "which X …" / "who …".

A table row is stored as ``Header: value; Header: value`` (``ingest.formats``): "Name of
Subprocessor: Zendesk; Description of Processing: Customer support ticketing system; …".
Asked "which subprocessor provided the ticketing system?", the answer is the value under
the header that names what the question asks for (Subprocessor), not the cell that repeats
the question's own words (the description): the row is found by what the question says,
the cell answers what it asks. A Chinese question names what it asks for after 哪些 /
什么 ("举了哪些例子"), and the header that shares one of its characters answers ("Mozilla
帐户用户示例"). Asked how long or when, the answer is the cell under the one header of
time ("Expiration: one year", "保留期限: 90 天"), whatever the question calls it ("how
long did the cookie last"). A cell of several statements (the lawful bases of a privacy
notice) is read as its sentences when no cell answers: the one that says what is asked
(``cell_sentence``).
"""

from __future__ import annotations

import re

from chronorag.answer.choose import stems
from chronorag.answer.names import WHICH_NAMED
from chronorag.ingest.sentences import split_sentences
from chronorag.lang import HAN, STATEMENT_STOP_WORDS, ZH_STOP_WORDS
from chronorag.retrieve.tokenize import is_mostly_cjk

__all__ = ["cell_sentence", "is_row", "row_cell", "time_cell"]

_NEXT_CELL = re.compile(r"\s*; (?=[^:;\n]{1,80}: )")
_HEAD = re.compile(r"([^:;\n]{1,80}): ([^\n]*)")
# "What are the examples …": the noun after a verb of being and an article is asked for.
_ASKS = re.compile(r"\b(?:which|what)\s+(?:(?:is|are|was|were)\s+)?(?:(?:the|an?)\s+)?"
                   r"((?:[a-z]+\s+){0,2}?[a-z]+)\b|\b(who|whom|whose)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z]{3,}")
# "举了哪些例子" / "是什么类型": the Han noun after the question word; Chinese words of one
# meaning share a character more often than a whole word (例子 / 示例).
_ZH_ASKS = re.compile(f"(?:哪些|哪个|哪种|哪类|什么)([{HAN}]{{1,4}})")


# Headers of a time: when something ends or starts, or how long it lasts.
_TIME_HEADER = re.compile(r"expir|duration|retention|retained|lifetime|lifespan|deadline|"
                          r"\b(?:period|until|valid\w*|dates?|when|time)\b|"
                          r"期限|期间|时间|日期|时长|有效期|过期|保留", re.IGNORECASE)


# Headers of what a row's thing is or does.
_DESCRIBES = re.compile(r"descri|purpose|\b(?:use[ds]?|usage|function)\b|描述|说明|用途|目的",
                        re.IGNORECASE)


# A question asking for several things, and a cell that lists three or more.
_SEVERAL = re.compile(r"哪些|\b(?:what|which)\b[^?]*\binclude[sd]?\b", re.IGNORECASE)
_LISTS = re.compile(r"[^、，,]+(?:、|，|, )[^、，,]+(?:、|，|, )(?:and |or )?[^、，,]+")


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in _WORD.findall(text.lower())} - STATEMENT_STOP_WORDS


def row_cell(question: str, sentence: str) -> str | None:
    """The value of the cell ``question`` asks for when ``sentence`` is a table row, else
    None: the header sharing a word with what follows "which/what" ("which subprocessor"
    → "Name of Subprocessor"), or for "who" the header with "name"; when no header fits
    and the question asks for several things (哪些, "what does it include"), the one cell
    that lists three or more; None when no cell or more than one fits."""
    cells = _cells(sentence)
    if cells is None:
        return None
    zh = _ZH_ASKS.search(question)
    asks = None if zh else _ASKS.search(question)
    if zh is not None:
        chars = set(zh.group(1)) - ZH_STOP_WORDS
        fitting = [v for h, v in cells if chars & set(h)]
    elif asks is not None and asks.group(2):
        fitting = _named(cells, question)
    elif asks is not None:
        wanted = _words(asks.group(1))
        fitting = [v for h, v in cells if wanted & _words(h)]
        if not fitting and WHICH_NAMED.search(question):
            # "Which company provided the billing system?" over "Name of Subprocessor:
            # Zuora; Description of Processing: Corporate billing system": a kind of thing
            # no header names is asked for by its proper name, the row's name cell.
            fitting = _named(cells, question)
        elif not fitting and cells[0][1] and cells[0][1].lower() in question.lower() \
                and not _SEVERAL.search(question):
            # "What did GitHub use Sentry.io for?": a row found by its name is asked what
            # its description says.
            fitting = [v for h, v in cells if _DESCRIBES.search(h)]
    else:
        fitting = []
    if not fitting and _SEVERAL.search(question):
        # "“联系人数据”具体包括哪些？" names no header: the one cell listing several things
        # answers, not the row's name for them nor its description.
        fitting = [v for _, v in cells if _LISTS.search(v) and v.rstrip("。.") not in question]
    value = fitting[0] if len(fitting) == 1 and fitting[0] else None
    return value and (_labelled(question, value) or value)


# "Contract to provide …. Legitimate interest in …. Consent where …": a cell of statements
# each opening with a short label (one to three words) and a word that goes on with it.
_LABELLED = re.compile(r"([A-Z][a-z]+(?:\s+[a-z]+){0,2}?)(?=,?\s+(?:to|in|where|when|if|for)\b)")
_SET_APART = re.compile(r",\s+(?:where|when|if)\b")
_CLAUSE_VERB = re.compile(r"\b(?:is|are|was|were|be|been|being|will|would|may|might|can|"
                          r"could|must|should|shall|has|have|had|do|does|did)\b")


def _labelled(question: str, value: str) -> str | None:
    """The label of the statement of ``value`` that shares the most words with
    ``question``, when every statement of the cell opens with one (the lawful bases of a
    privacy notice: "Consent, when you choose to enable an AI chatbot"); None otherwise
    or on a tie."""
    parts = [p for p in re.split(r"(?<=[.!?])\s+", value.strip()) if p]
    labelled = [(p, m) for p in parts if (m := _LABELLED.match(p)) and _a_label(m.group(1))]
    if not parts or len(labelled) != len(parts):
        return None
    if len(parts) == 1 and not _SET_APART.match(parts[0], labelled[0][1].end()):
        # One statement is a label only when a comma sets it apart ("Consent, when …").
        return None
    # "Besides legitimate interest, what lawful basis …": a label the question says is
    # not what it asks for.
    said = question.lower()
    kept = [(p, m.group(1)) for p, m in labelled if m.group(1).lower() not in said]
    if not kept:
        return None
    asked = _words(question)
    shared = [len(asked & _words(p[len(label):])) for p, label in kept]
    best = max(shared)
    return kept[shared.index(best)][1] if shared.count(best) == 1 else None


def _a_label(words: str) -> bool:
    """Whether ``words`` can name a kind (a lawful basis), not open a clause: no pronoun or
    stop word first ("We use it to …"), no verb of being or modal ("Data is kept for …")."""
    first, *rest = words.lower().split()
    return first not in STATEMENT_STOP_WORDS and not _CLAUSE_VERB.search(" ".join(rest))


def _named(cells: list[tuple[str, str]], question: str) -> list[str]:
    """The values under a header with the word "name" that the question does not
    already say (a row found by its name answers with another cell or none)."""
    said = question.lower()
    return [v for h, v in cells if "name" in h.lower().split() and v.lower() not in said]


def time_cell(sentence: str) -> str | None:
    """The value under the one header of ``sentence`` that names a time, when it is a
    table row with exactly one such header; None otherwise."""
    cells = _cells(sentence)
    if cells is None:
        return None
    fitting = [value for header, value in cells if _TIME_HEADER.search(header)]
    return fitting[0] if len(fitting) == 1 and fitting[0] else None


def cell_sentence(question: str, sentence: str) -> str | None:
    """The sentence of a cell that answers ``question`` when ``sentence`` is a table row
    one of whose cells holds several: the one sharing the most of the question's words,
    when one shares more than every other and at least two; else None.

    A cell of statements ("Contract … . Legitimate interest in offering additional security
    (such as two-factor authentication)") is read as its sentences: asked whether the
    service supports two-factor authentication, the statement that says so decides, not
    the whole row of purposes, data and lawful bases."""
    cells = _cells(sentence)
    # Across scripts the words shared are only names ("GitHub", "Cookie"), no reading.
    if cells is None or is_mostly_cjk(question) != is_mostly_cjk(sentence):
        return None
    parts = [[value[start:end] for start, end in split_sentences(value)] for _, value in cells]
    # The statements are read, not the cells that name the row's thing: the question
    # restates those, which is how the row was found.
    statements = [p for ps in parts if len(ps) > 1 for p in ps]
    if not statements:
        return None
    asked = stems(question)
    scored = sorted(((len(asked & stems(p)), p) for p in statements), key=lambda sp: -sp[0])
    if scored[0][0] < 2 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def is_row(sentence: str) -> bool:
    """Whether ``sentence`` is a table row read as one sentence ("header: value ; …")."""
    return _cells(sentence) is not None


def _cells(sentence: str) -> list[tuple[str, str]] | None:
    """The (header, value) cells of ``sentence`` when it is a table row, else None. A
    cell's own text may hold "; " ("Purposes of Processing: Provide …; product
    improvement …"): a cell starts only where a header and ": " follow."""
    parts = _NEXT_CELL.split(sentence.strip())
    if len(parts) < 2:
        return None
    cells = [_HEAD.fullmatch(part) for part in parts]
    if any(cell is None for cell in cells):
        return None
    return [(cell.group(1), cell.group(2).strip()) for cell in cells if cell is not None]
