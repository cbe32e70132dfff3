"""The schema of one turn of a conversation transcript (``*.chat.jsonl``); see
``chronorag.ingest.conversation`` for what a turn becomes and ``chronorag.validation`` for
how problems are worded.

Imported on the first turn read, like the document schema: pydantic loads only when
something is validated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, Field, PlainValidator, ValidationInfo

from chronorag.ingest.dates import DateError, parse_date
from chronorag.ingest.schema import REASONS as DOCUMENT_REASONS
from chronorag.ingest.schema import DocumentSchema, _kind
from chronorag.model import Interval
from chronorag.validation import Schema, context, problem, problems

__all__ = ["COMPUTED", "REASONS", "Inherit", "TurnSchema"]

Inherit = Callable[[str, str | int | None], bool | None]
"""``context["inherit"](conversation, session)``: whether a turn without ``time`` may take
its session's (``True``), may not because the session has no time yet (``False``), or
``None`` when the session's time was itself invalid (already reported)."""

COMPUTED = ("position", "previous", "next", "time_inherited")
"""Metadata keys written from the conversation (besides the turn's own fields)."""

# Document fields a turn does not take: each is written from the turn, or has no meaning
# for one. Saying which turn field to use beats keeping them as metadata, where they
# would silently not do what their name says.
_INSTEAD = {
    "id": 'is "conversation/turn"; name the turn with "turn"',
    "title": "is written from the conversation, the session, the speaker and the turn "
             "replied to; remove it",
    "subject": 'is the speaker of a private turn; use "private": true',
    "occurred_at": 'is the turn\'s "time"; use "time"',
    "source_type": 'is "message" for every turn; remove it',
}


def _reserved() -> frozenset[str]:
    return DocumentSchema.declared() - {"text", "metadata"}


def _name(value: Any) -> str:
    if not isinstance(value, str):
        raise problem(f"must be a string, got {_kind(value)}")
    if not value.strip():
        raise problem("is empty")
    return value.strip()


def _session(value: Any) -> str | int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, str):
        raise problem(f"must be a string or a whole number, got {_kind(value)}")
    if not value.strip():
        raise problem("is empty (leave it out for a conversation of one session)")
    return value.strip()


def _time(value: Any, info: ValidationInfo) -> Interval | None:
    """The turn's own time; ``None`` when it takes its session's (see ``Inherit``)."""
    ctx = context(info)
    if value is not None:
        try:
            return parse_date(value, tz=ctx["tz"])
        except DateError as exc:
            raise problem(str(exc)) from None
    if "conversation" not in info.data or "session" not in info.data:
        return None  # no session to take a time from; the line is reported already
    if ctx["inherit"](info.data["conversation"], info.data["session"]) is False:
        raise problem("is required on the first turn of a session (later turns without "
                      "one take the time of the turn before them)")
    return None


def _caption(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise problem(f"must be a string, got {_kind(value)}")
    return value.strip() or None  # exporters write "" for "no image"


def _private(value: Any) -> bool:
    if not isinstance(value, bool):
        raise problem(f"must be true or false, got {_kind(value)}")
    return value


def _extra(extra: dict[Any, Any]) -> dict[Any, Any]:
    """Unknown keys stay metadata, as on documents; document fields and the keys the
    conversation writes may not be given."""
    reserved = _reserved()
    found = []
    for key in extra:
        if key in _INSTEAD:
            found.append(((), problem(_INSTEAD[key], at=key)))
        elif key in reserved:
            found.append(((), problem("is a document field a turn does not take; remove "
                                      'it (see "Conversations" in the README)', at=key)))
        elif key in COMPUTED:
            found.append(((), problem("is written from the conversation; rename it",
                                      at=key)))
    if found:
        raise problems(found)
    return extra


_Name = Annotated[str, PlainValidator(_name)]


class TurnSchema(Schema):
    """One turn line; ``extra`` gathers the unknown keys, which become metadata."""

    conversation: _Name
    session: Annotated[str | int | None, PlainValidator(_session)] = None
    speaker: _Name
    turn: Annotated[str | None, PlainValidator(lambda v: None if v is None else _name(v))] = None
    time: Annotated[Interval | None, PlainValidator(_time)] = Field(None, validate_default=True)
    text: _Name
    image_caption: Annotated[str | None, PlainValidator(_caption)] = None
    private: Annotated[bool, PlainValidator(_private)] = False
    extra: Annotated[dict[Any, Any], AfterValidator(_extra)] = Field(default_factory=dict)


REASONS = DOCUMENT_REASONS
"""pydantic's own problems (a missing field) are worded as on documents."""
