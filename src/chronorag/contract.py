"""The JSON contract of chronorag's records, declared once: on their frozen dataclasses.

A record's JSON is an object of its fields, in declaration order, each by its declared
type: ``None`` as null; a string, number or boolean as itself; a ``datetime`` as
``isoformat()`` (with its offset, ``+00:00`` for UTC); an enum member as its value; a
tuple, list or other sequence as a list; a mapping as an object; another record as its
JSON. Where the JSON differs from the fields, the declaration says so:

- in a field's ``Annotated[...]``: ``Hidden`` (not in the JSON), ``Rounded(n)`` (a float,
  or a mapping's floats, rounded to ``n`` digits), ``OmitNone`` (no key when the value is
  None), ``OmitEmpty`` (no key when it is empty or None), ``Inline`` (a record's keys
  in place of the field's; all null when it is None),
  ``Spread`` (a mapping's keys after all others, never replacing one), ``Via(name)``
  (the value of the record's property or method ``name``), ``Key(name)`` (the JSON key);
- on the class, ``json_keys``: the keys in order when they are not the fields (a view),
  each a field (its markers apply) or a property or method of the record, whose return
  annotation is its type.

A record whose JSON is written by hand instead declares its shape as the ``TypedDict``
its ``to_json`` returns (a datetime in it is an ``IsoTime``), so mypy checks the mapping.

:func:`to_json` derives the JSON from this, :func:`entries` describes it (the HTTP API's
response schemas are built from the description), and :func:`field_names` lists a
record's fields where other code must name them all (the store's columns, the ingest
schema). Nothing here imports anything heavy: the CLI pays for no schema library.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal, Protocol

__all__ = ["Entry", "Formatted", "Hidden", "Inline", "IsoTime", "Key", "OmitEmpty", "OmitNone",
           "Record", "Rounded", "Spread", "Via", "entries", "field_names", "fields_holding",
           "options", "to_json"]


class Hidden:
    """Marker: the field is not in the JSON."""


class OmitNone:
    """Marker: the key is left out when the value is None."""


class OmitEmpty:
    """Marker: the key is left out when the value is empty (or None)."""


class Inline:
    """Marker: the field's record is written as its own keys, in the field's place."""


class Spread:
    """Marker: the mapping's keys follow all other keys; they never replace one."""


@dataclass(frozen=True)
class Rounded:
    """Marker: floats rounded to ``digits`` digits (those of a mapping too)."""

    digits: int


@dataclass(frozen=True)
class Via:
    """Marker: the JSON holds the value of the record's property or method ``name``."""

    name: str


@dataclass(frozen=True)
class Key:
    """Marker: the JSON key, when it is not the field's name."""

    name: str


@dataclass(frozen=True)
class Formatted:
    """Marker on a string of a hand-written JSON shape: its JSON Schema ``format``."""

    format: str


IsoTime = Annotated[str, Formatted("date-time")]
"""A datetime as the JSON carries it (``isoformat()``), in a hand-written JSON shape."""


class Record(Protocol):
    """A dataclass instance (what :func:`to_json` takes)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


@dataclass(frozen=True)
class Entry:
    """One key of a record's JSON: where its value comes from, its declared type (no
    ``Annotated``) and how it is written."""

    key: str
    source: str
    hint: Any
    call: bool = False
    inline: bool = False
    spread: bool = False
    omit_none: bool = False
    omit_empty: bool = False
    rounded: int | None = None


def field_names(cls: type) -> tuple[str, ...]:
    """The record's fields, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(cls))


def fields_holding(cls: type, kind: type) -> tuple[str, ...]:
    """The record's fields declared as ``kind`` (or ``kind | None``), in order."""
    hints = typing.get_type_hints(cls)
    return tuple(name for name in field_names(cls) if kind in options(hints[name]))


@functools.cache
def entries(cls: type) -> tuple[Entry, ...]:
    """The keys of ``cls``'s JSON, in order (see the module's docstring)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = field_names(cls)
    found = []
    for name in getattr(cls, "json_keys", None) or fields:
        if name in fields:
            entry = _field_entry(cls, name, hints[name])
        else:
            entry = Entry(name, name, *_attribute_hint(cls, name))
        if entry is not None:
            found.append(entry)
    return tuple(found)


def _field_entry(cls: type, name: str, hint: Any) -> Entry | None:
    hint, marks = _unannotated(hint)
    if Hidden in marks:
        return None
    key, source, call = name, name, False
    for mark in marks:
        if isinstance(mark, Key):
            key = mark.name
        elif isinstance(mark, Via):
            source = mark.name
            hint, call = _attribute_hint(cls, mark.name)
    rounded = next((m.digits for m in marks if isinstance(m, Rounded)), None)
    return Entry(key, source, hint, call=call, inline=Inline in marks,
                 spread=Spread in marks, omit_none=OmitNone in marks,
                 omit_empty=OmitEmpty in marks, rounded=rounded)


def _unannotated(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    if typing.get_origin(hint) is Annotated:
        return hint.__origin__, tuple(hint.__metadata__)
    return hint, ()


def _attribute_hint(cls: type, name: str) -> tuple[Any, bool]:
    """The type a property or method returns, and whether it must be called."""
    attribute = getattr(cls, name)
    function = attribute.fget if isinstance(attribute, property) else attribute
    hint = _unannotated(typing.get_type_hints(function, include_extras=True)["return"])[0]
    return hint, not isinstance(attribute, property)


def to_json(record: Record) -> dict[str, Any]:
    """``record`` as its JSON (plain dicts, lists, strings, numbers, booleans, None)."""
    kind = type(record)
    write = _WRITERS.get(kind)
    if write is None:
        write = _WRITERS[kind] = _writer(kind)
    return write(record)


Convert = Callable[[Any], Any] | None  # None: the value is written as it is
Writer = Callable[[Any], dict[str, Any]]
_WRITERS: dict[type, Writer] = {}


def _writer(cls: type) -> Writer:
    """The function that writes a ``cls`` record's JSON, generated from its entries as
    ``dataclasses`` generates ``__init__``: one dict display, as a hand-written method
    would be, then the keys that may be left out, then the spread mapping. A loop over
    the entries took twice as long (benchmarks/README.md section 37)."""
    names: dict[str, Any] = {"inlined": _inlined}
    display: list[str] = []
    after: list[str] = []
    for n, entry in enumerate(entries(cls)):
        convert = names[f"c{n}"] = _converter(entry.hint, entry.rounded)
        names[f"h{n}"] = entry.hint
        value = f"r.{entry.source}" + ("()" if entry.call else "")
        if entry.spread:
            continue
        # How the value is written: by its converter, or (a float) rounded right here,
        # which is twice as fast as a call of round through functools.partial.
        call = None if convert is None else f"c{n}({{}})"
        if entry.rounded is not None and float in options(entry.hint):
            call = f"round({{}}, {entry.rounded})"
        if entry.omit_none or entry.omit_empty:
            shown = f"v{n}" if call is None else call.format(f"v{n}")
            kept = f"(v{n} := {value})" + (" is not None" if entry.omit_none else "")
            after.append(f"    if {kept}: out[{entry.key!r}] = {shown}")
            continue
        if entry.inline:
            item, statement = f"**inlined(h{n}, {value})", f"out.update(inlined(h{n}, {value}))"
        else:
            written = _written(n, value, call, optional=type(None) in options(entry.hint))
            item, statement = f"{entry.key!r}: {written}", f"out[{entry.key!r}] = {written}"
        if after:
            after.append(f"    {statement}")
        else:
            display.append(f"        {item},")
    spread = [f"    for k, v in r.{e.source}.items(): out.setdefault(k, v)"
              for e in entries(cls) if e.spread]
    source = "\n".join(["def write(r):", "    out = {", *display, "    }", *after, *spread,
                        "    return out"])
    exec(compile(source, f"<JSON of {cls.__qualname__}>", "exec"), names)
    write: Writer = names["write"]
    return write


def _written(n: int, value: str, call: str | None, *, optional: bool) -> str:
    """The expression of entry ``n``'s JSON value, read as ``value`` and written by the
    template ``call`` (None: as it is)."""
    if call is None:
        return value
    if not optional:
        return call.format(value)
    return f"None if (v{n} := {value}) is None else {call.format(f'v{n}')}"


def _inlined(hint: Any, value: Any) -> dict[str, Any]:
    if value is not None:
        return to_json(value)
    record = next(a for a in options(hint) if isinstance(a, type) and _is_record(a))
    return {entry.key: None for entry in entries(record)}


def _is_record(kind: type) -> bool:
    return dataclasses.is_dataclass(kind)


def options(hint: Any) -> tuple[Any, ...]:
    """The types of a union (``X | None``), or the type itself."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


def _converter(hint: Any, rounded: int | None = None) -> Convert:
    """How a (non-None) value of type ``hint`` is written."""
    kinds = [a for a in options(hint) if a is not type(None)]
    if len(kinds) > 1:
        raise TypeError(f"no JSON for the declared type {hint!r}: declare one type (or "
                        "it or None)")
    hint = kinds[0]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is float and rounded is not None:
        return functools.partial(round, ndigits=rounded)
    if isinstance(hint, type) and issubclass(hint, datetime):
        return datetime.isoformat
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        # A string enum's value is its str(), which also takes its values as plain strings.
        return str if issubclass(hint, str) else _value
    if isinstance(hint, type) and _is_record(hint):
        return to_json
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        inner = _converter(args[1], rounded) if args else None
        if inner is None:
            return dict
        if args[1] is float and rounded is not None:
            return lambda value: {k: round(v, rounded) for k, v in value.items()}
        each = _or_none(args[1], inner)
        return lambda value: {k: each(v) for k, v in value.items()}
    if origin is not None and isinstance(origin, type) and issubclass(origin, Sequence):
        return _list_of(args, rounded)
    if origin in (None, Literal) or hint is Any:
        return None
    raise TypeError(f"no JSON for the declared type {hint!r}")


def _list_of(args: tuple[Any, ...], rounded: int | None) -> Convert:
    items = [a for a in args if a is not Ellipsis]
    converters = {_converter(a, rounded) for a in items}
    if converters <= {None}:
        return list
    inner = converters.pop()
    if converters or inner is None:
        raise TypeError(f"no JSON for a sequence of {items!r}: its items must be of one kind")
    each = _or_none(items[0], inner)
    return lambda value: list(map(each, value))


def _or_none(hint: Any, convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``convert``, passing None through when ``hint`` admits it."""
    if type(None) not in options(hint):
        return convert
    return lambda value: None if value is None else convert(value)


def _value(member: enum.Enum) -> Any:
    return member.value
