"""Validation of one raw record (a JSON object or front matter + body) into a ``Document``.

Every field is checked and every problem collected, so one run of ``chronorag ingest``
reports all mistakes of a file at once instead of one per attempt.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import Any

from chronorag.errors import FieldError
from chronorag.ingest.dates import DateError, parse_date
from chronorag.model import Document, Interval, Status

__all__ = ["DATE_FIELDS", "RawRecord", "build_document"]

DATE_FIELDS = ("valid_from", "valid_to", "occurred_at", "published_at", "modified_at")
_STRING_FIELDS = ("source_type", "subject", "owner")
_LIST_FIELDS = ("supersedes", "derived_from")
_SYSTEM_FIELDS = ("ingested_at",)
_KNOWN = {"id", "text", "title", "status", "metadata", *DATE_FIELDS, *_STRING_FIELDS,
          *_LIST_FIELDS, *_SYSTEM_FIELDS}


@dataclass(frozen=True)
class RawRecord:
    """One document as read from a file, before validation.

    ``field_lines`` gives the line of a field when the format knows it (YAML front
    matter); other fields are reported at ``line``. ``defaults`` supplies ``id`` and
    ``title`` when the format derives them (a Markdown file's path and heading).
    """

    path: str
    line: int
    fields: Mapping[str, Any]
    source: str
    field_lines: Mapping[str, int] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)


class _Errors:
    """Collects ``FieldError`` items for one record."""

    def __init__(self, raw: RawRecord) -> None:
        self.raw = raw
        self.items: list[FieldError] = []

    def add(self, name: str, reason: str) -> None:
        line = self.raw.field_lines.get(name, self.raw.line)
        self.items.append(FieldError(self.raw.path, line, name, reason))


def build_document(raw: RawRecord, *, tz: tzinfo = UTC) -> tuple[Document | None, list[FieldError]]:
    """Validate ``raw``; return the document (``None`` on any error) and the errors."""
    errors = _Errors(raw)
    values = {**raw.defaults, **{k: v for k, v in raw.fields.items() if v is not None}}
    doc_id = _required_string(values, "id", errors)
    text = _required_string(values, "text", errors)
    title = _optional_string(values, "title", errors) or ""
    strings = {name: _optional_string(values, name, errors) for name in _STRING_FIELDS}
    status = _status(values, errors)
    dates = _dates(values, tz, errors)
    lists = {name: _id_list(values, name, doc_id, errors) for name in _LIST_FIELDS}
    metadata = _metadata(values, errors)
    for name in _SYSTEM_FIELDS:
        if name in values:
            errors.add(name, "is set by the system; remove it")
    if errors.items or doc_id is None or text is None:
        return None, errors.items
    document = Document(
        id=doc_id, text=text, title=title, status=status, metadata=metadata,
        source=raw.source, supersedes=lists["supersedes"], derived_from=lists["derived_from"],
        source_type=strings["source_type"], subject=strings["subject"], owner=strings["owner"],
        valid_from=dates["valid_from"], valid_to=dates["valid_to"],
        occurred_at=dates["occurred_at"], published_at=dates["published_at"],
        modified_at=dates["modified_at"],
    )
    return document, []


def _required_string(values: Mapping[str, Any], name: str, errors: _Errors) -> str | None:
    value = values.get(name)
    if value is None:
        errors.add(name, "is required")
        return None
    if not isinstance(value, str):
        errors.add(name, f"must be a string, got {_kind(value)}")
        return None
    if not value.strip():
        errors.add(name, "is empty")
        return None
    return value


def _optional_string(values: Mapping[str, Any], name: str, errors: _Errors) -> str | None:
    value = values.get(name)
    if value is None or isinstance(value, str):
        return value
    errors.add(name, f"must be a string, got {_kind(value)}")
    return None


def _status(values: Mapping[str, Any], errors: _Errors) -> Status | None:
    value = values.get("status")
    if value is None:
        return None
    choices = [s.value for s in Status]
    if isinstance(value, str) and value in choices:
        return Status(value)
    errors.add("status", f"{value!r} is not one of {', '.join(choices)} (or leave it out)")
    return None


def _dates(values: Mapping[str, Any], tz: tzinfo, errors: _Errors) -> dict[str, Interval | None]:
    dates: dict[str, Interval | None] = {}
    for name in DATE_FIELDS:
        value = values.get(name)
        dates[name] = None
        if value is None:
            continue
        try:
            dates[name] = parse_date(value, tz=tz)
        except DateError as exc:
            errors.add(name, str(exc))
    start, end = dates["valid_from"], dates["valid_to"]
    if start is not None and end is not None and start.start and end.start:
        shown = _show(values["valid_from"])
        if end.start < start.start:
            errors.add("valid_to", f"is before valid_from ({shown})")
        elif end.start == start.start:
            errors.add("valid_to", f"is the same as valid_from ({shown}); it must be later")
    return dates


def _id_list(values: Mapping[str, Any], name: str, doc_id: str | None,
             errors: _Errors) -> tuple[str, ...]:
    value = values.get(name)
    if value is None:
        return ()
    if not isinstance(value, list):
        errors.add(name, f"must be a list of document ids, got {_kind(value)}")
        return ()
    ids: list[str] = []
    for position, item in enumerate(value, start=1):
        if not isinstance(item, str) or not item.strip():
            errors.add(name, f"item {position} must be a non-empty document id string")
        elif item == doc_id:
            errors.add(name, f"lists the document itself ({item!r})")
        elif item not in ids:
            ids.append(item)
    return tuple(ids)


def _metadata(values: Mapping[str, Any], errors: _Errors) -> dict[str, Any]:
    """Unknown fields are kept as metadata; an explicit ``metadata`` object is merged in."""
    explicit = values.get("metadata", {})
    metadata: dict[str, Any] = {}
    if isinstance(explicit, dict):
        metadata.update(explicit)
    else:
        errors.add("metadata", f"must be an object, got {_kind(explicit)}")
    metadata.update({k: v for k, v in values.items() if k not in _KNOWN})
    for key, value in metadata.items():
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            errors.add(str(key), "must hold JSON values (string, number, bool, list, object)")
    return metadata


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", list: "a list",
             dict: "an object", str: "a string"}
    return names.get(type(value), type(value).__name__)


def _show(value: object) -> str:
    return value if isinstance(value, str) else str(value)
