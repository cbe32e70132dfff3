"""The JSON derived from a record's declaration (``chronorag.contract``): each marker, views,
the types a field may have, and the records of ``chronorag.model`` that rely on them."""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Annotated, Any, ClassVar

import pytest

from chronorag.contract import (
    Hidden,
    Inline,
    Key,
    OmitNone,
    Rounded,
    Spread,
    Via,
    entries,
    field_names,
    fields_holding,
    to_json,
)
from chronorag.flags import Flag
from chronorag.model import (
    INTERVAL_FIELDS,
    Answer,
    AnswerStatus,
    Constraint,
    Doubt,
    Granularity,
    Interval,
    Mention,
    Relation,
    Status,
    Understanding,
)
from chronorag.model import Document as StoredDocument

SHANGHAI = timezone(timedelta(hours=8))
NOON = datetime(2026, 11, 25, 12, 0, tzinfo=SHANGHAI)


class Colour(enum.StrEnum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


@dataclass(frozen=True)
class Span:
    start: datetime | None
    end: datetime | None


@dataclass(frozen=True)
class Item:
    name: str
    when: datetime
    colour: Colour
    level: Level
    tags: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    score: Annotated[float, Rounded(2)]
    scores: Annotated[Mapping[str, float], Rounded(1)]
    span: Annotated[Span | None, Inline]
    secret: Annotated[str, Hidden] = "x"
    note: Annotated[str | None, OmitNone] = None
    steps: Annotated[tuple[int, ...], Key("joins")] = ()
    labels: Annotated[tuple[str, ...], Via("shown_labels")] = ()
    extra: Annotated[Mapping[str, Any], Spread] = field(default_factory=dict)
    nested: Span | None = None

    def shown_labels(self) -> list[str]:
        return [label.upper() for label in self.labels]


ITEM = Item("a", NOON, Colour.RED, Level.HIGH, ("t",), ((1, 2),), 0.12345, {"s": 0.26},
            Span(NOON, None), labels=("x",), extra={"name": "not this", "more": 1})


def test_a_record_is_its_fields_in_order_each_by_its_type() -> None:
    assert to_json(ITEM) == {
        "name": "a", "when": "2026-11-25T12:00:00+08:00", "colour": "red", "level": 3,
        "tags": ["t"], "pairs": [[1, 2]], "score": 0.12, "scores": {"s": 0.3},
        "start": "2026-11-25T12:00:00+08:00", "end": None, "joins": [], "labels": ["X"],
        "nested": None, "more": 1}


def test_markers_that_leave_keys_out_and_keys_that_come_back() -> None:
    shown = to_json(Item("a", NOON, Colour.RED, Level.HIGH, (), (), 1.0, {}, None,
                         note="n", nested=Span(None, NOON)))
    assert "secret" not in shown and shown["note"] == "n"
    assert (shown["start"], shown["end"]) == (None, None)  # an absent inline: every key null
    assert shown["nested"] == {"start": None, "end": "2026-11-25T12:00:00+08:00"}
    assert isinstance(shown["score"], float)


def test_a_spread_mapping_comes_last_and_replaces_nothing() -> None:
    shown = to_json(ITEM)
    assert shown["name"] == "a" and list(shown)[-1] == "more"


def test_entries_describe_the_json() -> None:
    described = {e.key: e for e in entries(Item)}
    assert list(described) == ["name", "when", "colour", "level", "tags", "pairs", "score",
                               "scores", "span", "note", "joins", "labels", "extra",
                               "nested"]
    assert described["labels"].hint == list[str] and described["labels"].call
    assert described["joins"].source == "steps" and described["span"].inline
    assert described["score"].rounded == 2 and described["note"].omit_none
    assert field_names(Span) == ("start", "end")
    assert fields_holding(Item, Span) == ("span", "nested")


@dataclass(frozen=True)
class View:
    first: int
    second: int
    json_keys: ClassVar[tuple[str, ...]] = ("total", "first")

    @property
    def total(self) -> int:
        return self.first + self.second


def test_a_view_lists_its_keys_fields_or_properties() -> None:
    assert to_json(View(1, 2)) == {"total": 3, "first": 1}


@dataclass(frozen=True)
class Unwritable:
    values: set[int]


@dataclass(frozen=True)
class Either:
    value: int | str


@dataclass(frozen=True)
class Mixed:
    pair: tuple[str, datetime]


def test_a_type_without_json_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="no JSON for the declared type set"):
        to_json(Unwritable({1}))
    with pytest.raises(TypeError, match="declare one type"):
        to_json(Either(1))
    with pytest.raises(TypeError, match="its items must be of one kind"):
        to_json(Mixed(("a", NOON)))


def test_string_enum_values_given_as_plain_strings_are_written_alike() -> None:
    assert to_json(Item("a", NOON, "red", Level.HIGH, (), (), 1.0, {}, None))[  # type: ignore[arg-type]
        "colour"] == "red"


# -- the records of chronorag.model -----------------------------------------------------


def test_interval_mention_and_constraint() -> None:
    day = Interval(NOON, NOON + timedelta(days=1), Granularity.DAY)
    assert day.to_json() == {"start": "2026-11-25T12:00:00+08:00",
                             "end": "2026-11-26T12:00:00+08:00", "granularity": "day"}
    mention = Mention("yesterday", 4, 13, day, relation=Relation.SINCE, anchor=NOON)
    assert list(mention.to_json().items()) == [
        ("text", "yesterday"), ("span", [4, 13]), *day.to_json().items(),
        ("relation", "since"), ("anchor", "2026-11-25T12:00:00+08:00")]
    unsure = Constraint(Relation.IN, interval=day, doubts=(Doubt.FROM_NOW,))
    assert unsure.to_json() == {"relation": "in", "order": None, "start": day.to_json()[
        "start"], "end": day.to_json()["end"], "anchor": None, "confidence": "unsure",
        "doubts": ["from_now"]}
    assert Constraint().to_json()["confidence"] == "sure"


def test_an_answer_shows_its_owners_as_flags_and_its_extras_after_the_contract() -> None:
    answer = Answer("q?", NOON, NOON, Understanding("q?", "q"), AnswerStatus.UNCERTAIN, "a",
                    flags=(Flag.PARALLEL_VIEWS, Flag.TIMES_DISAGREE), owners=("legal", "shop"),
                    timings_ms={"total": 3.0}, extras={"answer": "not this", "semantic": {}})
    shown = answer.to_json()
    assert shown["flags"] == ["parallel_views", "owner:legal", "owner:shop", "times_disagree"]
    assert list(shown) == ["question", "now", "as_of", "understanding", "status", "answer",
                           "evidence", "upcoming", "flags", "semantic"]
    assert shown["answer"] == "a" and "question" not in shown["understanding"]


def test_the_content_hash_is_the_one_stored_documents_carry() -> None:
    """Stores compare it to skip unchanged documents: it must not move. The payload below
    is how it was written out by hand before it was derived from the JSON."""
    doc = StoredDocument("d", "Text", title="T", status=Status.APPROVED, supersedes=("c",),
                         valid_from=Interval(datetime(2024, 1, 1, tzinfo=UTC), None),
                         ingested_at=NOON, metadata={"k": [1]}, source="f.jsonl:1")
    payload = {"id": "d", "text": "Text", "title": "T", "source_type": None,
               "status": "approved", "supersedes": ["c"], "derived_from": [],
               "subject": None, "owner": None, "metadata": {"k": [1]},
               "valid_from": {"start": "2024-01-01T00:00:00+00:00", "end": None,
                              "granularity": None},
               "valid_to": None, "occurred_at": None, "published_at": None,
               "modified_at": None}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    assert doc.content_hash() == hashlib.sha256(blob.encode("utf-8")).hexdigest()
    assert INTERVAL_FIELDS == ("valid_from", "valid_to", "occurred_at", "published_at",
                               "modified_at")
