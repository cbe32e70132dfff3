"""The one error path of the input schemas: pydantic's collected problems become
``path:line: field: reason`` items, and any input is a value or such items, never a crash."""

from __future__ import annotations

import json
import os
from datetime import UTC
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, PlainValidator

from chronorag.errors import FieldError, ValidationError
from chronorag.ingest.validate import RawRecord, build_document
from chronorag.people import parse_directory
from chronorag.semantic.validate import Entry, validate_layer
from chronorag.validation import Schema, SchemaError, field_errors, one_of, problem, problems


def _place(name: str, reason: str, near: Any) -> FieldError:
    return FieldError("f", 0 if near is None else near, name, reason)


def _collect(schema: type[Schema], value: Any, **options: Any) -> list[str]:
    with pytest.raises(SchemaError) as caught:
        schema.model_validate(value)
    return [str(e) for e in field_errors(caught.value, place=_place, **options)]


def _items(value: Any) -> Any:
    raise problems([((0,), problem("first", check="late")), ((2, "x"), problem("third"))])


def _unknown(extra: dict[Any, Any]) -> dict[Any, Any]:
    if extra:
        raise problems(((), problem("unknown", at=str(key), near=7)) for key in extra)
    return extra


class _Sample(Schema):
    not_a_mapping = "must be an object"
    extra: Annotated[dict[Any, Any], PlainValidator(_unknown)] = Field(default_factory=dict)
    name: str
    items: Annotated[Any, PlainValidator(_items)] = None
    kind: Annotated[str | None, one_of(("a", "b"), hint=" (or none)", check="late")] = None


def test_locations_are_dotted_and_reasons_worded() -> None:
    assert _collect(_Sample, {"items": [], "kind": "c", "zz": 1},
                    reasons={"missing": lambda _: "is required"}) == [
        "f:7: zz: unknown",  # where the schema declares extra: first
        "f:0: name: is required",
        "f:0: items[0]: first",
        "f:0: items[2].x: third",
        "f:0: kind: 'c' is not one of a, b (or none)",
    ]


def test_unworded_types_keep_pydantic_message_and_order_sorts_by_check() -> None:
    assert _collect(_Sample, {"name": 5, "items": 1}, order=("late", "string_type")) == [
        "f:0: items[0]: first", "f:0: name: Input should be a valid string",
        "f:0: items[2].x: third"]


def test_input_that_is_not_a_mapping_is_one_problem() -> None:
    assert _collect(_Sample, [1]) == ["f:0: : must be an object"]


def test_at_renames_or_drops_the_last_part() -> None:
    def rename(value: Any) -> Any:
        raise problems([((), problem("sibling", at="other")), ((1,), problem("parent", at=""))])

    class Renaming(Schema):
        a: Annotated[Any, PlainValidator(rename)]

    assert _collect(Renaming, {"a": 1}) == ["f:0: other: sibling", "f:0: a: parent"]


def test_undeclared_keys_reach_extra_even_when_named_like_a_field() -> None:
    # "extra" itself and non-string keys (YAML) are undeclared keys like any other.
    assert _collect(_Sample, {"name": "n", "extra": 1, 3: 2}) == [
        "f:7: extra: unknown", "f:7: 3: unknown"]


def test_semantic_entry_problems_are_reported_check_by_check() -> None:
    entry = Entry("l.yaml", 4, "metric", 2, {"table": 5, "status": "x", "bogus": 1},
                  {"status": 6})
    _, errors = validate_layer([entry], tz=UTC, known={})
    assert [str(e) for e in errors] == [
        "l.yaml:4: metrics[2].bogus: unknown field; use one of derived_from, description, "
        "expression, id, metadata, modified_at, name, owner, published_at, source_type, "
        "status, supersedes, table, valid_from, valid_to",
        "l.yaml:4: metrics[2].id: is required",
        "l.yaml:4: metrics[2].expression: is required",
        "l.yaml:4: metrics[2].table: must be a non-empty string",
        "l.yaml:6: metrics[2].status: 'x' is not one of certified, approved, draft, retired",
    ]


def test_semantic_problems_across_entries_name_their_own_entry() -> None:
    table = {"id": "t", "columns": [{"name": "c", "role": "pk"}]}
    entries = [Entry("a.yaml", 3, "table", 0, table),
               Entry("b.yaml", 9, "table", 0, table, {"id": 10}),
               Entry("b.yaml", 12, "metric", 0, {"id": "m", "table": "u", "expression": "1"})]
    _, errors = validate_layer(entries, tz=UTC, known={})
    assert [str(e) for e in errors] == [
        "b.yaml:10: tables[0].id: duplicate table 't'; first at a.yaml:3",
        "b.yaml:12: metrics[0].table: 'u' is not a known table"]


# Any JSON value, keys included, with text that steers the validators: dates, blanks, ids.
TEXT = st.one_of(st.text(max_size=8), st.sampled_from(
    ["", " ", "\x1c", "2021", "2021-05", "2026-13-45", "approved", "a", "我", "me", "pk"]))
KEYS = st.one_of(TEXT, st.sampled_from(
    ["id", "text", "name", "aliases", "people", "access", "valid_from", "valid_to",
     "supersedes", "metadata", "ingested_at", "columns", "table", "term", "maps_to", "role"]))
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=20)
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None)


def _check(errors: list[FieldError], path: str) -> None:
    for error in errors:
        assert error.path == path and error.line >= 0 and "\n" not in error.reason


@FUZZ
@given(fields=st.dictionaries(KEYS, JSON, max_size=8), line=st.integers(1, 9))
def test_any_record_is_a_document_or_field_errors(fields: dict[str, Any], line: int) -> None:
    document, errors = build_document(RawRecord("r.jsonl", line, fields, "r"), tz=UTC)
    assert (document is None) == bool(errors)
    _check(errors, "r.jsonl")


@FUZZ
@given(values=st.lists(st.tuples(st.sampled_from(["table", "metric", "term", "join",
                                                  "example", "rule"]), JSON), max_size=4))
def test_any_layer_entry_is_an_asset_or_field_errors(values: list[tuple[str, Any]]) -> None:
    entries = [Entry("l.yaml", 1, kind, i, value) for i, (kind, value) in enumerate(values)]
    assets, errors = validate_layer(entries, tz=UTC, known={})
    assert errors or len(assets) == len(entries)
    _check(errors, "l.yaml")


@FUZZ
@given(data=st.one_of(JSON, st.text(max_size=40)), indent=st.sampled_from([None, 2]))
def test_any_people_file_is_a_directory_or_field_errors(data: Any, indent: int | None) -> None:
    text = data if isinstance(data, str) else json.dumps(data, indent=indent,
                                                         ensure_ascii=False)
    try:
        parse_directory(text, path="p.json")
    except ValidationError as exc:
        assert exc.errors
        _check(list(exc.errors), "p.json")
