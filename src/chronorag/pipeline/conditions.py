"""The store's declared conditions, checked wherever a condition enters: documents at ingest,
people at load, an asker's attributes at each question (``chronorag.conditions``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from chronorag.conditions import (
    SETTING,
    ConditionError,
    Declared,
    context_problems,
    declare,
    dump_declared,
    parse_declared,
    problems,
    undeclare,
)
from chronorag.errors import FieldError, ValidationError
from chronorag.model import Document
from chronorag.people.load import line_of
from chronorag.people.model import Directory
from chronorag.store.base import DocumentStore, Store

__all__ = ["DocumentConditions", "asker_context", "check_people", "declare_condition",
           "declared", "drop_condition"]


def declared(store: DocumentStore) -> dict[str, tuple[str, ...]]:
    """The condition keys declared in ``store`` (none: ``{}``)."""
    return parse_declared(store.setting(SETTING))


def declare_condition(store: DocumentStore, key: str, values: Iterable[str] = ()
                      ) -> dict[str, tuple[str, ...]]:
    """Declare ``key`` in ``store`` (with ``values``, or any value) and return all keys."""
    with store.atomic():
        keys = declare(declared(store), key, values)
        store.set_setting(SETTING, dump_declared(keys))
    return keys


def drop_condition(store: Store, key: str) -> dict[str, tuple[str, ...]]:
    """Drop ``key``; refused (``ConditionError``) while a stored document or person uses
    it, since their conditions would no longer be checked."""
    with store.atomic():
        keys = undeclare(declared(store), key)
        users = [d.id for d in store.documents(text=False) if key in d.applies_to]
        users += [p.id for p in store.people().people if key in p.attributes]
        if users:
            shown = ", ".join(users[:5]) + (" …" if len(users) > 5 else "")
            raise ConditionError(f"condition {key!r} is used by {len(users)} stored "
                                 f"document(s) or person(s) ({shown}); change them first")
        store.set_setting(SETTING, dump_declared(keys))
    return keys


@dataclass
class DocumentConditions:
    """Checks each document's ``applies_to`` against the declared keys as ingest validates
    (pass it as ``seen``); :meth:`raise_problems` then reports every problem at once."""

    keys: Declared
    found: list[FieldError] = field(default_factory=list)

    def __call__(self, document: Document, shown: str, line: int) -> None:
        self.found += [FieldError(shown, line, "applies_to", reason)
                       for reason in problems(document.applies_to, self.keys)]

    def raise_problems(self) -> None:
        if self.found:
            raise ValidationError(self.found)


def check_people(directory: Directory, keys: Declared, *, path: str, text: str) -> None:
    """``ValidationError`` naming the line of each person whose attributes use a key that
    is not declared, or a value the key does not take."""
    found = [FieldError(path, line_of(text, person.id), "attributes", reason)
             for person in directory.people
             for reason in context_problems(person.attributes, keys)]
    if found:
        raise ValidationError(found)


def asker_context(given: Mapping[str, str], *, user: str | None, people: Directory,
                  store: DocumentStore) -> dict[str, str]:
    """The asker's attributes: the user's own from the people directory, then ``given``,
    which may add keys but not contradict the directory (``ConditionError``), all
    declared keys of ``store`` with values they take."""
    person = people.person(user) if user else None
    own = dict(person.attributes) if person is not None else {}
    if not given and not own:
        return {}
    for key, value in given.items():
        if own.get(key, value) != value:
            raise ConditionError(f"{user!r} has {key}={own[key]} in the people directory; "
                                 f"the context {key}={value} contradicts it")
    context = {**own, **given}
    wrong = context_problems(context, declared(store))
    if wrong:
        raise ConditionError("; ".join(wrong))
    return dict(sorted(context.items()))
