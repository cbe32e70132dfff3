"""Applicability beyond time: for which askers a document is written (DESIGN.md).

A store declares its condition keys, each with the values it may take or any value
(``chronorag conditions declare region EU US``). A document's ``applies_to`` names declared
keys and the values it holds for (``{"region": ["EU"]}``); an asker's ``context`` gives at
most one value per key (``--context region=EU``, or the person's attributes in the people
directory). A document and an asker are judged like a document and a time (:func:`fit`):

* a key the asker has a value for: the document applies when the value is among its
  values; otherwise it is written for other askers and is *not applicable*, with a reason;
* a key the asker has no value for: the document may apply, and its answer is one
  *variant*, labelled with the condition, beside the others;
* a document without ``applies_to`` applies to everyone; one whose every key the asker
  matches is *specific* to the asker and decides before a general one.

Pure: the store's settings are read and written by the caller, as JSON text
(:func:`parse_declared`, :func:`dump_declared`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from chronorag.errors import ChronoragError
from chronorag.model import Conditions, canonical_conditions

__all__ = ["SETTING", "ConditionError", "Declared", "DeclaredJSON", "Fit", "as_json",
           "context_problems", "declare", "dump_declared", "fit", "label", "parse_context",
           "parse_declared", "problems", "undeclare"]

SETTING = "conditions"
"""The store setting that holds the declared keys (JSON: key -> list of values)."""

Declared = Mapping[str, tuple[str, ...]]
"""The declared keys, each with the values it may take; an empty tuple: any value."""

# A key is a word (letters of any script, digits, "_", "-", "."): it is written in
# ``--context key=value`` and in front matter.
_KEY = re.compile(r"[^\W\d][\w.-]*")


class ConditionError(ChronoragError):
    """An asker's attributes or a declaration do not fit the store's declared conditions;
    the message names the key and the declared ones."""

    exit_code = 2


class DeclaredJSON(TypedDict):
    """``conditions list --json`` and ``GET /v1/conditions``: each declared key with the
    values it takes (an empty list: any value)."""

    conditions: dict[str, list[str]]


def as_json(declared: Declared) -> DeclaredJSON:
    """The JSON of the declared keys."""
    return {"conditions": {key: list(values) for key, values in declared.items()}}


def parse_declared(text: str | None) -> dict[str, tuple[str, ...]]:
    """The declared keys from the store setting's text (None: nothing declared)."""
    if not text:
        return {}
    raw = json.loads(text)
    return {str(key): tuple(str(v) for v in values) for key, values in sorted(raw.items())}


def dump_declared(declared: Declared) -> str:
    """The store setting's text of ``declared``."""
    return json.dumps({key: list(declared[key]) for key in sorted(declared)},
                      ensure_ascii=False, separators=(",", ":"))


def declare(declared: Declared, key: str, values: Iterable[str] = ()) -> dict[str, tuple[str, ...]]:
    """``declared`` with ``key`` added, or its values extended. No values: any value.

    Raises ``ConditionError`` for a key that is not a word or a blank value, and when
    values are given for a key declared to take any value (that would reject the
    values stored documents may already hold).
    """
    key = key.strip()
    if not _KEY.fullmatch(key):
        raise ConditionError(f"condition key {key!r} must be a word (letters, digits, _, -, .) "
                             "starting with a letter")
    given = [v.strip() for v in values]
    if any(not v or "," in v or "=" in v for v in given):
        raise ConditionError(f"condition {key!r}: each value must be non-empty and hold "
                             "no ',' or '='")
    out = dict(declared)
    if key in out and not out[key] and given:
        raise ConditionError(f"condition {key!r} is declared to take any value; drop it "
                             "first to restrict its values")
    if key in out and not given:
        return out
    out[key] = tuple(sorted({*out.get(key, ()), *given}))
    return dict(sorted(out.items()))


def undeclare(declared: Declared, key: str) -> dict[str, tuple[str, ...]]:
    """``declared`` without ``key``; ``ConditionError`` when it is not declared."""
    if key not in declared:
        raise ConditionError(f"condition {key!r} is not declared; {_declared(declared)}")
    return {k: v for k, v in declared.items() if k != key}


def problems(applies_to: Mapping[str, Any], declared: Declared) -> list[str]:
    """What is wrong with a document's ``applies_to`` under ``declared`` (none: fine)."""
    out: list[str] = []
    for key in applies_to:
        if key not in declared:
            out.append(f"condition {key!r} is not declared; {_declared(declared)} "
                       f"(declare it with: chronorag conditions declare {key} VALUE...)")
            continue
        allowed = declared[key]
        unknown = [v for v in applies_to[key] if allowed and v not in allowed]
        if unknown:
            out.append(f"{key}: {', '.join(map(repr, unknown))} not among the declared "
                       f"values {', '.join(allowed)}")
    return out


def context_problems(context: Mapping[str, str], declared: Declared) -> list[str]:
    """What is wrong with an asker's attributes under ``declared`` (none: fine)."""
    return problems({key: (value,) for key, value in context.items()}, declared)


def parse_context(items: Iterable[str]) -> dict[str, str]:
    """``["region=EU", "segment=business"]`` as a mapping; ``ConditionError`` for an item
    without ``=``, a blank side or a key given twice with different values."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise ConditionError(f"context {item!r} must be KEY=VALUE, e.g. region=EU")
        if out.get(key, value) != value:
            raise ConditionError(f"context {key!r} is given twice: {out[key]!r} and {value!r}")
        out[key] = value
    return out


@dataclass(frozen=True)
class Fit:
    """How a document's conditions meet an asker's attributes: the keys the asker's value
    is among the document's values (``matched``), is not (``unmet``), or the asker has no
    value for (``unknown``)."""

    matched: tuple[str, ...] = ()
    unmet: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()

    @property
    def applies(self) -> bool:
        return not self.unmet

    @property
    def specific(self) -> bool:
        """Written for the asker's case: conditions, and every one matched."""
        return bool(self.matched) and not self.unmet and not self.unknown


def fit(applies_to: Conditions, context: Mapping[str, str]) -> Fit:
    """Judge a document's conditions against an asker's attributes (see the module)."""
    matched: list[str] = []
    unmet: list[str] = []
    unknown: list[str] = []
    for key, values in applies_to.items():
        value = context.get(key)
        (unknown if value is None else matched if value in values else unmet).append(key)
    return Fit(tuple(matched), tuple(unmet), tuple(unknown))


def label(applies_to: Conditions) -> str:
    """``region: EU; segment: business, enterprise``; empty for a document for everyone."""
    return "; ".join(f"{key}: {', '.join(values)}"
                     for key, values in canonical_conditions(applies_to).items())


def _declared(declared: Declared) -> str:
    if not declared:
        return "no condition is declared"
    return "declared: " + ", ".join(declared)
