"""Core value types shared by every stage of chronorag.

All types are frozen dataclasses. Datetimes are timezone-aware; intervals are half-open
``[start, end)`` with ``None`` for an open side. The records' JSON (``ask --json``, the
HTTP API, MCP) is declared on their fields: ``chronorag.contract`` says how.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from typing import Annotated, Any, ClassVar, Literal

from chronorag.contract import (
    Hidden,
    Inline,
    OmitEmpty,
    OmitNone,
    Rounded,
    Spread,
    Via,
    fields_holding,
    to_json,
)
from chronorag.flags import Flag, Flags


class Granularity(enum.StrEnum):
    """Precision of a time value, coarsest first."""

    CENTURY = "century"
    DECADE = "decade"
    YEAR = "year"
    SEASON = "season"
    QUARTER = "quarter"
    MONTH = "month"
    WEEK = "week"
    DAY = "day"
    HOUR = "hour"
    MINUTE = "minute"
    SECOND = "second"


class Relation(enum.StrEnum):
    """How a question's time relates to the facts it asks for."""

    IN = "in"
    AS_OF = "as_of"
    BEFORE = "before"
    AFTER = "after"
    BETWEEN = "between"
    SINCE = "since"
    UNTIL = "until"
    NONE = "none"


class Anchor(enum.StrEnum):
    """The edge of a state a question's time applies to: "appointed after 2015" asks when
    the office *began*, "left the club in 2005" when it *ended*."""

    START = "start"
    END = "end"


class Doubt(enum.StrEnum):
    """Why the reading of a question's time may be wrong; a doubted constraint weighs less.

    ``SEVERAL_TIMES``: the question names more than one time and the constraint is one of
    them. ``COMPARISON``: the question compares or lists events ("哪个更早", "是否在同一个
    月", "which came first"), so its time may belong to one of them only.
    ``FROM_NOW``: a time without its year (or month) was read in now's ("2月", "5日").
    """

    SEVERAL_TIMES = "several_times"
    COMPARISON = "comparison"
    FROM_NOW = "from_now"


class Order(enum.StrEnum):
    """Ordinal selection among matching facts ("the first", "the last")."""

    FIRST = "first"
    LAST = "last"


class Status(enum.StrEnum):
    """Editorial status of a document; absent means unknown."""

    APPROVED = "approved"
    DRAFT = "draft"
    RETIRED = "retired"


class Intent(enum.StrEnum):
    """What shape of answer a question wants."""

    CONTENT = "content"
    TIME = "time"
    COUNT = "count"
    # What changed between versions ("What changed in the privacy statement in 2020?").
    CHANGE = "change"


class AnswerStatus(enum.StrEnum):
    ANSWERED = "answered"
    UNCERTAIN = "uncertain"
    NOT_FOUND = "not_found"


def iso(value: datetime | None) -> str | None:
    """``value`` as the JSON carries it: ISO 8601 with its offset, or None."""
    return None if value is None else value.isoformat()


@dataclass(frozen=True)
class Interval:
    """A half-open time interval ``[start, end)``; ``None`` marks an open side."""

    start: datetime | None
    end: datetime | None
    granularity: Granularity | None = None

    def __post_init__(self) -> None:
        for name in ("start", "end"):
            value = getattr(self, name)
            if value is not None and value.tzinfo is None:
                raise ValueError(f"Interval.{name} must be timezone-aware, got {value!r}")
        if self.start is not None and self.end is not None and not self.start < self.end:
            raise ValueError(f"Interval start {self.start} must be before end {self.end}")

    @property
    def is_open(self) -> bool:
        return self.start is None or self.end is None

    def contains(self, moment: datetime) -> bool:
        """True when ``moment`` lies in ``[start, end)``."""
        if self.start is not None and moment < self.start:
            return False
        return not (self.end is not None and moment >= self.end)

    def overlaps(self, other: Interval) -> bool:
        """True when the two half-open intervals share at least one instant."""
        if self.end is not None and other.start is not None and self.end <= other.start:
            return False
        return not (other.end is not None and self.start is not None and other.end <= self.start)

    def covers(self, other: Interval) -> bool:
        """True when ``other`` lies entirely inside this interval."""
        if self.start is not None and (other.start is None or other.start < self.start):
            return False
        return not (self.end is not None and (other.end is None or other.end > self.end))

    def intersection(self, other: Interval) -> Interval | None:
        """The shared part of two intervals, or ``None`` when they do not overlap."""
        if not self.overlaps(other):
            return None
        starts = [s for s in (self.start, other.start) if s is not None]
        ends = [e for e in (self.end, other.end) if e is not None]
        return Interval(max(starts) if starts else None, min(ends) if ends else None,
                        self.granularity)

    def astimezone(self, tz: tzinfo) -> Interval:
        """The same interval with its ends shown in ``tz``."""
        return Interval(None if self.start is None else self.start.astimezone(tz),
                        None if self.end is None else self.end.astimezone(tz),
                        self.granularity)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class TimeExpression:
    """A time expression found in text: its surface, character span and interval."""

    text: str
    start: int
    end: int
    interval: Annotated[Interval, Inline]
    relative: bool = False

    # ``time --json``: the surface and the interval (its own offsets are not shown).
    json_keys: ClassVar[tuple[str, ...]] = ("text", "interval")

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Constraint:
    """A question's time constraint: ``relation`` + optional ``order`` + interval, and
    ``anchor`` when the time applies to the start or end of a state, not its whole span."""

    relation: Relation = Relation.NONE
    order: Order | None = None
    interval: Interval | None = None
    anchor: Anchor | None = None
    doubts: tuple[Doubt, ...] = ()

    json_keys: ClassVar[tuple[str, ...]] = (
        "relation", "order", "start", "end", "anchor", "confidence", "doubts")

    @property
    def sure(self) -> bool:
        """Whether the reading has no doubt (see ``Doubt``)."""
        return not self.doubts

    @property
    def confidence(self) -> Literal["sure", "unsure"]:
        return "sure" if self.sure else "unsure"

    @property
    def start(self) -> datetime | None:
        """The start of the constraint's interval (None: open, or no interval)."""
        return None if self.interval is None else self.interval.start

    @property
    def end(self) -> datetime | None:
        return None if self.interval is None else self.interval.end

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Mention:
    """A time mention inside a sentence; offsets are into the source document.

    ``interval`` is the time the mention names; ``relation`` is the word that opens it
    ("since 2013" is 2013 with ``SINCE``, "2018年以前" is 2018 with ``BEFORE``), ``IN``
    when none does. The named time is kept because a statement is dated by it; the
    relation says the statement may also hold beyond it.
    """

    text: str
    start: int
    end: int
    interval: Annotated[Interval, Inline]
    inherited: bool = False
    relation: Relation = Relation.IN
    # The moment a relative phrase ("yesterday", 上周五) was read against: its document's
    # reference time. ``None`` for an absolute phrase, which needs no anchor.
    anchor: datetime | None = None

    # The phrase, its span in the source, the time it names and what it was read against.
    json_keys: ClassVar[tuple[str, ...]] = ("text", "span", "interval", "relation", "anchor")

    @property
    def from_metadata(self) -> bool:
        """A document's own date field attached to a sentence (``occurred_at``,
        ``valid``), not a phrase of its text: it has no span."""
        return self.start == self.end

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


Conditions = Mapping[str, tuple[str, ...]]
"""A document's applicability beyond time: condition key -> the values it applies to."""


def canonical_conditions(conditions: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """``conditions`` with keys in order and each key's values sorted and unique."""
    return {key: tuple(sorted(set(conditions[key]))) for key in sorted(conditions)}


@dataclass(frozen=True)
class Document:
    """One source document with its time and source fields (see DESIGN.md).

    The fields are in the order of its JSON (``documents show --json``) and of the
    store's columns: the title before the text, though only the text is required.
    """

    id: str
    title: str = field(default="", kw_only=True)
    text: str
    source_type: str | None = None
    status: Status | None = None
    valid_from: Interval | None = None
    valid_to: Interval | None = None
    occurred_at: Interval | None = None
    published_at: Interval | None = None
    modified_at: Interval | None = None
    ingested_at: datetime | None = None
    supersedes: tuple[str, ...] = ()
    derived_from: tuple[str, ...] = ()
    subject: str | None = None
    owner: str | None = None
    # For whom the document holds beyond time: a declared condition key (the store's
    # ``conditions``) to the values it applies to, e.g. {"region": ("EU",)}. Empty: everyone.
    applies_to: Annotated[Conditions, OmitEmpty] = field(default_factory=dict)
    metadata: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""

    def __post_init__(self) -> None:
        if self.applies_to:  # one spelling of a condition: keys and values sorted, unique
            object.__setattr__(self, "applies_to", canonical_conditions(self.applies_to))

    @property
    def reference_time(self) -> datetime | None:
        """When the text was written or said: the anchor of its relative phrases.

        ``published_at`` (a news story, a policy, a note written after its event), else
        ``occurred_at`` (a message or a diary entry is written when it happens), else
        ``None``: such a text's "yesterday" has no day and is not read as one.
        """
        for value in (self.published_at, self.occurred_at):
            if value is not None and value.start is not None:
                return value.start
        return None

    def content_hash(self) -> str:
        """Hash of everything the user supplied: the JSON without ``ingested_at`` and
        ``source``."""
        payload = self.to_json()
        del payload["ingested_at"], payload["source"]
        blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def astimezone(self, tz: tzinfo) -> Document:
        """The same document with its time fields shown in ``tz``."""
        return replace(self, **{name: value.astimezone(tz) for name in INTERVAL_FIELDS
                                if (value := getattr(self, name)) is not None})

    def to_json(self) -> dict[str, Any]:
        """Every field; time fields as ``{"start", "end", "granularity"}``."""
        return to_json(self)


INTERVAL_FIELDS: tuple[str, ...] = fields_holding(Document, Interval)
"""The document's time fields, each an ``Interval`` or None, in declaration order."""


@dataclass(frozen=True)
class Sentence:
    """A sentence of a document with its offsets and time mentions."""

    doc_id: str
    index: int
    start: int
    end: int
    text: str
    mentions: tuple[Mention, ...] = ()


@dataclass(frozen=True)
class Chunk:
    """A sentence-aligned passage; ``start``/``end`` are offsets in the source document."""

    id: str
    doc_id: str
    index: int
    start: int
    end: int
    text: str
    sentences: tuple[Sentence, ...] = ()


@dataclass(frozen=True)
class Entity:
    text: str
    id: str


@dataclass(frozen=True)
class NamedTime:
    """A time a question names by an event: "博鳌亚洲论坛2019年年会当天" is the day (``unit``)
    of the event "博鳌亚洲论坛2019年年会" (``event``)."""

    event: str
    unit: Granularity


@dataclass(frozen=True)
class Understanding:
    """What the engine understood of a question."""

    question: Annotated[str, Hidden]  # the answer carries it
    content: str
    intent: Intent = Intent.CONTENT
    constraint: Constraint = field(default_factory=Constraint)
    time_expressions: tuple[TimeExpression, ...] = ()
    entities: tuple[Entity, ...] = ()
    # The time the question names by an event ("…当天，"): it says when, so its words are not
    # part of ``content``. Only in the JSON when there is one.
    event: Annotated[NamedTime | None, OmitNone] = None

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Asking:
    """The circumstances of one question: who asks, when, about when, in which zone.

    ``None`` leaves a value to the engine: ``now`` its clock, ``as_of`` the time the
    question names (else ``now``), ``tz`` its zone. A ``user`` sees public documents,
    their own records and those they were granted; an ``admin`` sees every record.
    """

    user: str | None = None
    admin: bool = False
    now: datetime | None = None
    as_of: datetime | None = None
    tz: tzinfo | None = None
    k: int = 5
    # The asker's attributes (condition key -> value, e.g. {"region": "EU"}): documents
    # written for other values do not apply. The people directory adds the user's own.
    context: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def given(cls, asking: Asking | None, *, now: datetime | None, as_of: datetime | None,
              user: str | None, k: int, admin: bool, tz: tzinfo | None,
              context: Mapping[str, str] | None = None) -> Asking:
        """``asking``, or the keywords given instead of it (not both)."""
        keywords = cls(user=user, admin=admin, now=now, as_of=as_of, tz=tz, k=k,
                       context=dict(context or {}))
        if asking is None:
            return keywords
        if keywords != cls():
            raise TypeError("give the question's circumstances as one Asking or as "
                            "keywords, not both")
        return asking


@dataclass(frozen=True)
class Query:
    """A question ready for retrieval: its understanding, its reference times and the
    zone its times are read and shown in."""

    text: str
    now: datetime
    as_of: datetime
    understanding: Understanding
    user: str | None = None
    k: int = 5
    # An admin sees every record, whatever its subject (the CLI's ``--admin``).
    admin: bool = False
    tz: tzinfo = UTC
    # The asker's attributes, checked against the declared conditions (``Asking.context``).
    context: Mapping[str, str] = field(default_factory=dict)

    @property
    def content(self) -> str:
        return self.understanding.content

    @property
    def constraint(self) -> Constraint:
        return self.understanding.constraint


@dataclass(frozen=True)
class Hit:
    """A retrieved chunk with its scores so far; stages return new hits, never mutate.

    ``scores`` holds one named entry per stage that scored the hit; a later stage reads
    the name it needs, never ``score``:

    ========================  ==============  ==========================================
    name                      written by      meaning
    ========================  ==============  ==========================================
    ``bm25``                  keyword         BM25 of the question's content
    ``dense``                 dense           cosine of question and chunk vectors
    ``dense_relevance``       dense           ``dense`` calibrated to [0, 1]
    ``rrf``                   fusion          weighted reciprocal rank fusion
    ``late``                  late order      late interaction's MaxSim (``rank.late``)
    ``late_relevance``        late order      the pool's retrieval levels dealt out in
                                              MaxSim order; read as retrieval relevance
    ``rerank``                reranker        the cross-encoder's raw logit
    ``semantic``              reranker        relevance in [0, 1] (the model's sigmoid,
                                              else from retrieval scores); read by the
                                              temporal stage and the answer
    ``temporal``              temporal        fit in [0, 1] of the chunk's times to the
                                              constraint (1.0 without one)
    ``combined``              temporal        relevance × ``temporal``; read by validity
                                              (near-ties) and shown as evidence ``score``
    ``time_tier``,            temporal        what the gated rule orders by above
    ``time_order``                            relevance; read by validity
    ========================  ==============  ==========================================

    ``score`` is only the value the list a stage returns is ordered by, best first:
    a retriever's own score, ``rrf`` after fusion, ``semantic`` for the hits a reranker
    judged, and after the temporal stage the relevance term of its order (see
    ``ChronoTemporal``; the gated rule sorts by ``time_tier`` and ``time_order`` first).
    A hit whose place a stage keeps (a reranker's unjudged tail, a question without a
    time constraint) keeps its ``score``; validity moves hits by rules and keeps it too.
    """

    chunk: Chunk
    score: float
    scores: Mapping[str, float] = field(default_factory=dict)
    best_sentence: int | None = None
    flags: Flags = ()
    applicable: bool = True
    # Set by validity: the successors in force at ``as_of`` that displace the hit's
    # document, and when the document stops applying whatever ``as_of`` (``valid_to`` or
    # its first successor's start; None: open).
    superseded_by: tuple[str, ...] = ()
    valid_until: datetime | None = None


@dataclass(frozen=True)
class Evidence:
    """One item of an answer's evidence, with provenance and the reasons it ranked."""

    doc_id: str
    chunk_id: str
    title: str
    text: str
    start: int
    end: int
    source_type: str | None
    status: Status | None
    # The starts of the document's intervals (an open start: None).
    valid_from: datetime | None
    valid_to: datetime | None
    occurred_at: datetime | None
    applicable: bool
    flags: Flags
    score: Annotated[float, Rounded(6)]
    scores: Annotated[Mapping[str, float], Rounded(6)]
    # What the answer stage shows beside the text: who owns the source, when it was
    # published, and the chunk sentence that best answers the question (None: not known).
    owner: str | None = None
    published_at: datetime | None = None
    sentence: str | None = None
    # The times the chunk's own text states (not its document's date fields), those of
    # the best sentence first: what a date answer is read from, with phrase and anchor.
    times: tuple[Mention, ...] = ()
    # Who displaces the document at ``as_of`` (the ``superseded`` flag's reason), and when
    # it stops applying: ``valid_to`` or its first successor's start.
    superseded_by: tuple[str, ...] = ()
    valid_until: datetime | None = None
    # The titles of the headings around the best sentence, outermost first; None when the
    # document was not read with headings (a .jsonl record, a text file): no key then.
    section: Annotated[tuple[str, ...] | None, OmitNone] = None
    # The document's conditions (``Document.applies_to``); no key when it has none.
    applies_to: Annotated[Conditions, OmitEmpty] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Hole:
    """A period in which no stored version of a document applies: ``[start, end)``, an
    open side None (before its first version, after its last one ended)."""

    doc_id: str
    title: str
    start: datetime | None
    end: datetime | None

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Answer:
    """The result of ``Engine.ask``: status, short answer, evidence and provenance."""

    question: str
    now: datetime
    as_of: datetime
    understanding: Understanding
    status: AnswerStatus
    answer: str | None
    evidence: tuple[Evidence, ...] = ()
    upcoming: tuple[Evidence, ...] = ()
    # In the JSON with the owners of the parallel views: see ``flag_labels``.
    flags: Annotated[Flags, Via("flag_labels")] = ()
    # The owners of the parallel views (``Flag.PARALLEL_VIEWS``); the JSON lists each as
    # a flag ``owner:<name>`` after that one.
    owners: Annotated[tuple[str, ...], Hidden] = ()
    timings_ms: Annotated[Mapping[str, float], Hidden] = field(default_factory=dict)
    # The asker's attributes the answer was judged by (``Query.context``); no key if none.
    context: Annotated[Mapping[str, str], OmitEmpty] = field(default_factory=dict)
    # The period no declared version of the most relevant document covers (flag
    # ``time_not_covered``); no key otherwise.
    uncovered: Annotated[Hole | None, OmitNone] = None
    # Additive top-level keys of ``to_json`` from optional stages (e.g. "semantic"); they
    # never override a key of the contract above.
    extras: Annotated[Mapping[str, Any], Spread] = field(default_factory=dict)
    # The zone the question's times were read in; a model writing the answer later shows
    # its times in it. Not part of the JSON: ``now`` and ``as_of`` carry their offsets.
    tz: Annotated[tzinfo, Hidden] = UTC

    def to_json(self) -> dict[str, Any]:
        return to_json(self)

    def flag_labels(self) -> list[str]:
        """The flags as shown and in the JSON: each owner of the parallel views as
        ``owner:<name>`` right after ``parallel_views``."""
        out: list[str] = []
        for flag in self.flags:
            out.append(str(flag))
            if flag is Flag.PARALLEL_VIEWS:
                out.extend(f"owner:{owner}" for owner in self.owners)
        return out
