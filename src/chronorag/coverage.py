"""The time coverage of a store: which periods its texts speak of, per group of documents,
the holes between them, and the documents that speak of no time at all.

A temporal answer is only as good as the corpus's record of the period asked about: if
nothing of a group covers 1990-2000, a question about 1995 is answered from the nearest
record. Coverage makes such holes visible.

What a document covers:

* the times its sentences state (``Sentence.mentions``, not inherited, not a date field
  attached to a sentence), at year granularity or finer: a decade or a century names an
  era, it is no record of one;
* its validity ``[valid_from, valid_to)``: a policy in force speaks for its whole period
  (an open end runs to ``now``);
* its ``occurred_at``: a record is about its own moment.

When it was published or edited says when it was written, not what it covers. A group's
span runs from its first covered unit (a year or a month) to its last; a hole is a run of
units inside the span that no document of the group covers.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypedDict

from chronorag.deps import import_module
from chronorag.errors import ConfigError
from chronorag.model import Chunk, Document, Granularity, Interval
from chronorag.store.base import DocumentStore

GROUPINGS = ("title", "source_type", "entity")
"""What documents are grouped by: their title, their source type, or the entity they are
about (``subject``: the person a record is about)."""
UNITS = ("year", "month")

_STATED = frozenset({Granularity.YEAR, Granularity.SEASON, Granularity.QUARTER,
                     Granularity.MONTH, Granularity.WEEK, Granularity.DAY, Granularity.HOUR,
                     Granularity.MINUTE, Granularity.SECOND})
# Units past this many years from now are read as no record (a "year 9999" placeholder).
_HORIZON_YEARS = 100
_NONE = "(none)"


class GroupJSON(TypedDict):
    """One group in ``coverage --json``: units and holes as labels ("1991–1995")."""

    group: str
    documents: int
    undated: int
    span: str | None
    units: dict[str, int]
    holes: list[str]


class CoverageJSON(TypedDict):
    """``coverage --json``."""

    by: str
    unit: str
    now: str
    documents: int
    undated: int
    undated_share: float | None
    groups: list[GroupJSON]


@dataclass(frozen=True)
class GroupCoverage:
    """One group's coverage: its documents, how many state no time, the units stated
    (with how many documents state each) and the holes inside its span."""

    name: str
    documents: int
    undated: int
    counts: Mapping[int, int]
    holes: tuple[Interval, ...]
    unit: str

    @property
    def span(self) -> Interval | None:
        if not self.counts:
            return None
        return Interval(_unit_start(min(self.counts), self.unit),
                        _unit_start(max(self.counts) + 1, self.unit))

    def missing(self, asked: Interval) -> tuple[Interval, ...]:
        """The holes of this group that ``asked`` falls into (overlaps)."""
        return tuple(h for h in self.holes if h.overlaps(asked))

    def to_json(self) -> GroupJSON:
        span = self.span
        return {
            "group": self.name, "documents": self.documents, "undated": self.undated,
            "span": None if span is None else _label(span, self.unit),
            "units": {_unit_label(k, self.unit): n for k, n in sorted(self.counts.items())},
            "holes": [_label(h, self.unit) for h in self.holes],
        }


@dataclass(frozen=True)
class Coverage:
    """The coverage of every group of a store, judged at ``now``."""

    by: str
    unit: str
    now: datetime
    groups: tuple[GroupCoverage, ...]

    @property
    def documents(self) -> int:
        return sum(g.documents for g in self.groups)

    @property
    def undated(self) -> int:
        return sum(g.undated for g in self.groups)

    def group(self, name: str) -> GroupCoverage | None:
        return next((g for g in self.groups if g.name == name), None)

    def to_json(self) -> CoverageJSON:
        return {"by": self.by, "unit": self.unit, "now": self.now.isoformat(),
                "documents": self.documents, "undated": self.undated,
                "undated_share": round(self.undated / self.documents, 4)
                if self.documents else None,
                "groups": [g.to_json() for g in self.groups]}


def group_of(document: Document, by: str) -> str:
    """The name of ``document``'s group ("(none)" when it has no such field)."""
    value = {"title": document.title, "source_type": document.source_type,
             "entity": document.subject}[by]
    return value or _NONE


def covered_units(document: Document, chunks: Iterable[Chunk], *, unit: str,
                  now: datetime) -> set[int]:
    """The units (years or months, as indices) ``document`` covers; see the module."""
    intervals = [m.interval for c in chunks for s in c.sentences for m in s.mentions
                 if not m.inherited and not m.from_metadata
                 and m.interval.granularity in _STATED]
    if document.valid_from is not None or document.valid_to is not None:
        start = None if document.valid_from is None else document.valid_from.start
        end = None if document.valid_to is None else document.valid_to.start
        intervals.append(Interval(start, end))
    if document.occurred_at is not None:
        intervals.append(document.occurred_at)
    units: set[int] = set()
    for interval in intervals:
        units.update(_units(interval, unit=unit, now=now))
    return units


def coverage(documents: Sequence[Document], chunks: Iterable[Chunk], *, by: str = "title",
             unit: str = "year", now: datetime) -> Coverage:
    """The coverage of ``documents`` (with their ``chunks``), grouped ``by``."""
    _check(by, unit)
    by_doc: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in chunks:
        by_doc[chunk.doc_id].append(chunk)
    members: dict[str, list[set[int]]] = defaultdict(list)
    for doc in documents:
        members[group_of(doc, by)].append(
            covered_units(doc, by_doc.get(doc.id, ()), unit=unit, now=now))
    groups = [_group(name, units, unit) for name, units in members.items()]
    groups.sort(key=lambda g: (-g.documents, g.name))
    return Coverage(by, unit, now, tuple(groups))


def _group(name: str, documents: Sequence[set[int]], unit: str) -> GroupCoverage:
    counts = Counter(u for units in documents for u in units)
    runs = _runs(sorted(counts))
    holes = tuple(Interval(_unit_start(before[1] + 1, unit), _unit_start(after[0], unit))
                  for before, after in itertools.pairwise(runs))
    return GroupCoverage(name, len(documents), sum(1 for u in documents if not u),
                         dict(counts), holes, unit)


def _check(by: str, unit: str) -> None:
    if by not in GROUPINGS:
        raise ConfigError(f"unknown grouping {by!r}; choose one of: {', '.join(GROUPINGS)}")
    if unit not in UNITS:
        raise ConfigError(f"unknown unit {unit!r}; choose one of: {', '.join(UNITS)}")


def _index(moment: datetime, unit: str) -> int:
    moment = moment.astimezone(UTC)
    return moment.year if unit == "year" else moment.year * 12 + moment.month - 1


def _unit_start(index: int, unit: str) -> datetime:
    if unit == "year":
        return datetime(index, 1, 1, tzinfo=UTC)
    return datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)


def _units(interval: Interval, *, unit: str, now: datetime) -> range:
    """The unit indices ``interval`` touches; an open end runs to ``now``, an open start
    covers only the unit before its end, and nothing past the horizon counts."""
    last_year = now.astimezone(UTC).year + _HORIZON_YEARS
    end = interval.end or max(now, interval.start or now)
    start = interval.start or (end - timedelta(microseconds=1))
    if start >= end or start.year > last_year:
        return range(0)
    end = min(end, datetime(last_year, 12, 31, tzinfo=UTC))
    return range(_index(start, unit), _index(end - timedelta(microseconds=1), unit) + 1)


def _unit_label(index: int, unit: str) -> str:
    return str(index) if unit == "year" else f"{index // 12:04d}-{index % 12 + 1:02d}"


def _label(interval: Interval, unit: str) -> str:
    """"1991-1999" (or "1995", "2020-03-2020-05") for a run of whole units."""
    assert interval.start is not None and interval.end is not None
    first = _index(interval.start, unit)
    last = _index(interval.end - timedelta(microseconds=1), unit)
    if first == last:
        return _unit_label(first, unit)
    return f"{_unit_label(first, unit)}–{_unit_label(last, unit)}"


def store_coverage(store: DocumentStore, *, by: str = "title", unit: str = "year",
                   now: datetime) -> Coverage:
    """The coverage of everything ``store`` holds (documents without their text)."""
    _check(by, unit)
    return coverage(store.documents(text=False), store.chunks(), by=by, unit=unit, now=now)


def as_table(report: Coverage, *, limit: int | None = None) -> str:
    """The report as text: one line per group, largest groups first."""
    share = f" ({report.undated / report.documents:.0%})" if report.documents else ""
    lines = [f"{report.documents} document(s) in {len(report.groups)} group(s) by "
             f"{report.by}; {report.undated} state no time{share}; unit {report.unit}"]
    shown = report.groups if limit is None else report.groups[:limit]
    for g in shown:
        span = "no time" if g.span is None else _label(g.span, g.unit)
        holes = ", ".join(_label(h, g.unit) for h in g.holes[:6])
        more = f" (+{len(g.holes) - 6} more)" if len(g.holes) > 6 else ""
        lines.append(f"  {g.name}: {g.documents} doc(s), {g.undated} undated; {span}"
                     + (f"; holes {holes}{more}" if g.holes else ""))
    if limit is not None and len(report.groups) > limit:
        lines.append(f"  ... {len(report.groups) - limit} more group(s) (--limit)")
    return "\n".join(lines)


def save_png(report: Coverage, path: str, *, limit: int = 40) -> None:
    """A picture of the report: one row per group (the largest ``limit``), a bar for each
    run of covered units, holes left blank (needs the ``plot`` extra: matplotlib)."""
    matplotlib = import_module("matplotlib")
    matplotlib.use("Agg")
    plt = import_module("matplotlib.pyplot")
    groups = [g for g in report.groups[:limit] if g.counts]
    figure, axes = plt.subplots(figsize=(10, 1.0 + 0.3 * max(len(groups), 1)))
    for row, group in enumerate(reversed(groups)):
        runs = _runs(sorted(group.counts))
        axes.broken_barh([(_year(a, report.unit), _year(b + 1, report.unit) - _year(a, report.unit))
                          for a, b in runs], (row - 0.35, 0.7))
    axes.set_yticks(range(len(groups)), [g.name[:40] for g in reversed(groups)], fontsize=7)
    axes.set_xlabel("year")
    axes.set_title(f"time covered by {report.by} ({report.undated} of {report.documents} "
                   "documents state no time)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _runs(units: Sequence[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for u in units:
        if runs and runs[-1][1] == u - 1:
            runs[-1] = (runs[-1][0], u)
        else:
            runs.append((u, u))
    return runs


def _year(index: int, unit: str) -> float:
    return float(index) if unit == "year" else index / 12
