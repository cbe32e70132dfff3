"""Validation of people files: every problem reported as path:line: field: reason."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


def test_problems_are_on_the_first_line_holding_the_id_or_name() -> None:
    # Invalid people are not people: access may not name them.
    text = json.dumps({"people": [{"id": "a", "name": "Ann", "zz": 1},
                                  {"id": "b", "name": "Bo", "aliases": ["ann", " "]},
                                  {"id": "  ", "name": ""}, 7],
                       "access": {"b": ["a", "q"], "a": "b"}}, indent=1)
    assert _errors(text) == [
        "p.json:1: people[0].zz: unknown field; allowed: id, name, aliases, attributes",
        "p.json:9: people[1].aliases[1]: must be a non-empty string",
        "p.json:1: people[2].id: required: a non-empty string",
        "p.json:17: people[2].name: required: a non-empty string",
        "p.json:1: people[3]: must be an object with id, name and aliases",
        "p.json:9: access.b: unknown reader 'b'; add them to people",
        "p.json:9: access.b: unknown subject 'a'; add them to people",
        "p.json:9: access.b: unknown subject 'q'; add them to people",
        "p.json:4: access.a: unknown reader 'a'; add them to people",
        "p.json:4: access.a: must be a list of person ids",
    ]


def test_a_name_points_to_one_person() -> None:
    errors = _errors('{"people": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bo",'
                     '"aliases": ["ANN"]}], "access": [], "people2": 1}')
    assert errors == [
        'p.json:1: people2: unknown field; allowed: "people", "access"',
        "p.json:1: people[1].aliases[0]: 'ANN' already names 'a'; a name must point to one "
        "person",
        "p.json:1: access: must be an object: reader id -> list of subject ids"]


@pytest.mark.parametrize("text", ["[]", '{"access": {}}'])
def test_file_shape(text: str) -> None:
    expected = ('file: must be a JSON object with "people" and "access"' if text == "[]"
                else "people: required: a list of {id, name, aliases}")
    assert _errors(text) == [f"p.json:1: {expected}"]


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8))
def test_any_attributes_are_a_person_or_a_reason(value: object) -> None:
    text = json.dumps({"people": [{"id": "a", "name": "Ann", "attributes": value}]})
    try:
        directory = parse_directory(text, path="p.json")
    except ValidationError as exc:
        assert all(e.reason and e.path == "p.json" for e in exc.errors)
    else:
        assert all(isinstance(v, str) and v for v in directory.people[0].attributes.values())
