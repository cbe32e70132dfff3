"""The API's response schemas, derived from the JSON contract (``chronorag.contract``).

:func:`schema_type` turns a declared type into the type pydantic describes in
``/openapi.json``: a record becomes a ``TypedDict`` of the keys its ``to_json`` writes
(or the ``TypedDict`` a hand-written ``to_json`` returns), a datetime an ISO 8601 string,
an enum its values. Routes declare these as ``response_model`` and still send
``JSONResponse(record.to_json())``: FastAPI documents a model and passes a response
through as it is, so the API's bytes are those the CLI and MCP print.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, WithJsonSchema
from typing_extensions import TypedDict

from chronorag.contract import Formatted, entries, options

__all__ = ["ERROR", "schema_type", "shape", "with_keys"]

_TIMESTAMP = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]


@functools.cache
def schema_type(hint: Any) -> Any:
    """The type, for pydantic, of the JSON a value declared as ``hint`` is written as."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if getattr(hint, "__chronorag_schema__", False):
        return hint
    if origin is Annotated:
        return _annotated(hint)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(schema_type(a) for a in args)]  # noqa: UP007
    if hint in (type(None), None):
        return type(None)
    if isinstance(hint, type) and issubclass(hint, datetime):
        return _TIMESTAMP
    if typing.is_typeddict(hint):
        return _typed_dict(hint.__name__, _typed_dict_keys(hint), extra="forbid")
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _record(hint)
    if isinstance(origin, type) and issubclass(origin, Mapping):
        key, value = args or (str, Any)
        return dict[schema_type(key), schema_type(value)]  # type: ignore[misc]
    if isinstance(origin, type) and issubclass(origin, Sequence):
        if (len(args) == 2 and args[1] is Ellipsis) or len(args) == 1:
            return list[schema_type(args[0])]  # type: ignore[misc]
        return tuple[tuple(schema_type(a) for a in args)]  # type: ignore[misc]
    if hint is object or hint is Any or origin is Literal or hint in (str, int, float, bool):
        return Any if hint is object else hint
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    raise TypeError(f"no JSON schema for the declared type {hint!r}")


def with_keys(record: type, name: str, **more: Any) -> Any:
    """``record``'s schema with the optional keys ``more`` (declared types) named as
    ``name``: the keys a record's spread mapping is known to carry."""
    keys = _record_keys(record)
    keys.update({key: (schema_type(hint), False) for key, hint in more.items()})
    return _typed_dict(name, keys, extra="allow")


def shape(name: str, *, optional: Mapping[str, Any] | None = None, **keys: Any) -> Any:
    """The schema of an object the API writes itself: ``keys`` always there, ``optional``
    keys sometimes, each by its declared type."""
    found = {key: (schema_type(hint), True) for key, hint in keys.items()}
    found.update({key: (schema_type(hint), False) for key, hint in (optional or {}).items()})
    return _typed_dict(name, found, extra="forbid")


def _annotated(hint: Any) -> Any:
    formats = [m.format for m in hint.__metadata__ if isinstance(m, Formatted)]
    inner = schema_type(hint.__origin__)
    if formats:
        return Annotated[inner, WithJsonSchema({"type": "string", "format": formats[0]})]
    return inner


def _record(cls: type) -> Any:
    """A record's schema: the ``TypedDict`` its hand-written ``to_json`` returns, else the
    keys its declaration gives."""
    method = getattr(cls, "to_json", None)
    written = None if method is None else typing.get_type_hints(method).get("return")
    if written is not None and typing.is_typeddict(written):
        return schema_type(written)
    spread = any(entry.spread for entry in entries(cls))
    return _typed_dict(cls.__name__, _record_keys(cls), extra="allow" if spread else "forbid")


def _record_keys(cls: type) -> dict[str, tuple[Any, bool]]:
    """Each JSON key of ``cls``: its schema type and whether it is always there."""
    keys: dict[str, tuple[Any, bool]] = {}
    for entry in entries(cls):
        kinds = [a for a in options(entry.hint) if a is not type(None)]
        nullable = len(kinds) < len(options(entry.hint))
        if entry.spread:
            continue
        if entry.inline:
            for key, (kind, _) in _record_keys(kinds[0]).items():
                keys[key] = (kind | None if nullable else kind, True)
        elif entry.omit_none or entry.omit_empty:
            keys[entry.key] = (schema_type(typing.Union[tuple(kinds)]), False)  # noqa: UP007
        else:
            keys[entry.key] = (schema_type(entry.hint), True)
    return keys


def _typed_dict_keys(hint: Any) -> dict[str, tuple[Any, bool]]:
    # Required-ness from the resolved annotations: under ``from __future__ import
    # annotations`` Python 3.11 puts a ``NotRequired`` key in ``__required_keys__``.
    keys = {}
    for key, value in typing.get_type_hints(hint, include_extras=True).items():
        optional = typing.get_origin(value) is typing.NotRequired
        if typing.get_origin(value) in (typing.NotRequired, typing.Required):
            value = typing.get_args(value)[0]
        keys[key] = (schema_type(value), not optional and key in hint.__required_keys__)
    return keys


Extra = Literal["allow", "forbid"]


def _typed_dict(name: str, keys: dict[str, tuple[Any, bool]], *, extra: Extra) -> Any:
    fields = {key: kind if required else NotRequired[kind]
              for key, (kind, required) in keys.items()}
    factory: Any = TypedDict  # made at run time: mypy reads only literal definitions
    made = factory(name, fields)
    made.__pydantic_config__ = ConfigDict(extra=extra)
    made.__chronorag_schema__ = True  # already a schema type: used as it is
    return made


_PROBLEM = shape("Problem", field=str, reason=str, optional={"file": str, "line": int})
_PROBLEMS = list[_PROBLEM]  # type: ignore[valid-type]
ERROR = shape("Error", error=shape("ErrorBody", status=int, code=str, message=str,
                                   optional={"errors": _PROBLEMS}))
"""Every error: ``{"error": {"status", "code", "message", "errors"?}}``; ``errors`` are
the input problems (``file``, ``line`` for an uploaded document's)."""
