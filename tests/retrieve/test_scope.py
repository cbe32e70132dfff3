"""The records that may tell of a period: said in it, or soon after it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from chronorag.model import Granularity, Interval
from chronorag.retrieve.scope import TOLD_AFTER, told_window

DAY = Interval(datetime(2023, 12, 4, tzinfo=UTC), datetime(2023, 12, 5, tzinfo=UTC),
               Granularity.DAY)


def test_a_day_is_told_of_for_two_weeks_after_it() -> None:
    told = told_window(DAY)
    assert (told.start, told.end) == (DAY.start, datetime(2023, 12, 19, tzinfo=UTC))


def test_a_year_is_told_of_through_the_next_year() -> None:
    year = Interval(datetime(2022, 1, 1, tzinfo=UTC), datetime(2023, 1, 1, tzinfo=UTC),
                    Granularity.YEAR)
    told = told_window(year)
    assert told.start == year.start and told.end == datetime(2024, 1, 1, tzinfo=UTC)


def test_an_open_window_is_left_as_it_is() -> None:
    before = Interval(None, datetime(2020, 1, 1, tzinfo=UTC))
    assert told_window(before) == before


def test_the_end_of_the_calendar_opens_the_window() -> None:
    last = Interval(datetime(9999, 12, 30, tzinfo=UTC), datetime(9999, 12, 31, tzinfo=UTC))
    assert told_window(last).end is None


@given(st.datetimes(timezones=st.just(UTC)), st.timedeltas(min_value=timedelta(seconds=1),
                                                          max_value=timedelta(days=40000)))
def test_the_told_window_holds_the_window(start: datetime, length: timedelta) -> None:
    try:
        window = Interval(start, start + length)
    except OverflowError:
        return
    told = told_window(window)
    assert told.start == window.start
    assert told.end is None or told.end >= window.end + min(length, TOLD_AFTER)
