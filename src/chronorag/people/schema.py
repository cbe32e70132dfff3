"""The schema of a people file: its people (an id names one person, a name points to one
person) and who may see whose records; see ``chronorag.validation``."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainValidator,
    ValidationInfo,
    model_validator,
)

from chronorag.people.resolve import SELF_WORDS, normalise
from chronorag.validation import Loc, Schema, context, problem, problems

__all__ = ["PeopleSchema"]

_RESERVED = frozenset(normalise(w) for w in SELF_WORDS)


def _unknown(allowed: str) -> AfterValidator:
    def validate(extra: dict[str, Any]) -> dict[str, Any]:
        if extra:
            raise problems(((), problem(f"unknown field; allowed: {allowed}", at=key))
                           for key in sorted(extra))
        return extra
    return AfterValidator(validate)


def _anchor(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _required(value: Any, *, near: str | None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise problem("required: a non-empty string", near=near)
    return value.strip()


def _id(value: Any) -> str:
    return _required(value, near=None)


def _name(value: Any, info: ValidationInfo) -> str:
    return _required(value, near=info.data.get("anchor"))


def _aliases(value: Any, info: ValidationInfo) -> tuple[str, ...]:
    near = info.data.get("anchor")
    if not isinstance(value, list):
        raise problem("must be a list of strings", near=near)
    bad = [j for j, alias in enumerate(value) if not isinstance(alias, str) or not alias.strip()]
    if bad:
        raise problems(((j,), problem("must be a non-empty string", near=near)) for j in bad)
    return tuple(dict.fromkeys(a.strip() for a in value))


def _attributes(value: Any, info: ValidationInfo) -> dict[str, str]:
    """Condition key -> the person's one value (``chronorag.conditions``)."""
    near = info.data.get("anchor")
    if not isinstance(value, dict):
        raise problem("must be an object: condition key -> value, e.g. {\"region\": \"EU\"}",
                      near=near)
    bad = [key for key, v in value.items() if not isinstance(v, str) or not v.strip()]
    if bad:
        raise problems(((key,), problem("must be a non-empty string", near=near)) for key in bad)
    return {str(key): v.strip() for key, v in sorted(value.items())}


class _Person(Schema):
    not_a_mapping = "must be an object with id, name and aliases"
    extra: Annotated[dict[str, Any], _unknown("id, name, aliases, attributes")] = Field(
        default_factory=dict)
    anchor: Annotated[str | None, PlainValidator(_anchor)] = Field(
        None, validation_alias="id", validate_default=True)
    """The id as written, when a string: the line of the person's problems is found by it."""
    id: Annotated[str, PlainValidator(_id)] = Field(None, validate_default=True)
    name: Annotated[str, PlainValidator(_name)] = Field(None, validate_default=True)
    aliases: Annotated[tuple[str, ...], PlainValidator(_aliases)] = ()
    attributes: Annotated[dict[str, str], PlainValidator(_attributes)] = Field(
        default_factory=dict)

    @model_validator(mode="after")
    def _unique(self, info: ValidationInfo) -> _Person:
        """An id names one person and a name points to one person; ``info.context`` holds
        the ids of the people validated so far and the person each of their names names."""
        ids, owners = context(info)["ids"], context(info)["owners"]
        if self.id in ids:
            raise problems([(("id",), problem(f"duplicate id {self.id!r}", near=self.id))])
        found: list[tuple[Loc, Any]] = []
        for j, name in enumerate((self.name, *self.aliases)):
            loc: Loc = ("name",) if j == 0 else ("aliases", j - 1)
            key = normalise(name)
            if key in _RESERVED:
                found.append((loc, problem(f"{name!r} means the asking user (--user); remove it",
                                           near=name)))
            elif owners.get(key, self.id) != self.id:
                found.append((loc, problem(f"{name!r} already names {owners[key]!r}; a name "
                                           "must point to one person", near=name)))
            owners.setdefault(key, self.id)
        ids.add(self.id)
        if found:
            raise problems(found)
        return self


def _people(value: Any) -> Any:
    if not isinstance(value, list):
        raise problem("required: a list of {id, name, aliases}")
    return value


def _access(value: Any, info: ValidationInfo) -> dict[str, tuple[str, ...]]:
    """Readers and subjects must be people of the file (those that validated)."""
    if not isinstance(value, dict):
        raise problem("must be an object: reader id -> list of subject ids")
    known = context(info)["ids"]
    found: list[tuple[Loc, Any]] = []
    access: dict[str, tuple[str, ...]] = {}
    for reader, subjects in value.items():
        reasons = [] if reader in known else [f"unknown reader {reader!r}; add them to people"]
        if not isinstance(subjects, list) or not all(isinstance(s, str) for s in subjects):
            reasons.append("must be a list of person ids")
        else:
            reasons += [f"unknown subject {s!r}; add them to people"
                        for s in subjects if s not in known]
            access[reader] = tuple(sorted(set(subjects) - {reader}))
        found += [((reader,), problem(reason, near=reader)) for reason in reasons]
    if found:
        raise problems(found)
    return access


class PeopleSchema(Schema):
    not_a_mapping = 'must be a JSON object with "people" and "access"'
    extra: Annotated[dict[str, Any], _unknown('"people", "access"')] = Field(
        default_factory=dict)
    people: Annotated[list[_Person], BeforeValidator(_people)] = Field(
        None, validate_default=True)
    access: Annotated[dict[str, tuple[str, ...]], PlainValidator(_access)] = Field(
        default_factory=dict)
