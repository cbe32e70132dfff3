"""People named in a question (``Understanding.entities``).

A thin layer over :func:`chronorag.people.find_people`: names and aliases of the people
directory resolve to person ids, words for the asker (我, I, my, me) to ``user``.
"""

from __future__ import annotations

from chronorag.model import Entity
from chronorag.people import Directory, find_people
from chronorag.people.resolve import SELF_WORDS, normalise

_SELF = frozenset(normalise(w) for w in SELF_WORDS)


def find_entities(question: str, *, directory: Directory | None,
                  user: str | None) -> tuple[Entity, ...]:
    """The people ``question`` is about, in question order (none without a directory
    and a user)."""
    return find_people(question, directory or Directory(), user=user)


def subjects_of(entities: tuple[Entity, ...]) -> tuple[str, ...] | None:
    """The person ids a question restricts its search to; ``None`` when it names nobody."""
    ids = tuple(dict.fromkeys(e.id for e in entities))
    return ids or None


def only_the_asker(entities: tuple[Entity, ...], *, user: str | None) -> bool:
    """Whether the question names nobody but the asker, and only by a word for "I"
    (我, I, my, me). Such a question may be personal ("上周二我几点吃的午饭") or generic
    ("How many days do I have to return an item?"): policies are written for "I"."""
    return user is not None and bool(entities) and all(
        e.id == user and normalise(e.text) in _SELF for e in entities)
