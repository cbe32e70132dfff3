"""Declarative input schemas and their one error path into ``FieldError`` items.

A schema is a pydantic model in strict mode: a number given for a string is a mistake to
report, not to convert. Pydantic checks the fields in declaration order and collects every
problem; validators attached to a schema raise :func:`problem` with the project's wording,
and :func:`field_errors` turns what pydantic collected into ``FieldError`` items. Schemas
only check the input: what the loaders hand on are the frozen model types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationInfo, model_validator
from pydantic import ValidationError as SchemaError
from pydantic_core import InitErrorDetails, PydanticCustomError

from chronorag.errors import FieldError

__all__ = ["Loc", "Place", "Schema", "SchemaError", "context", "field_errors", "one_of",
           "problem", "problems", "raw_of"]

Loc = tuple[str | int, ...]
Place = Callable[[str, str, Any], FieldError]
"""Builds the ``FieldError`` of a problem from its dotted field name (``people[1].name``),
its reason and the anchor its validator gave as ``near`` (``None`` when it gave none)."""


def problem(reason: str, *, check: str = "invalid", at: str | None = None,
            near: Any = None) -> PydanticCustomError:
    """A problem in the project's words, for a validator to raise.

    ``check`` names the kind of check, for a schema that reports check by check (see
    :func:`field_errors`). ``at`` replaces the last part of the location, for a validator
    that reports on another key (an unknown key, ``valid_to`` checked against
    ``valid_from``); ``""`` drops it, for a problem of the enclosing object. ``near``
    anchors the line, for the schema's :data:`Place`.
    """
    return PydanticCustomError(check, "{reason}", {"reason": reason, "at": at, "near": near})


def problems(found: Iterable[tuple[Loc, PydanticCustomError]]) -> SchemaError:
    """Several problems found by one validator, each at a location below its field."""
    return SchemaError.from_exception_data("problems", [
        InitErrorDetails(type=error, loc=loc, input=None) for loc, error in found])


def context(info: ValidationInfo) -> dict[str, Any]:
    """What the caller of ``model_validate`` gave as ``context`` (the time zone of dates,
    the people seen so far); a schema whose validators read it is always given one."""
    if info.context is None:
        raise TypeError("this schema is validated with a context")
    return info.context


def one_of(choices: Sequence[str], *, hint: str = "", check: str = "invalid"
           ) -> PlainValidator:
    """Accept one of ``choices`` (``None`` is reported like any other value)."""
    def validate(value: Any) -> Any:
        if value not in choices:
            raise problem(f"{value!r} is not one of {', '.join(choices)}{hint}", check=check)
        return value
    return PlainValidator(validate)


def raw_of(key: str) -> Any:
    """The default of a field that checks the raw value of ``key`` against the fields
    declared before it, so that its reason quotes what was written (``valid_to`` against
    ``valid_from``); it is checked even when ``key`` is absent."""
    return Field(None, validation_alias=key, validate_default=True)


class Schema(BaseModel):
    """Base of the input schemas.

    ``not_a_mapping`` is the reason given when the input is not a mapping. A schema that
    declares a field ``extra`` receives there every key it does not declare, so it words
    unknown keys itself and reports them in the place of ``extra`` among its fields.
    """

    model_config = ConfigDict(strict=True, frozen=True, arbitrary_types_allowed=True)

    not_a_mapping: ClassVar[str | None] = None
    _declared: ClassVar[frozenset[str] | None] = None

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        fields = cls.model_fields
        cls._declared = frozenset(
            str(f.validation_alias or n) for n, f in fields.items() if n != "extra"
        ) if "extra" in fields else None

    @classmethod
    def declared(cls) -> frozenset[str]:
        """The input keys the schema reads."""
        return cls._declared or frozenset(cls.model_fields)

    @model_validator(mode="before")
    @classmethod
    def _gather_extra(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            if cls.not_a_mapping is not None:
                raise problem(cls.not_a_mapping)
            return data
        declared = cls._declared
        if declared is None:
            return data
        known: dict[Any, Any] = {}
        extra: dict[Any, Any] = {}
        for key, value in data.items():  # one pass: this runs for every record
            (known if key in declared else extra)[key] = value
        known["extra"] = extra
        return known


def field_errors(exc: SchemaError, *, place: Place,
                 reasons: Mapping[str, Callable[[Any], str]] | None = None,
                 order: Sequence[str] = ()) -> list[FieldError]:
    """The problems of ``exc`` as ``FieldError`` items, in the order pydantic found them.

    ``reasons`` words pydantic's own error types (``missing``, ``string_type``) from the
    offending value; a type it does not word keeps pydantic's message. A schema that
    reports check by check lists its checks in ``order``: problems are sorted by it, and
    stay in field order within a check.
    """
    found = exc.errors(include_url=False)
    if order:
        rank = {check: i for i, check in enumerate(order)}
        found.sort(key=lambda error: rank.get(error["type"], len(rank)))
    out: list[FieldError] = []
    for error in found:
        ctx, loc = error.get("ctx") or {}, error["loc"]
        if "reason" in ctx and "at" in ctx:
            reason = ctx["reason"]
            if ctx["at"] is not None:
                loc = (*loc[:-1], ctx["at"]) if ctx["at"] else loc[:-1]
        else:
            word = (reasons or {}).get(error["type"])
            reason = word(error["input"]) if word else error["msg"]
        out.append(place(_dotted(loc), reason, ctx.get("near")))
    return out


def _dotted(loc: Loc) -> str:
    """``("people", 1, "aliases", 0)`` -> ``people[1].aliases[0]``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text
