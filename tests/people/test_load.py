"""Validation of people files: every problem reported as path:line: field: reason."""

from __future__ import annotations

import pytest

from chronorag.errors import ValidationError
from chronorag.people import parse_directory


def _errors(text: str) -> list[str]:
    with pytest.raises(ValidationError) as info:
        parse_directory(text, path="p.json")
    return [str(e) for e in info.value.errors]


def test_valid_file() -> None:
    directory = parse_directory('{"people": [{"id": "a", "name": "Ann", "aliases": ["妈妈"]},'
                                '{"id": "b", "name": "Bo"}], "access": {"a": ["b", "a"]}}')
    assert [p.id for p in directory.people] == ["a", "b"]
    assert directory.access == {"a": ("b",)}


def test_every_problem_is_reported() -> None:
    errors = _errors('{"people": [{"id": "a", "name": "我"}, {"id": "b", "name": "",'
                     '"aliases": [1]}, {"id": "a", "name": "x"}], "access": {"zz": ["a"]},'
                     '"extra": 1}')
    assert errors == [
        'p.json:1: extra: unknown field; allowed: "people", "access"',
        "p.json:1: people[0].name: '我' means the asking user (--user); remove it",
        "p.json:1: people[1].name: required: a non-empty string",
        "p.json:1: people[1].aliases[0]: must be a non-empty string",
        "p.json:1: people[2].id: duplicate id 'a'",
        "p.json:1: access.zz: unknown reader 'zz'; add them to people",
    ]


def test_not_json() -> None:
    assert _errors("{people") == ["p.json:1: file: not valid JSON (Expecting property name "
                                  "enclosed in double quotes)"]
