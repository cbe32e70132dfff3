"""Request bodies of the HTTP API (pydantic): unknown fields are an error, not ignored."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from chronorag.clock import parse_moment
from chronorag.config import time_zone
from chronorag.errors import ConfigError


def _iso(value: Any) -> Any:
    # The CLI's reading of --now and --as-of: ISO 8601 dates or datetimes, naive or not.
    return parse_moment(value) if isinstance(value, str) else value


def zone(name: str | None) -> ZoneInfo | None:
    """The IANA zone ``name`` (None when not given); ValueError names a bad one."""
    if name is None:
        return None
    try:
        return time_zone(name)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


def _zone_name(value: Any) -> Any:
    if isinstance(value, str):
        zone(value)
    return value


Moment = Annotated[datetime, BeforeValidator(_iso)]
Zone = Annotated[str, BeforeValidator(_zone_name)]
MAX_QUESTION = 4000


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AskBody(_Body):
    """``POST /v1/ask``: the question; the key's user is the asker."""

    question: str = Field(min_length=1, max_length=MAX_QUESTION)
    now: Moment | None = Field(None, description="when it is asked (default: the clock)")
    as_of: Moment | None = Field(None, description="the time it is about (default: now, "
                                 "or a time the question names)")
    k: int = Field(5, ge=1, le=100, description="evidence items")
    tz: Zone | None = Field(None, description="IANA zone for naive times (default: the "
                            "server's --tz)")
    context: dict[str, str] = Field(
        default_factory=dict, description="the asker's attributes, condition key -> value "
        "(e.g. {\"region\": \"EU\"}): documents written for other values do not apply. "
        "The key's user's attributes in the people directory apply too and cannot be "
        "contradicted")


class ConditionBody(_Body):
    """``POST /v1/conditions``: declare a condition key, or add values to one."""

    key: str = Field(min_length=1, max_length=100)
    values: list[str] = Field(default_factory=list, max_length=1000,
                              description="the values it takes (none: any value)")


class ContextBody(_Body):
    """``POST /v1/context``: a context pack of the semantic layer for text-to-SQL."""

    question: str = Field(min_length=1, max_length=MAX_QUESTION)
    now: Moment | None = None
    as_of: Moment | None = None
    budget: int | None = Field(None, ge=0, le=1_000_000, description="token budget")
    shares: dict[str, float] | None = Field(None, description="budget shares per category")
    tz: Zone | None = None


class ExtractBody(_Body):
    """``POST /v1/time/extract``: every time expression of a running text."""

    text: str = Field(max_length=1_000_000)
    now: Moment | None = None
    tz: Zone | None = None
