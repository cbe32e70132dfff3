"""Property tests: well-formed intervals, spans that point at their text, `now` shifts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.timex import parse

RELATIVE = ["yesterday", "today", "3 days ago", "last week", "next week", "this Friday",
            "上周二", "这周三", "下周一", "昨天", "大前天", "最近三天", "两周前", "本周",
            "the day before yesterday", "上上周", "yesterday at 3pm", "昨天下午3点"]
ABSOLUTE = ["6 May 2021", "Mar 2004", "in 2021", "Q3 2024", "the 1990s", "early 2003",
            "spring 2020", "2021年5月6日", "二〇一九年", "1990年代", "2003年底", "2021/5/6",
            "from 1811 to 1827", "between Mar 2004 and Oct 2005", "2003年到2005年之间"]
FILLER = ["Who won ", "What happened ", "我想知道", " please", "？", "?", " and then ",
          "the meeting ", "会议", "", " , "]

moments = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 12, 31),
                       timezones=st.just(UTC))
texts = st.lists(st.sampled_from(RELATIVE + ABSOLUTE + FILLER), min_size=1, max_size=6).map(
    "".join)


@settings(max_examples=150, deadline=None)
@given(text=texts, now=moments)
def test_spans_and_intervals_are_well_formed(text: str, now: datetime) -> None:
    found = parse(text, now=now)
    previous_end = 0
    for e in found:
        assert text[e.start:e.end] == e.text
        assert e.start >= previous_end
        previous_end = e.end
        assert e.interval.start is not None and e.interval.end is not None
        assert e.interval.start < e.interval.end


@settings(max_examples=100, deadline=None)
@given(expression=st.sampled_from(RELATIVE), now=moments)
def test_relative_expressions_shift_with_now(expression: str, now: datetime) -> None:
    week = timedelta(weeks=1)
    before, after = parse(expression, now=now), parse(expression, now=now + week)
    assert len(before) == len(after) == 1
    assert before[0].relative
    assert after[0].interval.start == before[0].interval.start + week
    assert after[0].interval.end == before[0].interval.end + week


@settings(max_examples=60, deadline=None)
@given(expression=st.sampled_from(ABSOLUTE), now=moments)
def test_absolute_expressions_ignore_now(expression: str, now: datetime) -> None:
    a, b = parse(expression, now=now), parse(expression, now=now + timedelta(weeks=1))
    assert a == b and len(a) == 1 and not a[0].relative


@settings(max_examples=80, deadline=None)
@given(year=st.integers(1000, 2100), month=st.integers(1, 12), day=st.integers(1, 28))
def test_written_dates_round_trip(year: int, month: int, day: int) -> None:
    names = ["January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December"]
    now = datetime(2024, 5, 15, tzinfo=UTC)
    for text in (f"{day} {names[month - 1]} {year}", f"{names[month - 1]} {day}, {year}",
                 f"{year}-{month:02d}-{day:02d}", f"{year}年{month}月{day}日"):
        (e,) = parse(text, now=now)
        assert e.interval.start == datetime(year, month, day, tzinfo=UTC), text
        assert e.interval.end == e.interval.start + timedelta(days=1)
