"""The schema of one document record: its fields in the order their problems are reported,
and the validators that word them (see ``chronorag.validation``)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, Field, PlainValidator, ValidationInfo

from chronorag.ingest.dates import DateError, is_iso, parse_date
from chronorag.ingest.formats.layout import LAYOUT_KEY
from chronorag.ingest.stated import FROM_TEXT, PROPOSED
from chronorag.model import Interval, Status
from chronorag.validation import (
    Loc,
    Schema,
    SchemaError,
    context,
    field_errors,
    one_of,
    problem,
    problems,
    raw_of,
)

__all__ = ["REASONS", "DocumentSchema", "SchemaError", "field_errors"]


def _not_blank(value: str) -> str:
    if not value.strip():
        raise problem("is empty")
    return value


def _date(value: Any, info: ValidationInfo) -> Interval:
    given = context(info)
    try:
        interval = parse_date(value, tz=given["tz"], written=True)
    except DateError as exc:
        raise problem(str(exc)) from None
    # A date written in words is read one way; the caller reports which (``readings``).
    if isinstance(value, str) and not is_iso(value) and "readings" in given:
        given["readings"].append((info.field_name, value.strip(), interval))
    return interval


def _in_order(raw_from: Any, info: ValidationInfo) -> None:
    start, end = info.data.get("valid_from"), info.data.get("valid_to")
    if start is None or end is None or not (start.start and end.start):
        return
    shown = raw_from if isinstance(raw_from, str) else str(raw_from)
    if end.start < start.start:
        raise problem(f"is before valid_from ({shown})", at="valid_to")
    if end.start == start.start:
        raise problem(f"is the same as valid_from ({shown}); it must be later", at="valid_to")


def _ids(value: Any, info: ValidationInfo) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise problem(f"must be a list of document ids, got {_kind(value)}")
    found: list[tuple[Loc, Any]] = []
    ids: list[str] = []
    for position, item in enumerate(value, start=1):
        if not isinstance(item, str) or not item.strip():
            found.append(((), problem(f"item {position} must be a non-empty document id "
                                      "string")))
        elif item == info.data.get("id"):
            found.append(((), problem(f"lists the document itself ({item!r})")))
        elif item not in ids:
            ids.append(item)
    if found:
        raise problems(found)
    return tuple(ids)


def _conditions(value: Any) -> dict[str, tuple[str, ...]]:
    """``applies_to``: condition key -> the values the document holds for (one value may
    be written as a string). Whether the keys are declared is checked against the store."""
    if not isinstance(value, dict):
        raise problem('must be an object: condition key -> list of values, e.g. '
                      '{"region": ["EU"]}')
    found: list[tuple[Loc, Any]] = []
    out: dict[str, tuple[str, ...]] = {}
    for key, values in value.items():
        items = [values] if isinstance(values, str) else values
        if not isinstance(key, str) or not key.strip():
            found.append(((), problem("a condition key must be a non-empty string")))
        elif not isinstance(items, list) or not items or not all(
                isinstance(v, str) and v.strip() for v in items):
            found.append(((), problem("must be a non-empty list of non-empty strings",
                                      at=f"applies_to.{key}")))
        else:
            out[key.strip()] = tuple(v.strip() for v in items)
    if found:
        raise problems(found)
    return out


def _metadata(extra: dict[Any, Any], info: ValidationInfo) -> dict[Any, Any]:
    """Unknown fields are kept as metadata, over the keys of an explicit ``metadata``."""
    metadata = {**(info.data.get("metadata") or {}), **extra}
    if LAYOUT_KEY in metadata:
        raise problem("is reserved for the layout chronorag reads from Markdown, HTML, PDF "
                      "and DOCX files; rename the field", at=LAYOUT_KEY)
    reserved = [key for key in (PROPOSED, FROM_TEXT) if key in metadata]
    if reserved:
        raise problems(((), problem("is set by the system (dates the text states); remove "
                                    "it", at=key)) for key in reserved)
    bad = []
    for key, value in metadata.items():
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            bad.append(str(key))
    if bad:
        raise problems(((), problem("must hold JSON values (string, number, bool, list, "
                                    "object)", at=key)) for key in bad)
    return metadata


def _set_by_the_system(value: Any) -> None:
    raise problem("is set by the system; remove it")


_Text = Annotated[str, AfterValidator(_not_blank)]
_Date = Annotated[Interval | None, PlainValidator(_date)]
_Ids = Annotated[tuple[str, ...], PlainValidator(_ids)]


class DocumentSchema(Schema):
    """A document record; ``extra`` gathers the unknown fields, which become metadata."""

    id: _Text
    text: _Text
    title: str | None = None
    source_type: str | None = None
    subject: str | None = None
    owner: str | None = None
    status: Annotated[str | None, one_of([s.value for s in Status],
                                         hint=" (or leave it out)")] = None
    valid_from: _Date = None
    valid_to: _Date = None
    occurred_at: _Date = None
    published_at: _Date = None
    modified_at: _Date = None
    in_order: Annotated[None, PlainValidator(_in_order)] = raw_of("valid_from")
    supersedes: _Ids = ()
    derived_from: _Ids = ()
    applies_to: Annotated[dict[str, tuple[str, ...]], PlainValidator(_conditions)] = Field(
        default_factory=dict)
    metadata: dict[Any, Any] | None = None
    extra: Annotated[dict[Any, Any], AfterValidator(_metadata)] = Field(default_factory=dict)
    ingested_at: Annotated[None, PlainValidator(_set_by_the_system)] = None


REASONS = {"missing": lambda _: "is required",
           "string_type": lambda value: f"must be a string, got {_kind(value)}",
           "dict_type": lambda value: f"must be an object, got {_kind(value)}"}
"""How pydantic's own problems of the fields above are worded."""


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", list: "a list",
             dict: "an object", str: "a string"}
    return names.get(type(value), type(value).__name__)
