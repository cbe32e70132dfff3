"""Value types of the semantic layer: assets, bindings, join paths, engine results.

All frozen. An asset is keyed ``kind:id`` (``metric:gmv_v2``); a column is a derived asset
``column:table.name`` of its table and shares the table's time and status fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, ClassVar

from chronorag.contract import Hidden, Key, OmitNone, Rounded, to_json
from chronorag.model import Interval

KINDS: tuple[str, ...] = ("table", "metric", "term", "join", "example", "rule")
"""Entry kinds of a layer file; the top-level keys are their plurals."""

SECTIONS: Mapping[str, str] = {f"{kind}s": kind for kind in KINDS}
"""Top-level key of a layer file -> asset kind."""

ROLES: tuple[str, ...] = ("pk", "fk", "metric", "dimension", "filter", "time", "other")
KEEP_ROLES: frozenset[str] = frozenset(ROLES) - {"other"}
"""Column roles a text-to-SQL model needs; ``other`` columns are pruned."""

STATUSES: tuple[str, ...] = ("certified", "approved", "draft", "retired")
"""``certified`` is an approved asset its owner vouches for; it ranks above ``approved``."""

FANOUTS: tuple[str, ...] = ("low", "high")


def key_of(kind: str, asset_id: str) -> str:
    """The store-wide key of an asset: ``kind:id``."""
    return f"{kind}:{asset_id}"


@dataclass(frozen=True)
class Asset:
    """One validated entry of a semantic layer (or a column derived from a table).

    ``body`` holds the kind-specific fields as JSON values (``description``, ``columns``,
    ``table``, ``expression``, ``synonyms``, ``maps_to``, ``left``/``right``/``on``/
    ``fanout``, ``question``/``sql``, ``text``/``applies_to``).
    """

    kind: str
    id: str
    body: Mapping[str, Any]
    status: str | None = None
    valid_from: Interval | None = None
    valid_to: Interval | None = None
    published_at: Interval | None = None
    supersedes: tuple[str, ...] = ()
    derived_from: tuple[str, ...] = ()
    owner: str | None = None
    source: str = ""

    @property
    def key(self) -> str:
        return key_of(self.kind, self.id)

    @property
    def table(self) -> str | None:
        """The table a column or metric belongs to; a table's own id."""
        if self.kind == "table":
            return self.id
        if self.kind == "column":
            return self.id.split(".", 1)[0]
        value = self.body.get("table")
        return value if isinstance(value, str) else None

    def text(self) -> str:
        """What dense and keyword search read: name, description and definition."""
        b = self.body
        parts = [self.id.replace("_", " "), str(b.get("name", "")),
                 str(b.get("description", ""))]
        if self.kind == "metric":
            parts.append(str(b.get("expression", "")))
        elif self.kind == "term":
            parts += [str(b.get("term", "")), *map(str, b.get("synonyms", ()))]
        elif self.kind == "example":
            parts = [str(b.get("question", ""))]
        elif self.kind == "rule":
            parts.append(str(b.get("text", "")))
        return " ".join(p for p in parts if p).strip()


@dataclass(frozen=True)
class Binding:
    """A business term of the question bound to exactly one asset, valid at ``as_of``.

    ``requested`` is the asset the term maps to when it differs from ``asset_id`` (the
    version applicable at ``as_of`` replaced it).
    """

    term: str
    asset_id: str
    asset_type: str
    matched: str
    start: Annotated[int, Hidden]
    end: Annotated[int, Hidden]
    status: str | None = None
    requested: Annotated[str | None, OmitNone] = None
    value: Annotated[str | None, OmitNone] = None

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class JoinStep:
    """One join of a path, oriented along the walk."""

    id: Annotated[str, Hidden]
    left: str
    right: str
    on: str
    fanout: str

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class JoinPath:
    """Tables joined in order; ``risk`` is ``high`` when any step fans out."""

    tables: tuple[str, ...]
    steps: Annotated[tuple[JoinStep, ...], Key("joins")]
    connects: bool = False

    json_keys: ClassVar[tuple[str, ...]] = ("tables", "steps", "risk", "length", "connects")

    @property
    def risk(self) -> str:
        return "high" if any(s.fanout == "high" for s in self.steps) else "low"

    @property
    def high_steps(self) -> int:
        return sum(s.fanout == "high" for s in self.steps)

    @property
    def length(self) -> int:
        return len(self.steps)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class Candidate:
    """An asset found by a search engine with that engine's score."""

    key: str
    score: float
    engine: str


@dataclass(frozen=True)
class ExampleMatch:
    """An approved past question with its SQL, and its cosine to the question."""

    id: str
    question: str
    sql: str
    similarity: Annotated[float, Rounded(4)]
    status: str | None

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


@dataclass(frozen=True)
class SemanticOptions:
    """Thresholds and limits; ``widened()`` is what corrective retrieval relaxes to."""

    example_threshold: float = 0.95
    dense_min: float = 0.3
    candidates: int = 10
    join_depth: int = 3
    max_paths: int = 8
    expand_synonyms: bool = False
    widen_example_threshold: float = 0.85
    widen_dense_min: float = 0.15
    widen_factor: int = 3

    def widened(self) -> SemanticOptions:
        """Lower thresholds, more candidates, synonym expansion (one corrective retry)."""
        return SemanticOptions(
            example_threshold=min(self.example_threshold, self.widen_example_threshold),
            dense_min=min(self.dense_min, self.widen_dense_min),
            candidates=self.candidates * self.widen_factor,
            join_depth=self.join_depth, max_paths=self.max_paths * 2,
            expand_synonyms=True, widen_example_threshold=self.widen_example_threshold,
            widen_dense_min=self.widen_dense_min, widen_factor=self.widen_factor,
        )


@dataclass(frozen=True)
class SemanticRequest:
    """What every engine receives. ``seeds`` (asset keys) is filled for the graph engine."""

    question: str
    content: str
    as_of: datetime
    options: SemanticOptions = field(default_factory=SemanticOptions)
    seeds: tuple[str, ...] = ()
    expansion: str = ""


@dataclass(frozen=True)
class EngineResult:
    """One engine's output; only the parts that engine produces are filled."""

    engine: str
    candidates: tuple[Candidate, ...] = ()
    bindings: tuple[Binding, ...] = ()
    examples: tuple[ExampleMatch, ...] = ()
    join_paths: tuple[JoinPath, ...] = ()
    elapsed_ms: float = 0.0
