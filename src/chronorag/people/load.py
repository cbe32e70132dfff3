"""Validation of a people file into a :class:`Directory`.

The file is JSON: ``{"people": [{"id", "name", "aliases": [...]}], "access": {READER:
[SUBJECT, ...]}}``. Like documents, every problem is collected and reported as
``path:line: field: reason`` (``ValidationError``, exit code 2), and nothing is stored
when any problem is found.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from chronorag.errors import FieldError, ValidationError
from chronorag.people.model import Directory, Person
from chronorag.people.resolve import SELF_WORDS, normalise

_TOP = frozenset({"people", "access"})
_PERSON = frozenset({"id", "name", "aliases"})


class _Errors:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.items: list[FieldError] = []

    def add(self, where: str, reason: str, *, near: str | None = None) -> None:
        self.items.append(FieldError(self.path, self._line(near), where, reason))

    def _line(self, near: str | None) -> int:
        # JSON parsers give no positions for values: the first line holding the value
        # (e.g. the person's id) is close enough to find the mistake.
        if near is None:
            return 1
        at = self.text.find(json.dumps(near, ensure_ascii=False))
        return 1 if at < 0 else self.text.count("\n", 0, at) + 1


def load_directory(path: str | Path) -> Directory:
    """Read and validate a people file; raises ``ValidationError`` listing every problem."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValidationError([FieldError(name, 1, "file", f"cannot read ({exc.strerror})")])\
            from exc
    return parse_directory(text, path=name)


def parse_directory(text: str, *, path: str = "<people>") -> Directory:
    """Validate the JSON ``text`` of a people file (see the module docstring)."""
    errors = _Errors(path, text)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError([FieldError(path, exc.lineno, "file",
                                          f"not valid JSON ({exc.msg})")]) from None
    if not isinstance(raw, dict):
        errors.add("file", 'must be a JSON object with "people" and "access"')
        raise ValidationError(errors.items)
    for key in sorted(set(raw) - _TOP):
        errors.add(key, 'unknown field; allowed: "people", "access"')
    people = _people(raw.get("people"), errors)
    access = _access(raw.get("access", {}), {p.id for p in people}, errors)
    if errors.items:
        raise ValidationError(errors.items)
    return Directory(tuple(people), access)


def _people(value: Any, errors: _Errors) -> list[Person]:
    if not isinstance(value, list):
        errors.add("people", "required: a list of {id, name, aliases}")
        return []
    people: list[Person] = []
    owners: dict[str, str] = {}
    reserved = {normalise(w) for w in SELF_WORDS}
    for i, item in enumerate(value):
        where = f"people[{i}]"
        if not isinstance(item, dict):
            errors.add(where, "must be an object with id, name and aliases")
            continue
        person = _person(item, where, errors)
        if person is None:
            continue
        if any(p.id == person.id for p in people):
            errors.add(f"{where}.id", f"duplicate id {person.id!r}", near=person.id)
            continue
        for j, name in enumerate(person.names):
            field = f"{where}.name" if j == 0 else f"{where}.aliases[{j - 1}]"
            key = normalise(name)
            if key in reserved:
                errors.add(field, f"{name!r} means the asking user (--user); remove it",
                           near=name)
            elif owners.get(key, person.id) != person.id:
                errors.add(field, f"{name!r} already names {owners[key]!r}; a name must "
                           "point to one person", near=name)
            owners.setdefault(key, person.id)
        people.append(person)
    return people


def _person(item: Mapping[str, Any], where: str, errors: _Errors) -> Person | None:
    before = len(errors.items)
    for key in sorted(set(item) - _PERSON):
        errors.add(f"{where}.{key}", "unknown field; allowed: id, name, aliases")
    ident, name = item.get("id"), item.get("name")
    near = ident if isinstance(ident, str) else None
    if not isinstance(ident, str) or not ident.strip():
        errors.add(f"{where}.id", "required: a non-empty string")
    if not isinstance(name, str) or not name.strip():
        errors.add(f"{where}.name", "required: a non-empty string", near=near)
    aliases = item.get("aliases", [])
    if not isinstance(aliases, list):
        errors.add(f"{where}.aliases", "must be a list of strings", near=near)
        aliases = []
    for j, alias in enumerate(aliases):
        if not isinstance(alias, str) or not alias.strip():
            errors.add(f"{where}.aliases[{j}]", "must be a non-empty string", near=near)
    if len(errors.items) > before:
        return None
    assert isinstance(ident, str) and isinstance(name, str)
    unique = tuple(dict.fromkeys(a.strip() for a in aliases))
    return Person(ident.strip(), name.strip(), unique)


def _access(value: Any, known: set[str], errors: _Errors) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        errors.add("access", "must be an object: reader id -> list of subject ids")
        return {}
    access: dict[str, tuple[str, ...]] = {}
    for reader, subjects in value.items():
        where = f"access.{reader}"
        if reader not in known:
            errors.add(where, f"unknown reader {reader!r}; add them to people", near=reader)
        if not isinstance(subjects, list) or not all(isinstance(s, str) for s in subjects):
            errors.add(where, "must be a list of person ids", near=reader)
            continue
        for subject in subjects:
            if subject not in known:
                errors.add(where, f"unknown subject {subject!r}; add them to people",
                           near=reader)
        access[reader] = tuple(sorted(set(subjects) - {reader}))
    return access
