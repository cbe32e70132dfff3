"""Times of a year counted back (三年前3月, a year ago today) and yearless times anchored by
an earlier time of their sentence (2017年8月至11月, 2021年3月5日……31日)."""

from __future__ import annotations

import calendar
from datetime import UTC, date, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.timex import calendar as cal
from chronorag.timex import parse

moments = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 12, 31),
                       timezones=st.just(UTC))
CN = "零一二三四五六七八九"


def _one(text: str, now: datetime) -> tuple[date, date]:
    found = parse(text, now=now)
    assert len(found) == 1 and found[0].text == text, [e.text for e in found]
    interval = found[0].interval
    assert interval.start is not None and interval.end is not None
    return interval.start.date(), interval.end.date()


@settings(max_examples=100, deadline=None)
@given(now=moments, n=st.integers(1, 9))
def test_the_same_day_years_back(now: datetime, n: int) -> None:
    back = cal.shift(now.date(), "year", -n)
    assert _one(f"{CN[n]}年前的今天", now)[0] == back
    assert _one(f"{n} years ago today", now)[0] == back


@settings(max_examples=100, deadline=None)
@given(now=moments, n=st.integers(1, 9), month=st.integers(1, 12))
def test_a_month_years_back(now: datetime, n: int, month: int) -> None:
    year = now.year - n
    assert _one(f"{n}年前{month}月", now) == (date(year, month, 1),
                                             cal.add_months(date(year, month, 1), 1))
    name = calendar.month_name[month]
    assert _one(f"{n} years ago in {name}", now)[0] == date(year, month, 1)


@settings(max_examples=100, deadline=None)
@given(now=moments, n=st.integers(1, 9))
def test_years_ago_is_that_year(now: datetime, n: int) -> None:
    assert _one(f"{n}年前", now) == (date(now.year - n, 1, 1), date(now.year - n + 1, 1, 1))


@settings(max_examples=100, deadline=None)
@given(now=moments, year=st.integers(1900, 2100), month=st.integers(1, 12),
       data=st.data())
def test_a_bare_day_takes_the_month_before_it(now: datetime, year: int, month: int,
                                              data: st.DataObject) -> None:
    last = calendar.monthrange(year, month)[1]
    first, second = sorted(data.draw(st.lists(st.integers(1, last), min_size=2, max_size=2,
                                              unique=True)))
    text = f"{year}年{month}月{first}日发布，{second}日生效"
    found = parse(text, now=now)
    assert [e.interval.start.date() for e in found if e.interval.start] == [
        date(year, month, first), date(year, month, second)]


@settings(max_examples=100, deadline=None)
@given(now=moments, year=st.integers(1900, 2100), a=st.integers(1, 12), b=st.integers(1, 12))
def test_a_month_range_keeps_its_year(now: datetime, year: int, a: int, b: int) -> None:
    first, last = min(a, b), max(a, b)
    if first == last:
        return
    found = parse(f"{year}年{first}月至{last}月", now=now)
    assert len(found) == 1
    assert found[0].interval.start == datetime(year, first, 1, tzinfo=UTC)
    assert found[0].interval.end == datetime(year + (last == 12), last % 12 + 1, 1, tzinfo=UTC)


@settings(max_examples=200, deadline=None)
@given(now=moments, text=st.lists(st.sampled_from(
    [*"年月日号前后的今天去本周这个星期三五十一二0123456789，。至到-",
     "同一月", "上半年", "2019年", "三年前", "31日", "季度", "前三季度", "统一"]),
    max_size=20).map("".join))
def test_any_text_of_these_pieces_reads_well_formed(now: datetime, text: str) -> None:
    for e in parse(text, now=now):
        assert text[e.start:e.end] == e.text
        # Open on one side only where the phrase says so: 今后 is "from now on".
        assert e.interval.start is not None or e.interval.end is not None
        if e.interval.end is None:
            assert e.text in {"今后"}, e.text
        if e.interval.start is not None and e.interval.end is not None:
            assert e.interval.start < e.interval.end


def test_a_sentence_end_stops_the_anchor() -> None:
    now = datetime(2024, 11, 12, tzinfo=UTC)
    found = parse("2019年的冠军。6月", now=now)
    assert found[-1].interval.start == datetime(2024, 6, 1, tzinfo=UTC)


def test_same_month_is_not_january() -> None:
    now = datetime(2024, 11, 12, tzinfo=UTC)
    assert [e.text for e in parse("同一月发生了两起事故", now=now)] == []


def test_a_bare_quarter_takes_the_year_of_its_sentence() -> None:
    now = datetime(2024, 11, 12, tzinfo=UTC)
    found = parse("2021年3月5日发布，三季度生效", now=now)
    assert found[-1].text == "三季度"
    assert found[-1].interval.start == datetime(2021, 7, 1, tzinfo=UTC)


@settings(max_examples=150, deadline=None)
@given(now=moments, year=st.integers(1990, 2030), month=st.integers(1, 12),
       phrase=st.sampled_from(["比上月上涨", "环比上月下降", "较上个月回落", "与上月相比持平"]))
def test_last_month_compared_with_a_stated_month_counts_from_it(
        now: datetime, year: int, month: int, phrase: str) -> None:
    found = parse(f"{year}年{month}月CPI{phrase}", now=now)
    assert len(found) == 2, found
    prev_year, prev_month = (year, month - 1) if month > 1 else (year - 1, 12)
    assert found[1].interval.start == datetime(prev_year, prev_month, 1, tzinfo=UTC)


def test_a_comparison_counts_from_its_sentences_time_only_when_it_is_fine_enough() -> None:
    now = datetime(2024, 8, 30, 12, tzinfo=UTC)
    assert parse("2023年5月，与去年相比增长", now=now)[1].interval.start == datetime(
        2022, 1, 1, tzinfo=UTC)
    assert parse("2024年3月5日较上周下降", now=now)[1].interval.start == datetime(
        2024, 2, 26, tzinfo=UTC)
    # A year does not say which month 上月 follows; nor is 上月 without 比 a comparison.
    assert parse("2024年比上月", now=now)[1].interval.start == datetime(2024, 7, 1, tzinfo=UTC)
    assert parse("2024年3月，上月的数据", now=now)[1].interval.start == datetime(
        2024, 7, 1, tzinfo=UTC)
    assert parse("2024年3月CPI比上月上涨。上月", now=now)[2].interval.start == datetime(
        2024, 7, 1, tzinfo=UTC)
