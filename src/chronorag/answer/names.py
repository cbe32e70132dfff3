"""Names in a sentence that answer "who" or "which company / court / account" questions.

Deterministic string rules, no model: runs of capitalised words (with "of" inside,
"Conditions of Use"), joined by "and" or commas, that the question does not name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chronorag.answer.other_item import asks_other
from chronorag.lang import OVERLAP_STOP_WORDS

# "Which company / court / account ...": a kind of thing answered by its proper name. The
# noun is kept: a name that ends with it ("Firefox Account") is the one asked for. A verb
# right after the question word makes the noun its subject, not what is asked for ("What
# did the Terms say …").
WHICH_NAMED = re.compile(
    r"\b(?:which|what)\s+(?!(?:did|does|do|is|are|was|were|will|would|can|could|should|"
    r"may|might|must|has|have|had)\b)(?:[A-Za-z]+\s+){0,2}?(companies|company|firms?|courts?|"
    r"organi[sz]ations?|entit(?:y|ies)|partners?|providers?|vendors?|(?:sub)?processors?|"
    r"agenc(?:y|ies)|authorit(?:y|ies)|regulators?|countr(?:y|ies)|cit(?:y|ies)|states|"
    r"jurisdictions?|accounts?|products?|browsers?|apps?|rules|polic(?:y|ies)|terms|"
    r"agreements?)\b", re.IGNORECASE)
_WORD = r"[A-Z][\w'’.-]*"
_PARTICLE = r"de|van|von|der|da|di|bin|al|la|le"
CAPITALIZED = re.compile(rf"{_WORD}(?:\s+(?:(?:{_PARTICLE})\s+)?{_WORD})*")
# Capitalised words with "of" or "for" inside: "Conditions of Use", "County of San
# Francisco", "Terms for Additional Products".
# A word ending a sentence ("... with Mullvad. A Mozilla account") ends the name; an
# initial or a title ("B.V.", "Dr.") does not. A lower-case word with an accented letter
# right after is the rest of a name in another language ("Académie française").
_TITLED = re.compile(rf"{_WORD}(?:(?<![a-z]{{2}}\.)\s+(?:(?:of(?:\s+the)?|for|{_PARTICLE})\s+)?"
                     rf"{_WORD})*(?:\s+[a-zß-ÿ]*[ß-ÿ][a-zß-ÿ]*\b)*")
_AND = re.compile(r"\s+(?:and|&)\s+")
# Those a party is named with in legal text: "GitHub and its affiliates".
_KIN_WORDS = (r"(?:affiliates|subsidiaries|licensors|suppliers|partners|agents|officers|"
              r"employees|successors)")
_KIN = re.compile(rf"\s+and\s+(?:its|their)\s+{_KIN_WORDS}\b"
                  rf"(?:(?:,\s*|,?\s+and\s+)(?:(?:its|their)\s+)?{_KIN_WORDS}\b)*",
                  re.IGNORECASE)
# Capitalised words that start a sentence or name a month or weekday, not a person.
NOT_NAMES = OVERLAP_STOP_WORDS | frozenset({
    "he", "she", "they", "we", "you", "our", "my", "after", "before", "during", "since",
    "until", "however", "january", "february", "march", "april", "may", "june", "july",
    "august", "september", "october", "november", "december", "monday", "tuesday",
    "wednesday", "thursday", "friday", "saturday", "sunday",
})


def names(question: str, sentence: str) -> str | None:
    """The one run of capitalised words (joined by "and", "or" or commas) the question does not
    name, without the initials in brackets that may follow it; None when there is none or
    more than one. A run made only of the question's
    words is no answer to it: "our Data Protection Officer, Dr. Maria Keller", asked "who
    is the Data Protection Officer", names Dr. Maria Keller."""
    asked = {_owner(w) for w in re.findall(r"[\w'’]+", question)}
    runs: list[re.Match[str]] = []
    # The names the question says, which may stand joined to the answer (``_conjoined``).
    said: list[re.Match[str]] = []
    for found in _TITLED.finditer(sentence):
        words = [_owner(w.strip(".,'’")) for w in found.group(0).split()]
        if all(w in asked or w in NOT_NAMES for w in words):
            if all(w in asked for w in words) and not all(w in NOT_NAMES for w in words):
                said.append(found)
            continue
        # One capitalised word opening the sentence is as likely a common word; a run
        # whose initials the question says ("Virtual Private Network", asked "VPN")
        # is the question's own thing.
        # A run opening the sentence before a colon is its label ("Cloud Storage
        # Provider: We use …"), the kind of thing, not its name.
        if found.start() == 0 and sentence[found.end():].lstrip().startswith(":"):
            continue
        if (found.start() == 0 and len(words) == 1) or (
                len(words) > 1 and _initials(words) in asked):
            continue
        if runs and _abbreviates(found.group(0), runs[-1].group(0),
                                 sentence[runs[-1].end():found.start()]):
            continue
        runs.append(found)
    kind = WHICH_NAMED.search(question)
    if kind and len(runs) > 1:
        # "Which account ...": of several names, the one that is an account.
        noun = kind.group(1).lower().rstrip("s")
        named = [r for r in runs if _bare(r.group(0)).lower().rstrip("s").endswith(noun)]
        runs = named[:1] if len({_bare(r.group(0)) for r in named}) == 1 else runs
    if not runs:
        return None
    joined = [runs[0]]
    for run in runs[1:]:
        between = sentence[joined[-1].end():run.start()]
        if re.fullmatch(r"\s*(?:,|,?\s*(?:and|or)|&)\s*", between):
            joined.append(run)
        else:
            return None
    start, end = joined[0].start(), joined[-1].end()
    if not asks_other(question):
        start, end = _conjoined(sentence, start, end, said)
    # "Mozilla and its affiliates": a party named with those it stands for is one party.
    kin = _KIN.match(sentence, end)
    return _bare(sentence[start:kin.end() if kin else end])


def _conjoined(sentence: str, start: int, end: int,
               said: Sequence[re.Match[str]]) -> tuple[int, int]:
    """``[start, end)`` widened over a name the question says (``said``, in order) joined to
    it by "and": "You give Mozilla and Mullvad all rights", asked who Mozilla's terms give
    the rights to, names both; the question names Mozilla as the terms' owner, not as no
    answer. A name set apart by a comma is its apposition ("our Data Protection Officer,
    Dr. Maria Keller") and stays out."""
    for found in said:
        if found.end() <= start and _AND.fullmatch(sentence[found.end():start]):
            start = found.start()
        elif found.start() >= end and _AND.fullmatch(sentence[end:found.start()]):
            end = found.end()
    return start, end


def _abbreviates(run: str, name: str, between: str) -> bool:
    """Whether ``run`` is ``name``'s initials in brackets right after it: "Amazon Web
    Services (AWS)" names one thing, and the name says it whole."""
    initials = _initials([_owner(w) for w in name.split()])
    return between.strip() == "(" and run.upper() == run and run.lower() == initials \
        and len(run) > 1


def _initials(words: list[str]) -> str:
    """The first letters of lower-cased ``words`` that are not ``NOT_NAMES``."""
    return "".join(w[0] for w in words if w not in NOT_NAMES)


def _owner(word: str) -> str:
    """``word`` lower-cased, a possessive as its owner: "GitHub’s" is "github"."""
    return re.sub(r"['’]s$", "", word.lower())


def _bare(name: str) -> str:
    """A name without the mark that ends its sentence; an abbreviation keeps its point
    ("GitHub B.V.", "Mozilla Corp.")."""
    name = name.rstrip(",")
    last = name.split()[-1] if name.split() else ""
    if re.fullmatch(r"(?:[A-Za-z]\.){2,}|(?:Inc|Ltd|Corp|Co|Bros|Jr|Sr|St)\.", last):
        return name
    return name.rstrip(".,")
