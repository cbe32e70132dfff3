"""Validation of semantic-layer entries into ``Asset`` values; every problem is collected.

Errors read ``file:line: metrics[2].table: reason``: the line of the field when the file
format knows it, else of the entry (0 when only the JSON path is known). An entry's
problems are reported check by check (``schema.CHECKS``); after every entry come the problems
across entries: duplicate keys, then references that do not resolve.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from chronorag.errors import FieldError
from chronorag.semantic.entry import Entry
from chronorag.semantic.model import Asset

if TYPE_CHECKING:
    from chronorag.validation import Place

__all__ = ["Entry", "validate_layer"]


def validate_layer(entries: list[Entry], *, tz: tzinfo,
                   known: Mapping[str, frozenset[str]]) -> tuple[list[Asset], list[FieldError]]:
    """Assets of all entries, or the errors; references are checked across all files."""
    # pydantic loads with the first layer validated: commands that validate nothing start
    # without it.
    from chronorag.semantic.schema import CHECKS, REASONS, Layer, build_asset
    from chronorag.validation import SchemaError, field_errors

    assets: list[tuple[Asset, Entry]] = []
    errors: list[FieldError] = []
    for entry in entries:
        try:
            assets.append((build_asset(entry, tz=tz), entry))
        except SchemaError as exc:
            errors += field_errors(exc, place=_place(entry), reasons=REASONS, order=CHECKS)
    try:
        Layer.model_validate({"assets": assets, "known": known})
    except SchemaError as exc:
        errors += field_errors(exc, place=lambda name, reason, near: _place(near)(
            name, reason, None))
    return [a for a, _ in assets], errors


def _place(entry: Entry) -> Place:
    """Problems of ``entry``; a problem across entries anchors (``near``) its own entry."""
    def place(name: str, reason: str, near: Any) -> FieldError:
        e: Entry = near or entry
        head = name.split(".", 1)[0]
        line = e.field_lines.get(head, e.field_lines.get(head.split("[", 1)[0], e.line))
        where = f"{e.kind}s[{e.index}]" + (f".{name}" if name else "")
        return FieldError(e.path, line, where, reason)
    return place
