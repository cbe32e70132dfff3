"""Validation of semantic-layer entries into ``Asset`` values; every problem is collected.

Errors read ``file:line: metrics[2].table: reason``: the line of the field when the file
format knows it, else of the entry (0 when only the JSON path is known).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any

from chronorag.errors import FieldError
from chronorag.ingest.dates import DateError, parse_date
from chronorag.model import Interval
from chronorag.semantic.model import FANOUTS, ROLES, STATUSES, Asset

_COMMON = ("status", "valid_from", "valid_to", "published_at", "supersedes", "derived_from",
           "owner", "description", "metadata", "modified_at", "source_type")
_FIELDS: Mapping[str, tuple[str, ...]] = {
    "table": ("id", "columns"),
    "metric": ("id", "name", "table", "expression"),
    "term": ("term", "synonyms", "maps_to", "value", "id"),
    "join": ("id", "left", "right", "on", "fanout"),
    "example": ("id", "question", "sql"),
    "rule": ("id", "text", "applies_to"),
}
_REQUIRED: Mapping[str, tuple[str, ...]] = {
    "table": ("id",), "metric": ("id", "table", "expression"), "term": ("term", "maps_to"),
    "join": ("left", "right", "on", "fanout"), "example": ("id", "question", "sql"),
    "rule": ("id", "text"),
}


@dataclass(frozen=True)
class Entry:
    """One raw entry of a layer file with where it was read."""

    path: str
    line: int
    kind: str
    index: int
    value: Any
    field_lines: Mapping[str, int] = field(default_factory=dict)


class _Errors:
    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self.items: list[FieldError] = []

    def add(self, name: str, reason: str) -> None:
        e = self.entry
        head = name.split(".", 1)[0]
        line = e.field_lines.get(head, e.field_lines.get(head.split("[", 1)[0], e.line))
        where = f"{e.kind}s[{e.index}]" + (f".{name}" if name else "")
        self.items.append(FieldError(e.path, line, where, reason))


def validate_layer(entries: list[Entry], *, tz: tzinfo,
                   known: Mapping[str, frozenset[str]]) -> tuple[list[Asset], list[FieldError]]:
    """Assets of all entries, or the errors; references are checked across all files."""
    assets: list[tuple[Asset, Entry]] = []
    errors: list[FieldError] = []
    for entry in entries:
        asset, entry_errors = _build(entry, tz)
        errors += entry_errors
        if asset is not None:
            assets.append((asset, entry))
    errors += _duplicates(assets)
    errors += _references(assets, known)
    return [a for a, _ in assets], errors


def _build(entry: Entry, tz: tzinfo) -> tuple[Asset | None, list[FieldError]]:
    errors = _Errors(entry)
    value = entry.value
    if not isinstance(value, dict):
        errors.add("", "must be a mapping of field: value")
        return None, errors.items
    allowed = set(_FIELDS[entry.kind]) | set(_COMMON)
    for name in value:
        if name not in allowed:
            errors.add(str(name), f"unknown field; use one of {', '.join(sorted(allowed))}")
    for name in _REQUIRED[entry.kind]:
        if value.get(name) is None:
            errors.add(name, "is required")
    body = {k: v for k, v in value.items() if k in allowed and v is not None}
    for name in ("id", "term", "name", "table", "expression", "maps_to", "left", "right", "on",
                 "question", "sql", "text", "description", "owner", "value"):
        if name in body and (not isinstance(body[name], str) or not body[name].strip()):
            errors.add(name, "must be a non-empty string")
    status = body.get("status")
    if status is not None and status not in STATUSES:
        errors.add("status", f"{status!r} is not one of {', '.join(STATUSES)}")
    if entry.kind == "join" and body.get("fanout") not in (None, *FANOUTS):
        errors.add("fanout", f"{body['fanout']!r} is not one of {', '.join(FANOUTS)}")
    dates = _dates(body, tz, errors)
    lists = {n: _strings(body, n, errors) for n in ("supersedes", "derived_from", "synonyms",
                                                    "applies_to")}
    if entry.kind == "table":
        _columns(body.get("columns", []), errors)
    if errors.items:
        return None, errors.items
    asset_id = _asset_id(entry.kind, body)
    if asset_id in lists["supersedes"]:
        errors.add("supersedes", f"lists the entry itself ({asset_id!r})")
        return None, errors.items
    return Asset(
        kind=entry.kind, id=asset_id, body=body, status=status,
        valid_from=dates["valid_from"], valid_to=dates["valid_to"],
        published_at=dates["published_at"], supersedes=lists["supersedes"],
        derived_from=lists["derived_from"], owner=body.get("owner"),
        source=f"{entry.path}:{entry.line}",
    ), []


def _asset_id(kind: str, body: Mapping[str, Any]) -> str:
    if kind == "term":
        return str(body.get("id") or body["term"])
    if kind == "join":
        return str(body.get("id") or f"{body['left']}--{body['right']}")
    return str(body["id"])


def _dates(body: Mapping[str, Any], tz: tzinfo, errors: _Errors) -> dict[str, Interval | None]:
    out: dict[str, Interval | None] = {}
    for name in ("valid_from", "valid_to", "published_at", "modified_at"):
        out[name] = None
        if body.get(name) is None:
            continue
        try:
            out[name] = parse_date(body[name], tz=tz)
        except DateError as exc:
            errors.add(name, str(exc))
    start, end = out["valid_from"], out["valid_to"]
    if start and end and start.start and end.start and end.start <= start.start:
        errors.add("valid_to", f"must be later than valid_from ({body['valid_from']})")
    return out


def _strings(body: Mapping[str, Any], name: str, errors: _Errors) -> tuple[str, ...]:
    value = body.get(name)
    if value is None:
        return ()
    if isinstance(value, str) and name in ("supersedes", "derived_from", "applies_to"):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        errors.add(name, "must be a list of non-empty strings")
        return ()
    return tuple(dict.fromkeys(value))


def _columns(columns: Any, errors: _Errors) -> None:
    if not isinstance(columns, list):
        errors.add("columns", "must be a list of {name, type, role} entries")
        return
    seen: set[str] = set()
    for i, column in enumerate(columns):
        where = f"columns[{i}]"
        if not isinstance(column, dict):
            errors.add(where, "must be a mapping with name, type and role")
            continue
        name = column.get("name")
        if not isinstance(name, str) or not name.strip():
            errors.add(f"{where}.name", "is required (a non-empty string)")
        elif name in seen:
            errors.add(f"{where}.name", f"duplicate column {name!r}")
        else:
            seen.add(name)
        if column.get("role") not in ROLES:
            errors.add(f"{where}.role", f"{column.get('role')!r} is not one of {', '.join(ROLES)}")
        unknown = set(column) - {"name", "type", "role", "description"}
        if unknown:
            errors.add(where, f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; "
                              "use name, type, role, description")


def _duplicates(assets: list[tuple[Asset, Entry]]) -> list[FieldError]:
    first: dict[str, Entry] = {}
    errors: list[FieldError] = []
    for asset, entry in assets:
        if asset.key in first:
            seen = first[asset.key]
            hint = "; give each join an id" if asset.kind == "join" else ""
            errors.append(_last(entry, "id", f"duplicate {asset.kind} {asset.id!r}; first at "
                                             f"{seen.path}:{seen.line}{hint}"))
        else:
            first[asset.key] = entry
    return errors


def _last(entry: Entry, name: str, reason: str) -> FieldError:
    collector = _Errors(entry)
    collector.add(name, reason)
    return collector.items[0]


def _references(assets: list[tuple[Asset, Entry]],
                known: Mapping[str, frozenset[str]]) -> list[FieldError]:
    """Metrics, terms, joins and rules must point at tables/columns/metrics that exist."""
    ids: dict[str, set[str]] = {k: set(v) for k, v in known.items()}
    for asset, _ in assets:
        ids.setdefault(asset.kind, set()).add(asset.id)
        for column in asset.body.get("columns", []) if asset.kind == "table" else []:
            ids.setdefault("column", set()).add(f"{asset.id}.{column['name']}")
    tables = ids.get("table", set())
    targets = tables | ids.get("column", set()) | ids.get("metric", set())
    errors: list[FieldError] = []
    for asset, entry in assets:
        refs: list[tuple[str, str, set[str]]] = []
        if asset.kind == "metric":
            refs.append(("table", asset.body["table"], tables))
        elif asset.kind == "join":
            refs += [("left", asset.body["left"], tables), ("right", asset.body["right"], tables)]
        elif asset.kind == "term":
            refs.append(("maps_to", asset.body["maps_to"], targets))
        elif asset.kind == "rule":
            refs += [("applies_to", t, targets) for t in asset.body.get("applies_to", [])]
        for name, target, pool in refs:
            if target not in pool:
                errors.append(_last(entry, name, f"{target!r} is not a known "
                                                 f"{'table' if pool is tables else 'asset id'}"))
    return errors
