"""The period no declared version covers (``answer.gaps``) and how ``decide`` reports it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.decide import decide
from chronorag.answer.gaps import uncovered
from chronorag.flags import Flag
from chronorag.model import AnswerStatus, Interval, Status

from .test_decide import ev

Q = "How many days do I have to return an item?"


def day(y: int, m: int = 1, d: int = 1) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


OLD = ev("returns-2020", "Returns within 60 days.", title="Returns", applicable=False,
         valid_from=day(2020), valid_to=day(2023), flags=(Flag.EXPIRED,))
NEW = ev("returns-2024", "Returns within 45 days.", title="Returns", applicable=False,
         valid_from=day(2024, 3), flags=(Flag.NOT_YET_VALID,))


def test_a_hole_between_two_versions() -> None:
    assert uncovered([OLD, NEW], at=day(2023, 6)) == Interval(day(2023), day(2024, 3))
    assert uncovered([OLD, NEW], at=day(2021)) is None
    assert uncovered([OLD, NEW], at=day(2025)) is None
    assert uncovered([NEW], at=day(2023, 6)) == Interval(None, day(2024, 3))
    assert uncovered([OLD], at=day(2023, 6)) == Interval(day(2023), None)


def test_undated_drafts_and_other_groups_say_nothing() -> None:
    undated = ev("faq", "Returns within 30 days.", title="Returns")
    assert uncovered([undated], at=day(2023, 6)) is None
    draft = ev("returns-draft", "Returns within 90 days.", title="Returns",
               valid_from=day(2023), status=Status.DRAFT)
    assert uncovered([OLD, NEW, draft], at=day(2023, 6)) == Interval(day(2023), day(2024, 3))
    # A successor's start ends a version whose own validity is open.
    first = ev("a", "x", title="A", valid_from=day(2020), valid_until=day(2022))
    assert uncovered([first], at=day(2021)) is None
    assert uncovered([first], at=day(2022)) == Interval(day(2022), None)


def test_decide_names_the_hole_of_a_not_found_answer() -> None:
    decision = decide(Q, [OLD, NEW], as_of=day(2023, 6))
    assert decision.status is AnswerStatus.NOT_FOUND
    assert decision.flags == (Flag.NO_APPLICABLE_EVIDENCE, Flag.TIME_NOT_COVERED)
    assert decision.uncovered == Interval(day(2023), day(2024, 3))
    answered = decide(Q, [ev("returns-2024", "Returns within 45 days.", title="Returns",
                             valid_from=day(2024, 3)), OLD], as_of=day(2025))
    assert answered.uncovered is None and Flag.TIME_NOT_COVERED not in answered.flags


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 10), st.booleans()), max_size=5),
       st.integers(-5, 50))
def test_the_hole_holds_the_moment_and_no_version_covers_it(
        spans: list[tuple[int, int, bool]], offset: int) -> None:
    base = day(2000)
    items = [ev(f"v{i}", "x", title="T", valid_from=base + timedelta(days=365 * s),
                valid_to=base + timedelta(days=365 * (s + n)) if closed else None)
             for i, (s, n, closed) in enumerate(spans)]
    at = base + timedelta(days=365 * offset)
    hole = uncovered(items, at=at)
    covered = any(i.valid_from <= at and (i.valid_to is None or at < i.valid_to)
                  for i in items if i.valid_from is not None)
    assert (hole is None) == (covered or not items)
    if hole is not None:
        assert (hole.start is None or hole.start <= at) and (hole.end is None or at < hole.end)
