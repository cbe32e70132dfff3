"""Names and aliases in a question -> person ids.

Matching is case- and width-insensitive (NFKC + casefold, so "ＭＯＭ" is "mom"), longest
name first and without overlaps, so "小明妈妈" is the mother and not 小明. Latin names
must stand as whole words ("Ann" does not match inside "Annual"). Words for the asker
(我, I, my, me) mean ``user`` when one is given.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from chronorag.model import Entity
from chronorag.people.model import Directory

SELF_WORDS: tuple[str, ...] = ("我自己", "我的", "我", "myself", "mine", "my", "me", "i")
"""Words meaning the asking user; "我们" (we) is not one of them."""

_NOT_AFTER_SELF = "们"


def normalise(text: str) -> str:
    """NFKC + casefold: the key under which names are compared."""
    return unicodedata.normalize("NFKC", text).casefold()


def _normalised_with_offsets(text: str) -> tuple[str, list[int]]:
    """The normalised text and, per normalised character, its index in ``text``."""
    out: list[str] = []
    origin: list[int] = []
    for i, char in enumerate(text):
        piece = normalise(char)
        out.append(piece)
        origin.extend([i] * len(piece))
    return "".join(out), origin


def _is_word(text: str) -> bool:
    return bool(re.fullmatch(r"[a-z0-9][a-z0-9 .'\-]*", text))


def _occurrences(haystack: str, needle: str) -> Iterable[int]:
    start = haystack.find(needle)
    while start >= 0:
        yield start
        start = haystack.find(needle, start + 1)


def _bounded(haystack: str, start: int, end: int) -> bool:
    before = haystack[start - 1] if start > 0 else " "
    after = haystack[end] if end < len(haystack) else " "
    return not (before.isalnum() and before.isascii()) and not (
        after.isalnum() and after.isascii())


def find_people(question: str, directory: Directory, *, user: str | None) -> tuple[Entity, ...]:
    """The people ``question`` names, in question order, as ``Entity(text, id)``."""
    names: list[tuple[str, str]] = [
        (normalise(name), person.id) for person in directory.people for name in person.names
    ]
    if user is not None:
        names.extend((word, user) for word in SELF_WORDS)
    names.sort(key=lambda pair: -len(pair[0]))
    text, origin = _normalised_with_offsets(question)
    taken = [False] * len(text)
    found: list[tuple[int, int, str]] = []
    for name, person_id in names:
        if not name:
            continue
        for start in _occurrences(text, name):
            end = start + len(name)
            if any(taken[start:end]):
                continue
            if _is_word(name) and not _bounded(text, start, end):
                continue
            if name.startswith("我") and text[end:end + 1] == _NOT_AFTER_SELF:
                continue
            taken[start:end] = [True] * (end - start)
            found.append((start, end, person_id))
    found.sort()
    return tuple(
        Entity(text=question[origin[s]:origin[e - 1] + 1], id=pid) for s, e, pid in found
    )
