"""Periods a text counts back from when it was written: "for 10 years" said in 2023 began
in 2013."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.counted import counted_back

SAID = datetime(2023, 6, 3, 11, 51, tzinfo=UTC)


@pytest.mark.parametrize(("text", "phrase", "start", "granularity"), [
    ("He was such an important part of our family for 10 years.", "for 10 years",
     date(2013, 6, 1), "month"),
    ("I've been playing for about four months now.", "for about four months",
     date(2023, 2, 1), "month"),
    ("I recently left my IT job after 3 years.", "after 3 years", date(2020, 6, 1), "month"),
    ("Two weeks now and I still love it.", "Two weeks", date(2023, 5, 15), "week"),
    ("Over the past two years I learned a lot.", "the past two years", date(2021, 6, 1),
     "month"),
    ("我学小提琴三个月了。", "三个月", date(2023, 3, 1), "month"),
    ("我已经跑步两年了。", "两年", date(2021, 6, 1), "month"),
    ("已经三周，我还在学。", "三周", date(2023, 5, 8), "week"),
])
def test_a_period_up_to_the_anchor_began_in_its_unit(text: str, phrase: str, start: date,
                                                     granularity: str) -> None:
    found = counted_back(text, anchor=SAID, tz=UTC)
    assert found is not None
    assert found.phrase == phrase and text[found.start:].startswith(phrase)
    assert found.interval.start is not None and found.interval.granularity is not None
    assert (found.interval.start.date(), found.interval.granularity.value) == (start,
                                                                              granularity)
    # A count of years lands on a month it only approximates: "about June 2013".
    assert found.approximate == ("year" in phrase or "年" in phrase)


@pytest.mark.parametrize("text", [
    "I will be away for two weeks.",  # a plan: it reaches forward
    "It takes three years to build.",
    "We moved here three years ago.",  # a date: the date rules read it
    "The course lasts for years.",  # an unknown count names no start
    "Within two weeks we will know.",
    "No time here at all.",
])
def test_what_does_not_reach_up_to_the_anchor_names_no_start(text: str) -> None:
    assert counted_back(text, anchor=SAID, tz=UTC) is None


def test_the_unit_is_the_readers_calendar() -> None:
    shanghai = timezone(timedelta(hours=8))
    late = datetime(2023, 12, 31, 20, 0, tzinfo=UTC)  # already 2024 in Shanghai
    found = counted_back("We have lived here for 2 years now.", anchor=late, tz=shanghai)
    assert found is not None and found.interval.start is not None
    assert found.interval.start == datetime(2022, 1, 1, tzinfo=shanghai)


def test_a_period_before_the_first_year_names_no_start() -> None:
    early = datetime(5, 1, 1, tzinfo=UTC)
    assert counted_back("for 10 years now", anchor=early, tz=UTC) is None


@given(st.text(max_size=200), st.datetimes(timezones=st.just(UTC)))
def test_any_text_at_any_anchor_is_read_without_error(text: str, anchor: datetime) -> None:
    found = counted_back(text, anchor=anchor, tz=UTC)
    if found is not None:
        assert text[found.start:].startswith(found.phrase)
        assert found.interval.start is not None and found.interval.start <= anchor


COUNTS = st.sampled_from(["for {n} years", "for about {n} months now", "{n} weeks now",
                          "after {n} years", "the past {n} days", "已经{n}个月了", "{n}年了",
                          "I will stay for {n} years"])


@given(st.lists(st.one_of(COUNTS.map(lambda f: f.format(n="{n}")), st.text(max_size=10)),
                max_size=4), st.integers(0, 100000), st.datetimes(timezones=st.just(UTC)))
def test_composed_periods_at_any_anchor_are_read_without_error(parts: list[str], n: int,
                                                               anchor: datetime) -> None:
    text = " ".join(parts).replace("{n}", str(n))
    found = counted_back(text, anchor=anchor, tz=UTC)
    if found is not None:
        assert found.interval.start is not None and found.interval.start <= anchor
