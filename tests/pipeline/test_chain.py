"""The period no version of a lineage applies in (``pipeline.chain.uncovered``): only
declared validity counts, drafts are no versions, an undated version leaves no hole."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import Document, Interval, Status
from chronorag.pipeline.chain import uncovered


def day(y: int, m: int = 1, d: int = 1) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


def point(moment: datetime) -> Interval:
    return Interval(moment, moment + timedelta(days=1))


def version(doc_id: str, start: datetime | None, end: datetime | None = None,
            **fields: Any) -> Document:
    return Document(doc_id, text="x", valid_from=None if start is None else point(start),
                    valid_to=None if end is None else point(end),
                    **{"status": Status.APPROVED, **fields})


OLD = version("v1", day(2020), day(2023))
NEW = version("v2", day(2024, 3), supersedes=("v1",))


def test_a_hole_between_two_versions_and_at_either_end() -> None:
    assert uncovered([OLD, NEW], at=day(2023, 6)) == Interval(day(2023), day(2024, 3))
    assert uncovered([OLD, NEW], at=day(2019)) == Interval(None, day(2020))
    assert uncovered([OLD], at=day(2025)) == Interval(day(2023), None)
    assert uncovered([OLD, NEW], at=day(2021)) is None
    assert uncovered([OLD, NEW], at=day(2026)) is None


def test_a_successor_ends_its_predecessor_and_leaves_no_hole() -> None:
    first = version("a", day(2020))
    second = version("b", day(2022), supersedes=("a",))
    assert uncovered([first, second], at=day(2021)) is None
    assert uncovered([first, second], at=day(2023)) is None


def test_undated_drafts_and_nothing_declared() -> None:
    assert uncovered([version("u", None)], at=day(2023)) is None
    draft = version("d", day(2023), status=Status.DRAFT)
    assert uncovered([OLD, NEW, draft], at=day(2023, 6)) == Interval(day(2023), day(2024, 3))
    assert uncovered([draft], at=day(2023, 6)) is None
    assert uncovered([], at=day(2023)) is None


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 10), st.booleans()), max_size=5),
       st.integers(-5, 50))
def test_the_hole_holds_the_moment_and_no_version_covers_it(
        spans: list[tuple[int, int, bool]], offset: int) -> None:
    base = day(2000)
    docs = [version(f"v{i}", base + timedelta(days=365 * s),
                    base + timedelta(days=365 * (s + n)) if closed else None)
            for i, (s, n, closed) in enumerate(spans)]
    at = base + timedelta(days=365 * offset)
    hole = uncovered(docs, at=at)
    covered = any(d.valid_from is not None and d.valid_from.start is not None
                  and d.valid_from.start <= at
                  and (d.valid_to is None or (d.valid_to.start is not None
                                              and at < d.valid_to.start))
                  for d in docs)
    assert (hole is None) == (covered or not docs)
    if hole is not None:
        assert (hole.start is None or hole.start <= at) and (hole.end is None or at < hole.end)
