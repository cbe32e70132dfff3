"""Validation of a people file into a :class:`Directory`.

The file is JSON: ``{"people": [{"id", "name", "aliases": [...]}], "access": {READER:
[SUBJECT, ...]}}``. Like documents, every problem is collected and reported as
``path:line: field: reason`` (``ValidationError``, exit code 2), and nothing is stored
when any problem is found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chronorag.errors import FieldError, ValidationError
from chronorag.people.model import Directory, Person

__all__ = ["line_of", "load_directory", "parse_directory"]


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
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError([FieldError(path, exc.lineno, "file",
                                          f"not valid JSON ({exc.msg})")]) from None
    # pydantic loads with the first people file validated: commands that validate nothing
    # start without it.
    from chronorag.people.schema import PeopleSchema
    from chronorag.validation import SchemaError, field_errors

    try:
        schema = PeopleSchema.model_validate(raw, context={"ids": set(), "owners": {}})
    except SchemaError as exc:
        def place(name: str, reason: str, near: Any) -> FieldError:
            return FieldError(path, line_of(text, near), name or "file", reason)
        raise ValidationError(field_errors(exc, place=place)) from None
    people = tuple(Person(p.id, p.name, p.aliases, p.attributes) for p in schema.people)
    return Directory(people, schema.access)


def line_of(text: str, near: str | None) -> int:
    """The first line of ``text`` that holds the JSON string ``near`` (1 when none does)."""
    # JSON parsers give no positions for values: the first line holding the value
    # (e.g. the person's id) is close enough to find the mistake.
    if near is None:
        return 1
    at = text.find(json.dumps(near, ensure_ascii=False))
    return 1 if at < 0 else text.count("\n", 0, at) + 1
