"""Validation of one raw record (a JSON object or front matter + body) into a ``Document``.

Every field is checked and every problem collected, so one run of ``chronorag ingest``
reports all mistakes of a file at once instead of one per attempt. Problems are reported
in the order of the schema's fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import Any

from chronorag.contract import field_names
from chronorag.errors import FieldError
from chronorag.ingest.formats.layout import LAYOUT_KEY
from chronorag.ingest.stated import PROPOSED, propose
from chronorag.model import Document, Interval, Status

__all__ = ["DateReading", "RawRecord", "build_document"]


@dataclass(frozen=True)
class RawRecord:
    """One document as read from a file, before validation.

    ``field_lines`` gives the line of a field when the format knows it (YAML front
    matter); other fields are reported at ``line``. ``defaults`` supplies ``id`` and
    ``title`` when the format derives them (a Markdown file's path and heading).
    ``layout`` is what a format reader found (``chronorag.ingest.formats.Layout``, as
    JSON); it is stored in the document's metadata under ``"_layout"``.
    """

    path: str
    line: int
    fields: Mapping[str, Any]
    source: str
    field_lines: Mapping[str, int] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    layout: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class DateReading:
    """How a date field written in words was read, for the ingest report."""

    path: str
    line: int
    field: str
    text: str
    interval: Interval

    def __str__(self) -> str:
        start = self.interval.start
        granularity = self.interval.granularity
        day = "" if start is None else start.date().isoformat()
        shown = {"year": day[:4], "month": day[:7]}.get(str(granularity), day)
        return (f'{self.path}:{self.line}: {self.field} "{self.text}" read as {shown} '
                f"({granularity})")


def build_document(raw: RawRecord, *, tz: tzinfo = UTC,
                   readings: list[DateReading] | None = None
                   ) -> tuple[Document | None, list[FieldError]]:
    """Validate ``raw``; return the document (``None`` on any error) and the errors.

    Date fields written in words are appended to ``readings`` with the reading taken. The
    dates and links the text states are kept as proposals in ``metadata["_proposed"]``
    (``chronorag.ingest.stated``).
    """
    # pydantic loads with the first record validated: commands that validate nothing start
    # without it.
    from chronorag.ingest import schema

    values = {**raw.defaults, **{k: v for k, v in raw.fields.items() if v is not None}}
    read: list[tuple[str, str, Interval]] = []
    try:
        s = schema.DocumentSchema.model_validate(values, context={"tz": tz, "readings": read})
    except schema.SchemaError as exc:
        def place(name: str, reason: str, near: Any) -> FieldError:
            return FieldError(raw.path, raw.field_lines.get(name, raw.line), name, reason)
        return None, schema.field_errors(exc, place=place, reasons=schema.REASONS)
    if readings is not None:
        readings.extend(DateReading(raw.path, raw.field_lines.get(name, raw.line), name, text,
                                    interval) for name, text, interval in read)
    proposals = propose(s.text, tz=tz)
    metadata = dict(s.extra)
    if raw.layout is not None:
        metadata[LAYOUT_KEY] = dict(raw.layout)
    if proposals:
        metadata[PROPOSED] = [p.to_json() for p in proposals]
    # The schema names every field of a document but its source (the tests hold it to
    # that); these four are read differently.
    given = {name: getattr(s, name) for name in field_names(Document)
             if name in schema.DocumentSchema.model_fields}
    return Document(**{**given, "title": s.title or "", "metadata": metadata,
                       "source": raw.source,
                       "status": None if s.status is None else Status(s.status)}), []
