"""The schemas of semantic-layer entries: one per kind, problems reported check by check
(``CHECKS``), and the checks across entries (``Layer``); see ``chronorag.validation``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    Field,
    PlainValidator,
    SkipValidation,
    ValidationInfo,
    create_model,
    model_validator,
)

from chronorag.ingest.dates import DateError, parse_date
from chronorag.model import Interval
from chronorag.semantic.entry import Entry
from chronorag.semantic.model import FANOUTS, ROLES, STATUSES, Asset
from chronorag.validation import Loc, Schema, context, one_of, problem, problems, raw_of

__all__ = ["CHECKS", "REASONS", "SCHEMAS", "EntrySchema", "Layer", "asset_id", "build_asset"]

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
CHECKS = ("unknown", "missing", "string", "status", "fanout", "date", "list", "columns")
REASONS = {"missing": lambda _: "is required"}


def _unknown(extra: dict[Any, Any], info: ValidationInfo) -> dict[Any, Any]:
    if extra:
        allowed = ", ".join(sorted(SCHEMAS[context(info)["kind"]].declared()))
        raise problems(((), problem(f"unknown field; use one of {allowed}", check="unknown",
                                    at=str(name))) for name in extra)
    return extra


def _string(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise problem("must be a non-empty string", check="string")
    return value


def _date(value: Any, info: ValidationInfo) -> Interval:
    try:
        return parse_date(value, tz=context(info)["tz"])
    except DateError as exc:
        raise problem(str(exc), check="date") from None


def _in_order(raw_from: Any, info: ValidationInfo) -> None:
    start, end = info.data.get("valid_from"), info.data.get("valid_to")
    if start and end and start.start and end.start and end.start <= start.start:
        raise problem(f"must be later than valid_from ({raw_from})", check="date",
                      at="valid_to")


def _strings(*, one: bool) -> PlainValidator:
    """A list of non-empty strings, duplicates dropped; ``one`` also takes one string."""
    def validate(value: Any) -> tuple[str, ...]:
        if one and isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip()
                                                  for v in value):
            raise problem("must be a list of non-empty strings", check="list")
        return tuple(dict.fromkeys(value))
    return PlainValidator(validate)


def _columns(columns: Any) -> Any:
    if not isinstance(columns, list):
        raise problem("must be a list of {name, type, role} entries", check="columns")
    found: list[tuple[Loc, str]] = []
    seen: set[str] = set()
    for i, column in enumerate(columns):
        if not isinstance(column, dict):
            found.append(((i,), "must be a mapping with name, type and role"))
            continue
        name, role = column.get("name"), column.get("role")
        if not isinstance(name, str) or not name.strip():
            found.append(((i, "name"), "is required (a non-empty string)"))
        elif name in seen:
            found.append(((i, "name"), f"duplicate column {name!r}"))
        else:
            seen.add(name)
        if role not in ROLES:
            found.append(((i, "role"), f"{role!r} is not one of {', '.join(ROLES)}"))
        unknown = set(column) - {"name", "type", "role", "description"}
        if unknown:
            found.append(((i,), f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; "
                                "use name, type, role, description"))
    if found:
        raise problems((loc, problem(reason, check="columns")) for loc, reason in found)
    return columns


_Date = Annotated[Interval | None, PlainValidator(_date)]


class EntrySchema(Schema):
    """The fields every kind of entry has; a kind adds its own (``_KIND_FIELDS``)."""

    not_a_mapping = "must be a mapping of field: value"
    extra: Annotated[dict[Any, Any], AfterValidator(_unknown)] = Field(default_factory=dict)
    status: Annotated[str | None, one_of(STATUSES, check="status")] = None
    valid_from: _Date = None
    valid_to: _Date = None
    published_at: _Date = None
    modified_at: _Date = None
    in_order: Annotated[None, PlainValidator(_in_order)] = raw_of("valid_from")
    supersedes: Annotated[tuple[str, ...], _strings(one=True)] = ()
    derived_from: Annotated[tuple[str, ...], _strings(one=True)] = ()
    metadata: Any = None
    source_type: Any = None

    @model_validator(mode="after")
    def _not_superseding_itself(self, info: ValidationInfo) -> EntrySchema:
        own = asset_id(context(info)["kind"], self.__dict__)
        if own in self.supersedes:
            raise problem(f"lists the entry itself ({own!r})", at="supersedes")
        return self


_String = Annotated[str | None, PlainValidator(_string)]
_KIND_FIELDS: Mapping[str, tuple[Any, Any]] = {
    **{name: (_String, None) for name in ("id", "term", "name", "table", "expression",
                                          "maps_to", "left", "right", "on")},
    "fanout": (Annotated[str | None, one_of(FANOUTS, check="fanout")], None),
    **{name: (_String, None) for name in ("question", "sql", "text", "description", "owner",
                                          "value")},
    "synonyms": (Annotated[tuple[str, ...], _strings(one=False)], ()),
    "applies_to": (Annotated[tuple[str, ...], _strings(one=True)], ()),
    "columns": (Annotated[Any, PlainValidator(_columns)], None),
}
"""The fields a kind may add, in the order their problems of one check are reported."""


def _schema(kind: str) -> type[EntrySchema]:
    allowed = {*_FIELDS[kind], "description", "owner"}
    fields: dict[str, Any] = {
        name: (annotation, ... if name in _REQUIRED[kind] else default)
        for name, (annotation, default) in _KIND_FIELDS.items() if name in allowed}
    return create_model(f"{kind.title()}Entry", __base__=EntrySchema, **fields)


SCHEMAS = {kind: _schema(kind) for kind in _FIELDS}


def build_asset(entry: Entry, *, tz: tzinfo) -> Asset:
    """The asset of a valid ``entry``; raises ``SchemaError`` with its problems."""
    schema = SCHEMAS[entry.kind]
    body = entry.value
    if isinstance(body, dict):  # a null field is an absent one, an unknown one is reported
        declared = schema.declared()
        body = {k: v for k, v in body.items() if v is not None or k not in declared}
    s = schema.model_validate(body, context={"tz": tz, "kind": entry.kind})
    return Asset(
        kind=entry.kind, id=asset_id(entry.kind, body), body=body, status=s.status,
        valid_from=s.valid_from, valid_to=s.valid_to, published_at=s.published_at,
        supersedes=s.supersedes, derived_from=s.derived_from, owner=body.get("owner"),
        source=f"{entry.path}:{entry.line}",
    )


def asset_id(kind: str, body: Mapping[str, Any]) -> str:
    """The id of an entry; a term defaults to its term, a join to ``left--right``."""
    if kind == "term":
        return str(body.get("id") or body["term"])
    if kind == "join":
        return str(body.get("id") or f"{body['left']}--{body['right']}")
    return str(body["id"])


class Layer(Schema):
    """The checks across the valid entries of every file: keys are unique, references
    resolve (to entries, or to ``known`` ids stored earlier)."""

    assets: SkipValidation[list[tuple[Asset, Entry]]]
    known: SkipValidation[Mapping[str, frozenset[str]]]

    @model_validator(mode="after")
    def _across_entries(self) -> Layer:
        found = [*_duplicates(self.assets), *_references(self.assets, self.known)]
        if found:
            raise problems(found)
        return self


def _duplicates(assets: list[tuple[Asset, Entry]]) -> list[tuple[Loc, Any]]:
    first: dict[str, Entry] = {}
    found: list[tuple[Loc, Any]] = []
    for asset, entry in assets:
        if asset.key in first:
            seen = first[asset.key]
            hint = "; give each join an id" if asset.kind == "join" else ""
            found.append((("id",), problem(f"duplicate {asset.kind} {asset.id!r}; first at "
                                            f"{seen.path}:{seen.line}{hint}", near=entry)))
        else:
            first[asset.key] = entry
    return found


def _references(assets: list[tuple[Asset, Entry]],
                known: Mapping[str, frozenset[str]]) -> list[tuple[Loc, Any]]:
    """Metrics, terms, joins and rules must point at tables/columns/metrics that exist."""
    ids: dict[str, set[str]] = {k: set(v) for k, v in known.items()}
    for asset, _ in assets:
        ids.setdefault(asset.kind, set()).add(asset.id)
        for column in asset.body.get("columns", []) if asset.kind == "table" else []:
            ids.setdefault("column", set()).add(f"{asset.id}.{column['name']}")
    tables = ids.get("table", set())
    targets = tables | ids.get("column", set()) | ids.get("metric", set())
    found: list[tuple[Loc, Any]] = []
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
        found += [((name,), problem(f"{target!r} is not a known "
                                    f"{'table' if pool is tables else 'asset id'}", near=entry))
                  for name, target, pool in refs if target not in pool]
    return found
