"""Whether two answer sentences state different facts: the numbers they state, else
their content words beyond the question's."""

from __future__ import annotations

import re

from chronorag.lang import STATEMENT_STOP_WORDS

_NUMBERS = re.compile(r"\d+(?:[.,]\d+)?")
_WORD = re.compile(r"[a-z]+")
_NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "fourteen": "14", "fifteen": "15", "twenty": "20", "thirty": "30", "sixty": "60",
    "ninety": "90", "hundred": "100",
}


def stated_numbers(text: str) -> frozenset[str]:
    """Numbers a text states, digits and common number words alike ("five" == "5")."""
    digits = {n.replace(",", ".") for n in _NUMBERS.findall(text)}
    words = {_NUMBER_WORDS[w] for w in _WORD.findall(text.lower()) if w in _NUMBER_WORDS}
    return frozenset(digits | words)


def key_terms(text: str, *, ignore: str = "") -> frozenset[str]:
    """Content words of ``text`` (no stop words, no words of ``ignore``, e.g. the question)."""
    skip = set(_WORD.findall(ignore.lower())) | STATEMENT_STOP_WORDS
    return frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in skip)


def states_differ(first: str, second: str, *, question: str = "") -> bool:
    """True when two answer sentences state different facts.

    Rule (simple and deterministic): if either sentence states numbers, they differ when
    their sets of numbers differ; otherwise they differ when their key terms (content
    words not in the question) overlap by less than half (Jaccard < 0.5).
    """
    numbers_a, numbers_b = stated_numbers(first), stated_numbers(second)
    if numbers_a or numbers_b:
        return numbers_a != numbers_b
    terms_a = key_terms(first, ignore=question)
    terms_b = key_terms(second, ignore=question)
    union = terms_a | terms_b
    if not union:
        return False
    return len(terms_a & terms_b) / len(union) < 0.5
